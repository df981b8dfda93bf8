import Foundation
import Geofencing
import JSON

/// Reading the detector and planner sweeps from the JSON that `scripts/sweep --json-out FILE`
/// writes: `{"workload": {"pois", "devices", "fixes", "seed", "noise"}, "detector": [{"hysteresis_m",
/// "accuracy_gate_m", "false_positive_rate", "false_negative_rate", "latency_p50_s", "latency_p95_s"},
/// ...], "naive": {"false_positive_rate", "false_negative_rate"}, "planner": [{"cap", "policy", "recall",
/// "system_recall", "replans_per_device_hour", "wakes_per_device_hour", "guaranteed_plan_share"}, ...]}`.
///
/// Latencies may be `NaN` (Python's JSON for a setting without matched detections) or `null`;
/// both read as missing. The detector row with the detector's default hysteresis and accuracy gate is marked
/// as the default.
public enum SweepResults {
    /// A sweep file that cannot be used: the file, the JSON path of the field, and what is wrong.
    public struct FormatError: Error, CustomStringConvertible, Equatable {
        /// The file as it was named to ``read(path:)`` or ``parse(_:file:)``.
        public var file: String
        /// The JSON path of the offending field (`detector[3].false_positive_rate`); empty when
        /// the file as a whole is unusable (unreadable, not JSON).
        public var field: String
        /// What is wrong with it.
        public var problem: String

        /// `FILE: FIELD: PROBLEM` (or `FILE: PROBLEM` without a field).
        public var description: String {
            field.isEmpty ? "\(file): \(problem)" : "\(file): \(field): \(problem)"
        }
    }

    /// The sweeps of one file, ready for a ``BenchmarkReport``.
    public struct Sweep: Hashable, Sendable {
        /// Where the figures came from: the file's workload.
        public var source: BenchmarkReport.SweepSource
        /// The trade-off rows in file order, the default configuration marked.
        public var detector: [BenchmarkReport.Detector]
        /// The naive detector (hysteresis 0, no accuracy gate, no latencies).
        public var naiveDetector: BenchmarkReport.Detector
        /// Every (cap, policy) row in file order.
        public var planner: [BenchmarkReport.Planner]
    }

    /// Reads and parses the file at `path`; errors name `path`.
    public static func read(path: String) throws -> Sweep {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FormatError(file: path, field: "", problem: "cannot be read")
        }
        return try parse(data, file: path)
    }

    /// Parses a sweep document; `file` names it in errors and in the report's
    /// ``BenchmarkReport/SweepSource/file`` (its last path component).
    public static func parse(_ data: Data, file: String) throws -> Sweep {
        do throws(JSONPathError) {
            return try parse(bytes: [UInt8](data), file: file)
        } catch {
            let place = error.line.map { " (line \($0), column \(error.column ?? 0))" } ?? ""
            throw FormatError(file: file, field: error.path, problem: error.message + place)
        }
    }

    static func parse(bytes: [UInt8], file: String) throws(JSONPathError) -> Sweep {
        let document: JSONReader
        do throws(JSONSyntaxError) {
            document = try JSONReader(parsing: bytes, nonFiniteWords: true)
        } catch {
            throw JSONPathError(path: "", message: "not JSON: \(error.message)", line: error.line, column: error.column)
        }
        let root = try document.object()
        let workload = try root.object("workload")
        func count(_ object: JSONObjectReader, _ key: String) throws(JSONPathError) -> Int {
            let value = try object.integer(key)
            guard value >= 0 else { throw object.error(key, "expected a non-negative integer, found \(value)") }
            return value
        }
        let noise = try workload.string("noise")
        guard !noise.isEmpty else { throw workload.error("noise", "is empty") }
        let source = BenchmarkReport.SweepSource(
            file: (file as NSString).lastPathComponent,
            pois: try count(workload, "pois"), devices: try count(workload, "devices"),
            fixes: try count(workload, "fixes"), seed: UInt64(try count(workload, "seed")), noise: noise)

        func rate(_ object: JSONObjectReader, _ key: String) throws(JSONPathError) -> Double {
            let value = try object.number(key)
            guard (0...1).contains(value) else { throw object.error(key, "expected a rate between 0 and 1, found \(value)") }
            return value
        }
        func nonNegative(_ object: JSONObjectReader, _ key: String) throws(JSONPathError) -> Double {
            let value = try object.number(key)
            guard value >= 0 else { throw object.error(key, "expected a non-negative number, found \(value)") }
            return value
        }
        /// A latency: a non-negative number, or NaN or null for none.
        func latency(_ object: JSONObjectReader, _ key: String) throws(JSONPathError) -> Double? {
            let field = try object.required(key, "a number, NaN or null")
            switch field.value {
            case .null: return nil
            case .number(let v, _) where v.isNaN: return nil
            case .number(let v, _) where v.isFinite && v >= 0: return v
            default: throw field.error("expected a non-negative number, NaN or null, found \(field.value.kind)")
            }
        }

        let detectorRows = try root.array("detector")
        guard !detectorRows.isEmpty else { throw root.error("detector", "expected a non-empty array, found an empty one") }
        let defaults = TransitionDetectorConfiguration.default
        var detector: [BenchmarkReport.Detector] = []
        for any in detectorRows {
            let row = try any.object()
            let hysteresis = try nonNegative(row, "hysteresis_m")
            let gate = try row.number("accuracy_gate_m")
            guard gate > 0 else { throw row.error("accuracy_gate_m", "expected a positive number, found \(gate)") }
            detector.append(
                BenchmarkReport.Detector(
                    hysteresisMeters: hysteresis, accuracyGateMeters: gate,
                    falsePositiveRate: try rate(row, "false_positive_rate"),
                    falseNegativeRate: try rate(row, "false_negative_rate"),
                    latencyP50Seconds: try latency(row, "latency_p50_s"),
                    latencyP95Seconds: try latency(row, "latency_p95_s"),
                    isDefault: hysteresis == defaults.hysteresisMeters && gate == defaults.maxAccuracyMeters))
        }

        let naive = try root.object("naive")
        let naiveDetector = BenchmarkReport.Detector(
            hysteresisMeters: 0, accuracyGateMeters: nil,
            falsePositiveRate: try rate(naive, "false_positive_rate"),
            falseNegativeRate: try rate(naive, "false_negative_rate"),
            latencyP50Seconds: nil, latencyP95Seconds: nil, isDefault: false)

        let plannerRows = try root.array("planner")
        guard !plannerRows.isEmpty else { throw root.error("planner", "expected a non-empty array, found an empty one") }
        var planner: [BenchmarkReport.Planner] = []
        for any in plannerRows {
            let row = try any.object()
            let cap = try row.integer("cap")
            guard cap > 0 else { throw row.error("cap", "expected a positive integer, found \(cap)") }
            let policy = try row.string("policy")
            guard !policy.isEmpty else { throw row.error("policy", "is empty") }
            planner.append(
                BenchmarkReport.Planner(
                    cap: cap, policy: policy,
                    recall: try rate(row, "recall"),
                    systemRecall: try rate(row, "system_recall"),
                    replansPerDeviceHour: try nonNegative(row, "replans_per_device_hour"),
                    wakesPerDeviceHour: try nonNegative(row, "wakes_per_device_hour"),
                    guaranteedPlanShare: try rate(row, "guaranteed_plan_share")))
        }
        return Sweep(source: source, detector: detector, naiveDetector: naiveDetector, planner: planner)
    }
}
