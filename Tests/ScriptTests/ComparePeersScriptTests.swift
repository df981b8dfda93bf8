import Foundation
import Testing

/// `scripts/compare-peers` end to end on a tiny workload with the debug `geofence-bench` (its
/// speeds mean nothing; the test checks that everything builds, runs and agrees). Skipped (with
/// the reason in the trait) without g++ and Debian's Boost, S2 and Abseil headers.
@Suite(
    .enabled(
        if: ScriptSupport.which("g++") != nil && ScriptSupport.which("python3") != nil
            && FileManager.default.fileExists(atPath: "/usr/include/boost/geometry.hpp")
            && FileManager.default.fileExists(atPath: "/usr/include/s2/s2cell_id.h")
            && FileManager.default.fileExists(atPath: "/usr/include/absl/container/flat_hash_map.h"),
        "needs g++, python3 and Debian's libboost-dev, libs2-dev, libabsl-dev"))
struct ComparePeersScriptTests {
    @Test func everyIndexAndPeerAgreesAndTheTableIsPrinted() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("peers.json").path
        let result = try ScriptSupport.run(
            "compare-peers",
            [
                "--pois", "100,300", "--fixes", "5000", "--devices", "20",
                "--reps", "1", "--bench", bench.path, "--json-out", json,
                "--work", directory.path
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, 1-minute load average ") == true)
        #expect(lines.contains("| M fixes/s (index memory) | 300 fences | 900 fences |"))
        for label in [
            "**LatLngGridIndex (batch query)**", "PackedRTree (batch query)", "DynamicRTree, inserted one by one",
            "lat/lng grid reference (C++)", "S2 cover → hash, 16 cells, levels 11-13 (C++)",
            "Boost.Geometry packed R* (C++)", "Boost.Geometry inserted R* (C++)"
        ] {
            #expect(lines.contains { $0.hasPrefix("| " + label + " | ") }, "row \(label)")
        }
        #expect(lines.last?.hasPrefix("Every index and peer agreed on each workload") == true)
        // The JSON holds every measurement with one answer per workload.
        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 14)
        for pois in [100, 300] {
            let checksums = Set(results.filter { $0["pois"] as? Int == pois }.compactMap { $0["checksum"] as? String })
            #expect(checksums.count == 1)
        }
        #expect(result.stderr.contains("building the C++ peers"))
        // The machine is recorded: cores, and a load average before and after each workload.
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cores"] as? Int == ProcessInfo.processInfo.activeProcessorCount)
        #expect((machine["load_averages"] as? [Double])?.count == 4)

        // The README's stabbing chart is drawn from this file alone, saying on itself what it compares.
        let svg = directory.appendingPathComponent("stabbing.svg").path
        let chart = try ScriptSupport.runProgram(bench.path, ["peers-chart", "--peers", json, "--out", svg])
        #expect(chart.status == 0, "\(chart.stderr)")
        // The caption is wrapped into several text lines: read them as one.
        let caption = try String(contentsOfFile: svg, encoding: .utf8).components(separatedBy: "class=\"caption\"").dropFirst()
            .compactMap { $0.split(separator: ">", maxSplits: 1).last?.split(separator: "<", maxSplits: 1).first }
            .joined(separator: " ")
        for phrase in [
            "One run of scripts/compare-peers", "5,000 fixes of 20 devices, gaussian noise, seed 1",
            "300, 900 fences", "Every one reported the same hits and checksum",
            "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, 1-minute load average"
        ] {
            #expect(caption.contains(phrase), "the chart's caption lacks \"\(phrase)\": \(caption)")
        }
        let legend = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(legend.contains("S2 cover index (C++)") && legend.contains("LatLngGridIndex"))
    }

    /// Polygon mode: building outlines from the Helsinki fixture on a tiny workload, ours and
    /// S2's MutableS2ShapeIndex with the same hits and checksum (needs osmium as well).
    @Test(.enabled(if: ScriptSupport.which("osmium") != nil, "needs osmium (Debian: osmium-tool)"))
    func polygonModeAgreesWithS2() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptSupport.run(
            "compare-peers",
            [
                "--polygons", "300", "--fixes", "20000", "--devices", "20", "--rounds", "1", "--reps", "1",
                "--bench", bench.path, "--work", directory.path
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "| round | ours M fixes/s | S2 M fixes/s | ours ÷ S2 | load (1 min) |")
        let last = try #require(lines.last)
        #expect(last.hasPrefix("every run: 300 fences, 20,000 fixes, "), "\(last)")
        // Fixes at the devices' dwell places fall inside the outlines.
        #expect(!last.contains(", 0 hits"), "\(last)")
    }

    @Test func helpAndUsageErrors() throws {
        let help = try ScriptSupport.run("compare-peers", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("geofence-bench generate --pois N --devices 1000 --fixes 1000000 --seed 1 --noise gaussian"))
        #expect(try ScriptSupport.run("compare-peers", ["--pois", "many"]).status == 2)
        #expect(try ScriptSupport.run("compare-peers", ["--frobnicate"]).status == 2)
    }
}
