import Foundation
import Testing

/// The scripts that check and build the documentation and measure the tree: each answers
/// `--help` and refuses an unknown option with status 2; `check-docs` finds the README's console
/// examples and, with the built `geofence`, they print what README.md shows byte for byte.
@Suite struct DocumentationScriptsTests {
    @Test(arguments: ["check-docs", "coverage", "docs", "format", "missing-docs.sh", "poi-bad-fixtures"])
    func helpAndUsageErrors(script: String) throws {
        let help = try ScriptSupport.run(script, ["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("usage: scripts/\(script)"))
        #expect(try ScriptSupport.run(script, ["--frob"]).status == 2)
    }

    /// Every script, the S2 oracle's fixture maker and the service's scratch PostgreSQL included,
    /// answers `--help` with its usage and has a row in README.md's Scripts table.
    @Test func everyScriptAnswersHelpAndIsListedInTheReadme() throws {
        let root = ScriptSupport.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        var scripts: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scripts").path) {
            let path = root.appendingPathComponent("scripts/" + name).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: path)
            {
                scripts.append("scripts/" + name)
            }
        }
        #expect(scripts.count >= 12)
        scripts += ["scripts/s2-oracle/make-polygon-fixtures", "scripts/s2-oracle/compare-polygon-cli", "Server/scripts/scratch-postgres"]
        for script in scripts.sorted() {
            #expect(rows.contains { $0.hasPrefix("| `" + script) }, "README.md's Scripts table has no row for \(script)")
            let help = try ScriptSupport.runProgram(root.appendingPathComponent(script).path, ["--help"])
            #expect(help.status == 0, "\(script) --help: \(help.stderr)")
            #expect(help.stdout.lowercased().contains("usage"), "\(script) --help prints no usage")
        }
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
