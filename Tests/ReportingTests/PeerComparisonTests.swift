import Drawing
import Foundation
@testable import Reporting
import Testing

/// A compare-peers run read whole and drawn as the README's stabbing chart.
@Suite struct PeerComparisonTests {
    static func row(_ kind: String, _ name: String, fences: Int, speed: Double, checksum: String = "42") -> String {
        #"{"pois": \#(fences / 3), "name": "\#(name)", "kind": "\#(kind)", "fences": \#(fences), "fixes": 5000, "#
            + #""fixes_per_second": \#(speed), "index_mb": 0.5, "hits": 7, "checksum": "\#(checksum)"}"#
    }

    static func file(rows: [String], machine: String? = #"{"cores": 2, "load_averages": [0.4, 1.27, 0.9], "started": "2026-11-28 07:30 UTC"}"#)
        -> Data
    {
        let workload = #"{"pois": [100, 1000], "fixes": 5000, "devices": 20, "seed": 1, "noise": "gaussian", "reps": 3}"#
        let machinePart = machine.map { #", "machine": \#($0)"# } ?? ""
        return Data(#"{"workload": \#(workload)\#(machinePart), "results": [\#(rows.joined(separator: ", "))]}"#.utf8)
    }

    static let rows = [
        row("ours", "grid", fences: 300, speed: 9e6), row("ours", "grid", fences: 3000, speed: 4e6),
        row("peer", "s2_cover", fences: 3000, speed: 1e6), row("peer", "s2_cover", fences: 300, speed: 2e6)
    ]

    @Test func everyRowTheWorkloadAndTheMachineAreRead() throws {
        let c = try PeerComparison.parse(Self.file(rows: Self.rows))
        #expect(c.workload == PeerResults.Workload(pois: [100, 1000], fixes: 5000, devices: 20, seed: 1, noise: "gaussian"))
        #expect(c.repetitions == 3)
        #expect(c.machine == PeerComparison.Machine(cores: 2, loadAverages: [0.4, 1.27, 0.9], started: "2026-11-28 07:30 UTC"))
        #expect(c.rows.count == 4)
        #expect(c.rows[0] == PeerComparison.Row(name: "grid", isOurs: true, fences: 300, fixes: 5000, fixesPerSecond: 9e6, hits: 7, checksum: "42"))
        #expect(c.rows[2].isOurs == false && c.rows[2].name == "s2_cover")
        #expect(c.answersAgree)
    }

    @Test func theChartSaysWhatItComparesAndOnWhichMachine() throws {
        let chart = try PeerComparison.parse(Self.file(rows: Self.rows)).throughputChart()
        #expect(chart.id == "stabbing-throughput")
        #expect(chart.series.map(\.name) == ["LatLngGridIndex", "S2 cover index (C++)"])
        #expect(chart.series.map(\.dashed) == [false, true])
        // Points in fence order, whatever the file's order.
        #expect(chart.series[1].points.map(\.x) == [300, 3000])
        #expect(chart.series[1].points.map(\.y) == [2e6, 1e6])
        for phrase in [
            "5,000 fixes of 20 devices, gaussian noise, seed 1", "300, 3,000 fences", "each the median of 3 runs",
            "Every one reported the same hits and checksum", "Machine: 2 cores, 1-minute load average 0.4-1.3 during the run (2026-11-28 07:30 UTC)"
        ] {
            #expect(chart.caption.contains(phrase), "caption lacks \"\(phrase)\": \(chart.caption)")
        }
        let svg = chart.render().fileText
        #expect(svg.contains("One run of scripts/compare-peers"))
    }

    @Test func disagreementAndAMissingMachineAreSaidOnTheChart() throws {
        var rows = Self.rows
        rows[3] = Self.row("peer", "s2_cover", fences: 300, speed: 2e6, checksum: "41")
        let c = try PeerComparison.parse(Self.file(rows: rows, machine: nil))
        #expect(c.machine == nil)
        #expect(!c.answersAgree)
        let caption = c.throughputChart().caption
        #expect(caption.contains("HITS OR CHECKSUMS DIFFER"))
        #expect(caption.contains("Machine and load not recorded"))
        // One load sample: a single figure, not a range.
        let one = try PeerComparison.parse(
            Self.file(rows: Self.rows, machine: #"{"cores": 4, "load_averages": [3], "started": "x"}"#))
        #expect(one.throughputChart().caption.contains("Machine: 4 cores, 1-minute load average 3.0 during the run (x)"))
    }

    @Test(arguments: [
        (#"{"kind": "ours", "name": "grid", "fences": 3}"#, "results[0].fixes_per_second"),
        (#"{"kind": "theirs", "name": "grid"}"#, "results[0].kind"),
        (#"{"name": "grid"}"#, "results[0].kind"),
        (#"{"kind": "peer", "name": "g", "fences": 3, "fixes": 1, "fixes_per_second": -1}"#, "results[0].fixes_per_second"),
        (#"{"kind": "peer", "name": "g", "fences": 3, "fixes": 1, "fixes_per_second": 1, "hits": 2}"#, "results[0].checksum"),
        (#"{"kind": "peer", "fences": 3, "fixes": 1, "fixes_per_second": 1, "hits": 2, "checksum": "1"}"#, "results[0].name")
    ])
    func aBadRowIsRefusedNamingItsField(row: String, field: String) {
        do {
            _ = try PeerComparison.parse(Self.file(rows: [row]))
            Issue.record("accepted \(row)")
        } catch let error as PeerResults.FormatError {
            #expect(error.description.hasPrefix(field), "\(error.description)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(arguments: [
        (#"[1]"#, "machine: expected an object"),
        (#"{"cores": 0, "load_averages": [1], "started": "x"}"#, "machine.cores"),
        (#"{"cores": 2, "load_averages": [], "started": "x"}"#, "machine.load_averages"),
        (#"{"cores": 2, "load_averages": [1]}"#, "machine.started")
    ])
    func aBadMachineIsRefusedNamingItsField(machine: String, field: String) {
        do {
            _ = try PeerComparison.parse(Self.file(rows: Self.rows, machine: machine))
            Issue.record("accepted \(machine)")
        } catch let error as PeerResults.FormatError {
            #expect(error.description.hasPrefix(field), "\(error.description)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aFileWithoutWorkloadOrResultsIsRefused() {
        #expect(throws: PeerResults.FormatError.self) { try PeerComparison.parse(Data(#"{"results": []}"#.utf8)) }
        let noResults = #"{"workload": {"pois": [1], "fixes": 1, "devices": 1, "seed": 1, "noise": "gaussian"}}"#
        #expect(throws: PeerResults.FormatError.self) { try PeerComparison.parse(Data(noResults.utf8)) }
        do {
            _ = try PeerComparison.parse(Data("{not json".utf8))
            Issue.record("accepted text that is not JSON")
        } catch let error as PeerResults.FormatError {
            #expect(error.description == "not JSON: expected a key, found 'n' (line 1, column 2)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
