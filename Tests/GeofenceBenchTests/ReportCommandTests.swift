import Foundation
import Testing
@testable import GeofenceBench

/// `geofence-bench report` end to end: the quick report's files (the page's content is checked in
/// ReportingTests), and its command-line errors.
@Suite struct ReportCommandTests {
    @Test func quickReportWritesBothFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(BenchTool.main(["report", "--quick", "--out", directory + "/nested"]) == 0)
        let html = try String(contentsOfFile: directory + "/nested/report.html", encoding: .utf8)
        let json = try String(contentsOfFile: directory + "/nested/report.json", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(html.contains("quick preset"))
        #expect(html.components(separatedBy: "<svg ").count - 1 == 7)
        #expect(json.contains("\"is_quick\" : true"))
        let charts = try FileManager.default.contentsOfDirectory(atPath: directory + "/nested/charts").sorted()
        #expect(charts.count == 7)
        #expect(charts.contains("stabbing-throughput-against-fence-count.svg"))
    }

    @Test func badCommandLinesAndPeersFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/never-written"
        #expect(BenchTool.main(["report"]) == 2)  // --out is required
        #expect(BenchTool.main(["report", "--out", out, "--full"]) == 2)
        #expect(BenchTool.main(["report", "--help"]) == 0)
        let peers = FileManager.default.temporaryDirectory.appendingPathComponent("peers-\(UUID().uuidString).json").path
        try #"{"results": [{"kind": "peer", "name": "s2_cover"}]}"#.write(toFile: peers, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: peers) }
        #expect(BenchTool.main(["report", "--quick", "--out", out, "--peers", peers]) == 1)
        #expect(BenchTool.main(["report", "--quick", "--out", out, "--peers", "/nonexistent.json"]) == 1)
        let sweep = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString).json").path
        try #"{"workload": {"pois": 1, "devices": 1, "fixes": 1, "seed": 1}}"#.write(toFile: sweep, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: sweep) }
        #expect(BenchTool.main(["report", "--quick", "--out", out, "--sweep", sweep]) == 1)
        #expect(BenchTool.main(["report", "--quick", "--out", out, "--sweep", "/nonexistent.json"]) == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `--sweep` with the committed `scripts/sweep --quick` fixture: report.json carries its
    /// planner rows and names it.
    @Test func quickReportWithASweepFile() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReportingTests/Fixtures/sweep_quick.json").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(BenchTool.main(["report", "--quick", "--sweep", fixture, "--out", directory]) == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json")))
                as? [String: Any])
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture))) as? [String: Any])
        let source = try #require(json["sweep_source"] as? [String: Any])
        #expect(source["file"] as? String == "sweep_quick.json")
        let reportPlanner = try #require(json["planner"] as? [[String: Any]])
        let filePlanner = try #require(file["planner"] as? [[String: Any]])
        #expect(reportPlanner.count == filePlanner.count)
        for (r, f) in zip(reportPlanner, filePlanner) {
            #expect(try #require(r["system_recall"] as? Double) == #require(f["system_recall"] as? Double))
        }
        let html = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        #expect(html.contains("scripts/sweep file sweep_quick.json"))
    }
}

/// `geofence-bench help [COMMAND]` answers like `geofence help [COMMAND]`.
@Suite struct BenchHelpCommandTests {
    @Test func helpWordWorksLikeTheFlag() {
        #expect(BenchTool.main(["help"]) == 0)
        for type in BenchTool.commands {
            let command = type.name
            if command.isEmpty { continue }
            #expect(BenchTool.main(["help", command]) == 0, "\(command)")
        }
        #expect(BenchTool.main(["help", "frobnicate"]) == 2)
        #expect(BenchTool.main(["help", "stab", "plan"]) == 2)
    }

    @Test func generateHelpGivesDefaultsAndEveryFile() {
        for text in [
            "--pois 10000", "--devices 1000", "--fixes 1000000", "--seed 1", "--noise realistic",
            "fences.csv", "fixes.csv", "truth.csv"
        ] {
            #expect(GenerateCommand.help.contains(text), "\(text)")
        }
        #expect(StabCommand.help.contains("default packed"))
    }
}
