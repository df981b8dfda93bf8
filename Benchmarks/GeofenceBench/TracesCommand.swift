import JSON
import Geofencing
import SpatialIndex
import Workloads
import DetectorScoring
import CommandSupport

/// `geofence-bench traces`: flaps of the transition detector and of the naive detector over
/// recorded GPS traces, with fences placed along them (Simulation's ``TraceFencePlacement``
/// and ``FlapCount``).
struct TracesCommand: BenchSubcommand {
    static let name = "traces"
    static let help = """
        geofence-bench traces [--traces FILE] [--devices FILE] [--assume-accuracy M] [--preset default|evidence|both] [--json]
          Places fences along recorded GPS traces (--traces, device,t,lat,lon,accuracy_m; default
          Data/gps/traces.csv, 1,030 real fixes of 14 devices, see Data/gps/README.md), runs the naive
          detector (raw distance <= radius) and the transition detector over the fixes, and prints per
          detector, over all devices and per device kind:
            events  enter and exit events;
            visits  entries that are not flaps;
            flaps   entries at most 60 s after the same device's last exit of the same fence;
            and flaps per visit.
          Fences: every 8th fix of each device from its 5th is an anchor; around it, fences of radius
          50, 150 and 400 m centered on it, and three more of those radii centered 0.9 r due north of it
          along the great circle (the trace grazes their boundary): 6 fences per anchor.
          --devices FILE gives each device's kind (columns device,kind; default Data/gps/devices.csv
          when --traces is not given; without it no per-kind rows). Every device must have a kind.
          --assume-accuracy M (meters) is the accuracy of every fix whose accuracy_m is empty (the
          traces record none): the detector's margins and accuracy gate use it. How many fixes got it
          is printed. Without it an empty accuracy is an error naming its file, line and column.
          --preset picks the detector's settings: TransitionDetectorConfiguration.default, .evidence,
          or both (the default: one row each).
          Paths are relative to the working directory (the repository root for the defaults).
        """

    static let options: [Arguments.Option] = [
        .value("traces"), .value("devices"), .value("assume-accuracy"), .value("preset"), .flag("json")
    ]

    /// The repository's copy of the traces and their devices (relative to the repository root).
    static let defaultTraces = "Data/gps/traces.csv"
    static let defaultDevices = "Data/gps/devices.csv"

    /// `--preset`: one of the detector's presets, or both.
    enum PresetChoice: String, CaseIterable {
        case `default`, evidence, both

        var presets: [DetectorPreset] {
            switch self {
            case .default: return [.default]
            case .evidence: return [.evidence]
            case .both: return [.default, .evidence]
            }
        }
    }

    /// The flaps of one detector: over all devices and per device kind (sorted by kind).
    struct DetectorFlaps {
        let detector: String
        let all: FlapCount
        let byKind: [(group: String, count: FlapCount)]
    }

    /// Everything the command prints.
    struct Measurement {
        let fixes: Int
        let devices: Int
        let fences: Int
        /// Fixes that got the assumed accuracy.
        let assumedAccuracyFixes: Int
        /// Naive first, then the presets in the order asked.
        let detectors: [DetectorFlaps]
    }

    let traces: String?, devices: String?
    let accuracy: Double?
    let presets: [DetectorPreset]
    let json: Bool

    init(arguments args: Arguments) throws(UsageError) {
        traces = args.string("traces")
        devices = args.string("devices") ?? (traces == nil ? Self.defaultDevices : nil)
        accuracy = try args.double("assume-accuracy", in: 0...1e7)
        presets = try args.choice("preset", default: PresetChoice.both).presets
        json = args.flag("json")
    }

