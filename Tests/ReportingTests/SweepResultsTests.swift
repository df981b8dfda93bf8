import Foundation
import Testing
import JSON
@testable import Reporting

/// Reading `scripts/sweep --json-out` files, and a report built with one: its detector, naive
/// detector and planner values are the file's, and the page names the file and its workload.
@Suite struct SweepResultsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sweep_quick.json").path

    /// The fixture as plain JSON, for comparing against.
    static func fixtureObject() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture))) as? [String: Any])
    }

    /// The number at `key` of a JSON object; fails the test when there is none.
    func number(_ object: [String: Any], _ key: String) throws -> Double {
        let value = object[key]
        return try #require((value as? Double) ?? (value as? Int).map(Double.init), "\(key)")
    }

    @Test func theFixtureReads() throws {
        let sweep = try SweepResults.read(path: Self.fixture)
        #expect(sweep.detector.count == 16)
        #expect(sweep.planner.count == 6)
        #expect(sweep.detector.filter(\.isDefault).count == 1)
        #expect(sweep.detector.first(where: \.isDefault)?.hysteresisMeters == 0)
        #expect(sweep.detector.first(where: \.isDefault)?.accuracyGateMeters == 100)
        #expect(
            sweep.source
                == BenchmarkReport.SweepSource(
                    file: "sweep_quick.json", pois: 300, devices: 100, fixes: 50_000,
                    seed: 1, noise: "realistic"))
    }

    @Test func aReportWithTheFixtureCarriesItsNumbers() throws {
        var settings = ReportSettings.quick
        settings.stabPOIs = [20]
        settings.stabFixes = 2_000
        settings.devices = 20
        settings.repetitions = 1
        settings.accuracyPOIs = 40
        settings.accuracyFixes = 6_000
        let sweep = try SweepResults.read(path: Self.fixture)
        let report = try ReportRunner.measure(settings, sweep: sweep, optimized: false) { _ in }
        #expect(report.sweepSource == sweep.source)
        #expect(report.settings.caps == [20, 100])
        #expect(report.settings.hysteresisMeters == [0, 10, 20, 40])
        #expect(report.settings.accuracyGatesMeters == [50, 100, 200, 1_500])
        #expect(!report.defaultLatenciesSeconds.isEmpty)

        // report.json holds the fixture's values, row for row.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ReportPage.json(report).utf8)) as? [String: Any])
        let file = try Self.fixtureObject()
        let fileDetector = try #require(file["detector"] as? [[String: Any]])
        let reportDetector = try #require(json["detector"] as? [[String: Any]])
        #expect(reportDetector.count == fileDetector.count)
        for (f, r) in zip(fileDetector, reportDetector) {
            #expect(try number(r, "hysteresis_meters") == number(f, "hysteresis_m"))
            #expect(try number(r, "accuracy_gate_meters") == number(f, "accuracy_gate_m"))
            #expect(try number(r, "false_positive_rate") == number(f, "false_positive_rate"))
            #expect(try number(r, "false_negative_rate") == number(f, "false_negative_rate"))
            #expect(try number(r, "latency_p50_seconds") == number(f, "latency_p50_s"))
            #expect(try number(r, "latency_p95_seconds") == number(f, "latency_p95_s"))
        }
        let fileNaive = try #require(file["naive"] as? [String: Any])
        let reportNaive = try #require(json["naive_detector"] as? [String: Any])
        #expect(try number(reportNaive, "false_positive_rate") == number(fileNaive, "false_positive_rate"))
        #expect(try number(reportNaive, "false_negative_rate") == number(fileNaive, "false_negative_rate"))
        let filePlanner = try #require(file["planner"] as? [[String: Any]])
        let reportPlanner = try #require(json["planner"] as? [[String: Any]])
        #expect(reportPlanner.count == filePlanner.count)
        for (f, r) in zip(filePlanner, reportPlanner) {
            #expect(try number(r, "cap") == number(f, "cap"))
            #expect(r["policy"] as? String == f["policy"] as? String)
            for key in ["recall", "system_recall", "replans_per_device_hour", "wakes_per_device_hour", "guaranteed_plan_share"] {
                #expect(try number(r, key) == number(f, key), "\(key)")
            }
        }
        let source = try #require(json["sweep_source"] as? [String: Any])
        #expect(source["file"] as? String == "sweep_quick.json")
        #expect(source["fixes"] as? Int == 50_000)
        #expect(try ReportPage.report(fromJSON: Data(ReportPage.json(report).utf8)) == report)

        // The page says where those figures came from, and its cells carry the file's values.
        let html = ReportPage.html(report)
        #expect(
            html.contains(
                "scripts/sweep file sweep_quick.json (workload: geofence-bench generate --pois 300 --devices 100 "
                    + "--fixes 50000 --seed 1, realistic noise)"))
        // The file's number read exactly (JSONSerialization on Linux may be off in the last digit).
        let exact = try JSONValue.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture))), nonFiniteWords: true)
        guard case .array(let rows)? = exact["detector"], case .number(let fp, _)? = rows[0]["false_positive_rate"] else {
            Issue.record("no detector[0].false_positive_rate in the fixture")
            return
        }
        #expect(html.contains("data-key=\"detector[0].false_positive_rate\" data-value=\"\(JSONObject.number(fp))\""))
    }

    @Test func aReportWithoutASweepFileSaysNothingOfOne() throws {
        var settings = ReportSettings.quick
        settings.stabPOIs = [20]
        settings.stabFixes = 1_000
        settings.devices = 10
        settings.repetitions = 1
        settings.accuracyPOIs = 20
        settings.accuracyFixes = 2_000
        settings.caps = [20]
        settings.hysteresisMeters = [0]
        settings.accuracyGatesMeters = [100]
        let report = try ReportRunner.measure(settings, optimized: false) { _ in }
        #expect(report.sweepSource == nil)
        #expect(!ReportPage.html(report).contains("scripts/sweep"))
    }

    @Test func nanLatenciesReadAsMissing() throws {
        var text = try String(contentsOfFile: Self.fixture, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"latency_p50_s\": 25.0", with: "\"latency_p50_s\": NaN")
        let sweep = try SweepResults.parse(Data(text.utf8), file: "nan.json")
        #expect(sweep.detector.contains { $0.latencyP50Seconds == nil })
        #expect(sweep.detector.allSatisfy { $0.latencyP95Seconds != nil })
    }

    /// Each malformation is reported with the file and the JSON path of the field.
    @Test func malformedFilesNameTheFileAndTheField() throws {
        let good = try String(contentsOfFile: Self.fixture, encoding: .utf8)
        func error(_ text: String) -> SweepResults.FormatError? {
            do {
                _ = try SweepResults.parse(Data(text.utf8), file: "/tmp/bad-sweep.json")
                return nil
            } catch {
                return error as? SweepResults.FormatError
            }
        }
        let cases: [(String, String)] = [
            (
                good.replacingOccurrences(of: "\"false_negative_rate\": 0.0042", with: "\"false_negative_rate\": \"low\""),
                "detector[0].false_negative_rate"
            ),
            (good.replacingOccurrences(of: "\"hysteresis_m\": 0,", with: ""), "detector[0].hysteresis_m"),
            (good.replacingOccurrences(of: "\"system_recall\"", with: "\"system_recal\""), "planner[0].system_recall"),
            (good.replacingOccurrences(of: "\"noise\": \"realistic\"", with: "\"noise\": 3"), "workload.noise"),
            (good.replacingOccurrences(of: "\"naive\"", with: "\"naïve\""), "naive"),
            (#"{"workload": {"pois": 1, "devices": 1, "fixes": 1, "seed": 1, "noise": "realistic"}, "detector": []}"#, "detector"),
            ("[1, 2]", ""),
            ("{\"workload\": ", "")
        ]
        for (text, field) in cases {
            let e = try #require(error(text), "\(field)")
            #expect(e.file == "/tmp/bad-sweep.json")
            #expect(e.field == field)
            #expect(e.description.hasPrefix("/tmp/bad-sweep.json: " + (field.isEmpty ? "" : field + ": ")), "\(e)")
        }
        #expect(throws: SweepResults.FormatError(file: "/nonexistent/sweep.json", field: "", problem: "cannot be read")) {
            try SweepResults.read(path: "/nonexistent/sweep.json")
        }
    }
}
