import Foundation
import Testing

/// `scripts/fuzz-cli` on a slice of its cases with the debug executables: it runs them, counts
/// nothing wrong, and says so.
@Suite(.enabled(if: ScriptSupport.which("python3") != nil, "needs python3"))
struct FuzzCLIScriptTests {
    /// Two slices: the malformed fence files of `geofence-bench stab`, and the output places of
    /// `geofence draw --out` (an input by its name or through a symbolic link, a missing
    /// directory, a directory, an existing file, a full device made with mknod and an unwritable
    /// directory, mode 555 or chattr +i for root; the last two are skipped with a note where the
    /// machine cannot make them).
    @Test(arguments: ["geofence-bench stab --fences", "geofence draw --out"])
    func aSliceOfTheCasesFindsNothingWrong(slice: String) throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let bin = bench.deletingLastPathComponent().path
        let result = try ScriptSupport.run("fuzz-cli", ["--bin", bin, "--only", slice, "--timeout", "20"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("cases in"))
        #expect(
            result.stdout.contains(
                "0 crashes, 0 hangs, 0 silent acceptances, 0 messages without place, 0 overwritten inputs, 0 refusals of valid input, 0 runs over"))
    }

    @Test func help() throws {
        let help = try ScriptSupport.run("fuzz-cli", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--timeout S") && help.stdout.contains("--rss-mib M"))
        #expect(try ScriptSupport.run("fuzz-cli", ["--bin", "/nonexistent"]).status == 2)
    }
}