    func execute() throws {
        let traces = self.traces, devices = self.devices, accuracy = self.accuracy
        let defaultTraces = Self.defaultTraces
        let m = try Self.measure(traces: traces ?? defaultTraces, devices: devices, assumedAccuracy: accuracy, presets: presets)
        if json {
            var o = JSONObject()
            o.set("traces", traces ?? defaultTraces)
            o.set("fixes", m.fixes)
            o.set("devices", m.devices)
            o.set("fences", m.fences)
            if let accuracy { o.set("assumed_accuracy_m", accuracy, decimals: nil) } else { o.setNull("assumed_accuracy_m") }
            o.set("assumed_accuracy_fixes", m.assumedAccuracyFixes)
            o.set("reentry_seconds", FlapCount.reentrySeconds, decimals: nil)
            o.set(
                "detectors",
                array: m.detectors.map { d in
                    var x = JSONObject()
                    x.set("detector", d.detector)
                    Self.setCounts(d.all, in: &x)
                    var kinds = JSONObject()
                    for (kind, count) in d.byKind {
                        var k = JSONObject()
                        Self.setCounts(count, in: &k)
                        kinds.set(kind, object: k)
                    }
                    x.set("by_kind", object: kinds)
                    return x.text
                })
            print(o.text)
        } else {
            print("\(m.fixes) fixes of \(m.devices) devices (\(traces ?? defaultTraces)), \(m.fences) fences placed along them")
            print(
                accuracy.map { "accuracy assumed \(formatFixed($0, 1)) m for \(m.assumedAccuracyFixes) fixes without one" }
                    ?? "accuracy: recorded for every fix")
            var rows = [["detector", "kind", "events", "visits", "flaps", "flaps/visit"]]
            for d in m.detectors {
                for (kind, c) in [("all", d.all)] + d.byKind.map({ ($0.group, $0.count) }) {
                    rows.append([d.detector, kind, String(c.events), String(c.visits), String(c.flaps), formatFixed(c.flapsPerVisit, 4)])
                }
            }
            print(TextTable.render(rows))
        }
    }

    /// Reads the traces (and kinds), places the fences, runs the naive detector and one
    /// transition detector per preset, and counts their flaps.
    static func measure(
        traces: String, devices: String?, assumedAccuracy: Double?,
        presets: [DetectorPreset]
    ) throws(BenchError) -> Measurement {
        let fixes: FixStream
        var kindOfDevice: [Int32: String] = [:]
        do {
            // The detectors follow each device through time: its fixes must be in time order.
            fixes = try WorkloadReader.readFixes(path: traces, assumedAccuracy: assumedAccuracy, order: .perDevice)
            if let devices { kindOfDevice = try WorkloadReader.readDeviceKinds(path: devices) }
        } catch {
            switch error {
            case .badRow(_, _, "accuracy_m", _), .missingColumn(_, "accuracy_m"):
                throw BenchError("\(error) (--assume-accuracy M)")
            default:
                throw BenchError("\(error)")
            }
        }
        let deviceIDs = Set(fixes.device)
        if let devices, let missing = deviceIDs.filter({ kindOfDevice[$0] == nil }).min() {
            throw BenchError("\(devices): no kind for device \(missing) of \(traces)")
        }
        let rows = TraceFencePlacement().fences(along: fixes)
        let fences = try makeFences(rows)
        func flaps(_ name: String, _ events: [TransitionEvent]) -> DetectorFlaps {
            DetectorFlaps(detector: name, all: FlapCount(events), byKind: FlapCount.byGroup(events, groupOfDevice: kindOfDevice))
        }
        var detectors = [flaps("naive", TransitionScoring.detectNaive(fixes, index: PackedRTree(fences)))]
        for preset in presets {
            var detector = try TransitionsCommand.makeDetector(fences, preset.configuration)
            detectors.append(flaps(preset.rawValue, TransitionScoring.detect(fixes, with: &detector)))
        }
        return Measurement(
            fixes: fixes.count, devices: deviceIDs.count, fences: fences.count,
            assumedAccuracyFixes: fixes.assumedAccuracyCount, detectors: detectors)
    }

    /// Adds `events`, `visits`, `flaps` and `flaps_per_visit` to `o`.
    static func setCounts(_ c: FlapCount, in o: inout JSONObject) {
        o.set("events", c.events)
        o.set("visits", c.visits)
        o.set("flaps", c.flaps)
        o.set("flaps_per_visit", c.flapsPerVisit, decimals: 4)
    }
}
