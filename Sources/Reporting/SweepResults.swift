import Foundation
import Geofencing

/// Reading the detector and planner sweeps from the JSON that `scripts/sweep --json-out FILE`
/// writes: `{"workload": {"pois", "devices", "fixes", "seed", "noise"}, "detector": [{"hysteresis_m",
/// "accuracy_gate_m", "false_positive_rate", "false_negative_rate", "latency_p50_s", "latency_p95_s"},
/// ...], "naive": {"false_positive_rate", "false_negative_rate"}, "planner": [{"cap", "policy", "recall",
/// "system_recall", "replans_per_device_hour", "wakes_per_device_hour", "guaranteed_plan_share"}, ...]}`.
///
/// Latencies may be `NaN` (Python's JSON for a setting without matched detections); they read as
/// missing. The detector row with the detector's default hysteresis and accuracy gate is marked
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
        func fail(_ field: String, _ problem: String) -> FormatError { FormatError(file: file, field: field, problem: problem) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: withoutNonFiniteNumbers(data))
        } catch {
            throw fail("", "not JSON")
        }
        guard let root = object as? [String: Any] else { throw fail("", "expected a JSON object") }

        guard let workload = root["workload"] as? [String: Any] else { throw fail("workload", "missing or not an object") }
        func count(_ object: [String: Any], _ key: String, at path: String) throws -> Int {
            guard let value = integer(object[key]), value >= 0 else { throw fail(path, "missing or not a non-negative integer") }
            return value
        }
        let pois = try count(workload, "pois", at: "workload.pois")
        let devices = try count(workload, "devices", at: "workload.devices")
        let fixes = try count(workload, "fixes", at: "workload.fixes")
        let seed = try count(workload, "seed", at: "workload.seed")
        guard let noise = workload["noise"] as? String, !noise.isEmpty else { throw fail("workload.noise", "missing or not a string") }
        let source = BenchmarkReport.SweepSource(
            file: (file as NSString).lastPathComponent, pois: pois, devices: devices,
            fixes: fixes, seed: UInt64(seed), noise: noise)

        func rate(_ object: [String: Any], _ key: String, at path: String) throws -> Double {
            guard let value = real(object[key]), value.isFinite, (0...1).contains(value) else {
                throw fail(path, "missing or not a rate between 0 and 1")
            }
            return value
        }
        func nonNegative(_ object: [String: Any], _ key: String, at path: String) throws -> Double {
            guard let value = real(object[key]), value.isFinite, value >= 0 else { throw fail(path, "missing or not a non-negative number") }
            return value
        }
        func latency(_ object: [String: Any], _ key: String, at path: String) throws -> Double? {
            guard let raw = object[key] else { throw fail(path, "missing") }
            if raw is NSNull { return nil }
            guard let value = real(raw), value >= 0 else { throw fail(path, "not a non-negative number or NaN") }
            return value
        }

        guard let detectorRows = root["detector"] as? [Any], !detectorRows.isEmpty else {
            throw fail("detector", "missing or not a non-empty array")
        }
        let defaults = TransitionDetectorConfiguration.default
        var detector: [BenchmarkReport.Detector] = []
        for (k, any) in detectorRows.enumerated() {
            let path = "detector[\(k)]"
            guard let row = any as? [String: Any] else { throw fail(path, "not an object") }
            guard let hysteresis = real(row["hysteresis_m"]), hysteresis.isFinite, hysteresis >= 0 else {
                throw fail(path + ".hysteresis_m", "missing or not a non-negative number")
            }
            guard let gate = real(row["accuracy_gate_m"]), gate.isFinite, gate > 0 else {
                throw fail(path + ".accuracy_gate_m", "missing or not a positive number")
            }
            detector.append(
                BenchmarkReport.Detector(
                    hysteresisMeters: hysteresis, accuracyGateMeters: gate,
                    falsePositiveRate: try rate(row, "false_positive_rate", at: path + ".false_positive_rate"),
                    falseNegativeRate: try rate(row, "false_negative_rate", at: path + ".false_negative_rate"),
                    latencyP50Seconds: try latency(row, "latency_p50_s", at: path + ".latency_p50_s"),
                    latencyP95Seconds: try latency(row, "latency_p95_s", at: path + ".latency_p95_s"),
                    isDefault: hysteresis == defaults.hysteresisMeters && gate == defaults.maxAccuracyMeters))
        }

        guard let naive = root["naive"] as? [String: Any] else { throw fail("naive", "missing or not an object") }
        let naiveDetector = BenchmarkReport.Detector(
            hysteresisMeters: 0, accuracyGateMeters: nil,
            falsePositiveRate: try rate(naive, "false_positive_rate", at: "naive.false_positive_rate"),
            falseNegativeRate: try rate(naive, "false_negative_rate", at: "naive.false_negative_rate"),
            latencyP50Seconds: nil, latencyP95Seconds: nil, isDefault: false)

        guard let plannerRows = root["planner"] as? [Any], !plannerRows.isEmpty else {
            throw fail("planner", "missing or not a non-empty array")
        }
        var planner: [BenchmarkReport.Planner] = []
        for (k, any) in plannerRows.enumerated() {
            let path = "planner[\(k)]"
            guard let row = any as? [String: Any] else { throw fail(path, "not an object") }
            guard let cap = integer(row["cap"]), cap > 0 else { throw fail(path + ".cap", "missing or not a positive integer") }
            guard let policy = row["policy"] as? String, !policy.isEmpty else { throw fail(path + ".policy", "missing or not a string") }
            planner.append(
                BenchmarkReport.Planner(
                    cap: cap, policy: policy,
                    recall: try rate(row, "recall", at: path + ".recall"),
                    systemRecall: try rate(row, "system_recall", at: path + ".system_recall"),
                    replansPerDeviceHour: try nonNegative(row, "replans_per_device_hour", at: path + ".replans_per_device_hour"),
                    wakesPerDeviceHour: try nonNegative(row, "wakes_per_device_hour", at: path + ".wakes_per_device_hour"),
                    guaranteedPlanShare: try rate(row, "guaranteed_plan_share", at: path + ".guaranteed_plan_share")))
        }
        return Sweep(source: source, detector: detector, naiveDetector: naiveDetector, planner: planner)
    }

    /// A JSON number as a Double (`nil` for anything else).
    static func real(_ value: Any?) -> Double? {
        guard let value, !(value is String) else { return nil }
        if let d = value as? Double { return d }
        if let i = value as? Int { return Double(i) }
        return nil
    }

    /// A JSON number with an integral value as an Int.
    static func integer(_ value: Any?) -> Int? {
        guard let value, !(value is String) else { return nil }
        if let i = value as? Int { return i }
        if let d = value as? Double, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
        return nil
    }

    /// `data` with the bare tokens `NaN`, `Infinity` and `-Infinity` (outside strings; Python's
    /// JSON writes them) replaced by `null`, which strict JSON readers accept.
    static func withoutNonFiniteNumbers(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let tokens: [[UInt8]] = [Array("-Infinity".utf8), Array("Infinity".utf8), Array("NaN".utf8)]
        let null = Array("null".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false, escaped = false
        var k = 0
        scan: while k < bytes.count {
            let b = bytes[k]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else {
                for token in tokens where bytes[k...].starts(with: token) {
                    out += null
                    k += token.count
                    continue scan
                }
            }
            out.append(b)
            k += 1
        }
        return Data(out)
    }
}
