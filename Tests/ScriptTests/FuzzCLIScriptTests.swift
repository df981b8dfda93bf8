import Foundation
import Testing

/// `scripts/fuzz-cli` on a slice of its cases with the debug executables: it runs them, counts
/// nothing wrong, and says so.
@Suite(.enabled(if: ScriptSupport.which("python3") != nil, "needs python3"))
struct FuzzCLIScriptTests {
    @Test func aSliceOfTheCasesFindsNothingWrong() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let bin = bench.deletingLastPathComponent().path
        let result = try ScriptSupport.run("fuzz-cli", ["--bin", bin, "--only", "geofence-bench stab --fences", "--timeout", "20"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("cases in"))
        #expect(result.stdout.contains("0 crashes, 0 hangs, 0 silent acceptances, 0 messages without place, 0 overwritten inputs"))
    }

    @Test func help() throws {
        let help = try ScriptSupport.run("fuzz-cli", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--timeout S"))
        #expect(try ScriptSupport.run("fuzz-cli", ["--bin", "/nonexistent"]).status == 2)
    }
}
