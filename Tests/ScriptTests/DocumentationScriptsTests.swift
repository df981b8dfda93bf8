import Foundation
import Testing

/// The scripts that check and build the documentation and measure the tree: each answers
/// `--help` and refuses an unknown option with status 2; `check-docs` finds the README's console
/// examples and, with the built `geofence`, they print what README.md shows byte for byte.
@Suite struct DocumentationScriptsTests {
    @Test(arguments: ["check-docs", "coverage", "docs", "format", "missing-docs.sh"])
    func helpAndUsageErrors(script: String) throws {
        let help = try ScriptSupport.run(script, ["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("usage: scripts/\(script)"))
        #expect(try ScriptSupport.run(script, ["--frob"]).status == 2)
    }

    @Test func checkDocsListsTheReadmeCommands() throws {
        let list = try ScriptSupport.run("check-docs", ["--list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("run   README.md:") && list.stdout.contains("swift run geofence distance"))
        #expect(list.stdout.contains("skip  README.md:") && list.stdout.contains("swift test"))
    }

    @Test func theReadmeConsoleExamplesPrintWhatTheyShow() throws {
        let geofence = try #require(ScriptSupport.builtProduct("geofence"), "geofence not built")
        let result = try ScriptSupport.run("check-docs", ["--console", "--bin", geofence.deletingLastPathComponent().path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"))
    }
}
