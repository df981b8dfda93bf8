import Foundation
import Testing

/// `scripts/readme-pictures --maps-only` with the built binaries reproduces the README's three
/// committed maps byte for byte (they depend on the data and the seed only, not on the machine).
@Suite struct ReadmePicturesScriptTests {
    @Test func theCommittedMapsAreReproduced() throws {
        let geofence = try #require(ScriptSupport.builtProduct("geofence"), "geofence not built")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptSupport.run(
            "readme-pictures",
            [
                "--maps-only", "--out", directory.path,
                "--bin", geofence.deletingLastPathComponent().path
            ])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["helsinki-pharmacy.svg", "helsinki-outline.svg", "trajectory.svg"] {
            let made = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            let committed = try String(contentsOf: ScriptSupport.packageRoot.appendingPathComponent("docs/images/" + name), encoding: .utf8)
            #expect(made == committed, "\(name) differs from docs/images/\(name): rerun scripts/readme-pictures --maps-only")
        }
    }

    @Test func helpAndUsageErrors() throws {
        let help = try ScriptSupport.run("readme-pictures", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--maps-only"))
        #expect(try ScriptSupport.run("readme-pictures", ["--frob"]).status == 2)
        #expect(try ScriptSupport.run("readme-pictures", ["--out"]).status == 2)
    }
}
