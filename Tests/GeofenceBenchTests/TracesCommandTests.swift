import Foundation
import Testing
import DetectorScoring
@testable import GeofenceBench

/// `geofence-bench traces` on the repository's real GPS traces (Data/gps), and its command line.
@Suite struct TracesCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let traces = root.appendingPathComponent("Data/gps/traces.csv").path
    static let devices = root.appendingPathComponent("Data/gps/devices.csv").path

    /// The naive detector's counts, (events, visits, flaps), as printed by
    /// `scripts/trace-flaps-reference` (run from the repository root): the fence rule and the
    /// naive detector rewritten in plain Python with the haversine distance, sharing no code with
    /// the package. It prints `fences 768`, `all 3516 1699 20`, `car 181 81 9`,
    /// `hand-held 793 363 11`, `vessel 2542 1255 0`. The naive detector reads no accuracy, so
    /// these hold for every assumed accuracy.
    static let naiveAll = (3516, 1699, 20)
    static let naiveByKind = ["car": (181, 81, 9), "hand-held": (793, 363, 11), "vessel": (2542, 1255, 0)]

    static func triple(_ c: FlapCount) -> [Int] { [c.events, c.visits, c.flaps] }

    /// Placement, naive counts against the independent reference, and the transition detector
    /// (both presets) flapping no more than the naive detector, at the README's assumed accuracies.
    @Test(arguments: [5.0, 10, 25])
    func repositoryTraces(assumedAccuracy: Double) throws {
        let m = try TracesCommand.measure(
            traces: Self.traces, devices: Self.devices, assumedAccuracy: assumedAccuracy,
            presets: [.default, .evidence])
        #expect(m.fixes == 1030 && m.devices == 14)
        #expect(m.fences == 768)  // 128 anchors (Data/gps/README.md fix counts) x 6
        #expect(m.assumedAccuracyFixes == 1030)  // the traces record no accuracy
        #expect(m.detectors.map(\.detector) == ["naive", "default", "evidence"])
        let naive = m.detectors[0]
        #expect(Self.triple(naive.all) == [Self.naiveAll.0, Self.naiveAll.1, Self.naiveAll.2])
        #expect(naive.byKind.map(\.group) == ["car", "hand-held", "vessel"])
        for (kind, count) in naive.byKind {
            let want = try #require(Self.naiveByKind[kind])
            #expect(Self.triple(count) == [want.0, want.1, want.2], "\(kind)")
        }
        for d in m.detectors {
            // Every device has a kind: the kinds add up to the whole.
            #expect(d.byKind.reduce(0) { $0 + $1.count.events } == d.all.events, "\(d.detector)")
            #expect(d.byKind.reduce(0) { $0 + $1.count.flaps } == d.all.flaps, "\(d.detector)")
            #expect(d.all.visits + d.all.flaps <= d.all.events)
        }
        for d in m.detectors.dropFirst() {
            #expect(d.all.flaps <= naive.all.flaps, "\(d.detector) at \(assumedAccuracy) m")
            #expect(d.all.events <= naive.all.events, "\(d.detector) at \(assumedAccuracy) m")
            #expect(d.all.visits > 0)
        }
    }

    @Test func withoutDevicesThereAreNoKinds() throws {
        let m = try TracesCommand.measure(traces: Self.traces, devices: nil, assumedAccuracy: 25, presets: [.evidence])
        #expect(m.detectors.map(\.detector) == ["naive", "evidence"])
        #expect(m.detectors.allSatisfy { $0.byKind.isEmpty })
        #expect(Self.triple(m.detectors[0].all) == [Self.naiveAll.0, Self.naiveAll.1, Self.naiveAll.2])
    }

    /// A device of the traces without a kind, and an empty accuracy without an assumption, are
    /// errors that name the file (status 1); bad options are usage errors (status 2).
    @Test func commandLine() throws {
        let files = ["traces", "--traces", Self.traces, "--devices", Self.devices]
        #expect(BenchTool.main(files + ["--assume-accuracy", "25", "--json"]) == 0)
        #expect(BenchTool.main(files + ["--assume-accuracy", "10", "--preset", "evidence"]) == 0)
        #expect(BenchTool.main(files) == 1)
        for bad in [["--assume-accuracy", "-1"], ["--assume-accuracy", "nan"], ["--assume-accuracy"], ["--preset", "all"], ["--frob"]] {
            #expect(BenchTool.main(files + bad) == 2, "\(bad)")
        }
        #expect(throws: BenchError.self) {
            try TracesCommand.measure(traces: Self.traces, devices: nil, assumedAccuracy: nil, presets: [.default])
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("traces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = dir.appendingPathComponent("traces.csv").path
        try "device,t,lat,lon,accuracy_m\n99,0,1,2,5\n".write(toFile: unknown, atomically: true, encoding: .utf8)
        #expect {
            try TracesCommand.measure(traces: unknown, devices: Self.devices, assumedAccuracy: nil, presets: [.default])
        } throws: { error in
            "\(error)" == "\(Self.devices): no kind for device 99 of \(unknown)"
        }
    }
}
