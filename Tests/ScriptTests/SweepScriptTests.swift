import Foundation
import Testing

/// `scripts/sweep --quick` end to end with the debug `geofence-bench`: both tables printed, the
/// JSON holds the 16 detector settings and every (cap, policy), and the rates are rates.
@Suite(.enabled(if: ScriptSupport.which("python3") != nil, "needs python3"))
struct SweepScriptTests {
    @Test func quickSweepPrintsBothTablesAndTheJSON() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("sweep.json").path
        let result = try ScriptSupport.run(
            "sweep",
            [
                "--quick", "--bench", bench.path, "--json-out", json,
                "--work", directory.appendingPathComponent("w").path
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| 0 (defaults) | 100 | "))
        #expect(result.stdout.contains("| 20 | MonitorPlanner defaults | "))
        #expect(result.stdout.contains("| 100 | nearest centers, planned once | "))
        #expect(result.stderr.contains("sweep: planner, cap 100"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let detector = try #require(object["detector"] as? [[String: Any]])
        let planner = try #require(object["planner"] as? [[String: Any]])
        #expect(detector.count == 16)
        #expect(planner.count == 6)
        for row in detector {
            let fp = try #require(row["false_positive_rate"] as? Double), fn = try #require(row["false_negative_rate"] as? Double)
            #expect((0...1).contains(fp) && (0...1).contains(fn))
        }
        for row in planner {
            let recall = try #require(row["system_recall"] as? Double)
            #expect((0...1).contains(recall))
        }
    }

    @Test func helpAndUsageErrors() throws {
        let help = try ScriptSupport.run("sweep", ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--caps LIST"))
        #expect(help.stdout.contains("geofence-bench report --sweep FILE"))
        #expect(try ScriptSupport.run("sweep", ["--caps", "twenty"]).status == 2)
        #expect(try ScriptSupport.run("sweep", ["--pois", "0", "--bench", "/bin/false"]).status == 2)
    }
}
