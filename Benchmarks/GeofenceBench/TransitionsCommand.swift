import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geofencing
import SpatialIndex
import FastCSV
import Statistics
import Workloads
import DetectorScoring
import CommandSupport

/// `geofence-bench transitions`: the TransitionDetector (and the naive baseline) on noisy fixes,
/// scored against the noise-free truth (definitions in Simulation's ``TransitionScoring``).
struct TransitionsCommand: BenchSubcommand {
    static let name = "transitions"
    static let help = """
        geofence-bench transitions --fences F --fixes X --truth T [--polygons P.geojson] [--events-out E.csv] [--json]
                                   [--reps R] [--threads N]
                                   [--preset default|precise|hysteresis|evidence]
                                   [--hysteresis M] [--radius-fraction F] [--accuracy-factor K] [--max-accuracy M]
                                   [--enter-confirm N] [--exit-confirm N] [--min-dwell S] [--max-speed V] [--slack M]
                                   [--enter-evidence H] [--evidence-per-fix K] [--exit-evidence H] [--exit-evidence-per-fix K]
                                   [--slow-evidence-cap S] [--slow-speed V] [--still-speed V] [--still-evidence-per-fix K]
                                   [--polygon-enter-factor K] [--polygon-exit-factor K]
                                   [--polygon-still-enter-factor K] [--polygon-still-exit-factor K] [--sweep] [--diagnose]
          Runs the transition detector over the fixes and the naive detector (raw distance <= radius)
          alongside, and scores both against the true transitions of truth.csv: a detection matches an
          unmatched true transition of the same device, fence and kind when it comes at most 120 s
          before that transition or at most 600 s after it; a true transition reversed within 60 s
          (a brush) is optional.
          --polygons makes the fences with a feature in P.geojson (integer id = fence id; the fence's row
          is a circle containing the polygon, as generate --polygons writes it) polygon fences: the truth,
          the naive detector and the detector decide them on the polygon (docs/POLYGONS.md), the detector by
          the hysteresis rule with margins --polygon-enter-factor K (default 0.6) and --polygon-exit-factor K
          (1.0) times the accuracy for a fix on the move, --polygon-still-enter-factor K (0.3) and
          --polygon-still-exit-factor K (1.2) for a still one (slower than --still-speed), whatever rule
          the preset gives the circles.
          Prints true transitions, detected events, false-positive and false-negative rates, latency
          p50/p95 (s), flaps per true transition and fixes/s (detector only, median of R runs, default 3).
          --events-out writes the detector's events as device,fence,kind,t.
          --threads N partitions the devices over N detectors on N threads (events merged back into
          stream order: identical to one detector's); timing covers detection and the merge, and
          JSON "fixes_per_busiest_shard_cpu_second" the busiest shard's thread CPU time (the speed
          on idle cores, without the merge).
          JSON "state" gives the per-device state: bytes per idle device, per fence entry, and in all.
          --preset picks the base settings (TransitionDetectorConfiguration.default, .precise,
          .hysteresis or .evidence).
          --slow-evidence-cap S (sigmas, or none) caps the evidence of a fix from a device moving
          slower than --slow-speed V (m/s) since its previous accepted fix; a fix of a device slower
          than --still-speed V (m/s) must exceed --still-evidence-per-fix K more sigmas to count.
          The tuning options override the preset's settings; --sweep prints the trade-off table over
          hysteresis x accuracy gate instead. --diagnose breaks the false negatives down on stderr.
        """

    static let options: [Arguments.Option] = [
        .value("fences"), .value("fixes"), .value("truth"), .value("polygons"), .value("events-out"), .flag("json"), .value("reps"),
        .value("threads"), .value("preset"), .value("hysteresis"), .value("radius-fraction"), .value("accuracy-factor"), .value("max-accuracy"),
        .value("enter-confirm"), .value("exit-confirm"), .value("min-dwell"), .value("max-speed"),
        .value("enter-evidence"), .value("evidence-per-fix"), .value("exit-evidence"), .value("exit-evidence-per-fix"), .value("slow-evidence-cap"),
        .value("slow-speed"),
        .value("still-speed"), .value("still-evidence-per-fix"), .value("polygon-enter-factor"), .value("polygon-exit-factor"),
        .value("polygon-still-enter-factor"), .value("polygon-still-exit-factor"),
        .value("slack"), .flag("sweep"), .flag("diagnose")
    ]

    /// The option of each detector setting, for messages (the setting's name is the library's).
    static let optionOfSetting = [
        "hysteresisMeters": "hysteresis", "hysteresisRadiusFraction": "radius-fraction", "accuracyFactor": "accuracy-factor",
        "maxAccuracyMeters": "max-accuracy", "minimumDwellSeconds": "min-dwell", "enterEvidence": "enter-evidence",
        "enterEvidencePerFix": "evidence-per-fix", "exitEvidence": "exit-evidence", "exitEvidencePerFix": "exit-evidence-per-fix",
        "slowEvidenceCapSigmas": "slow-evidence-cap", "slowSpeedMetersPerSecond": "slow-speed",
        "stillSpeedMetersPerSecond": "still-speed", "stillEvidencePerFix": "still-evidence-per-fix",
        "maxSpeedMetersPerSecond": "max-speed", "neighborhoodSlackMeters": "slack", "enterConfirmations": "enter-confirm",
        "exitConfirmations": "exit-confirm", "polygonEnterAccuracyFactor": "polygon-enter-factor",
        "polygonExitAccuracyFactor": "polygon-exit-factor", "polygonStillEnterAccuracyFactor": "polygon-still-enter-factor",
        "polygonStillExitAccuracyFactor": "polygon-still-exit-factor"
    ]

    let fencesPath: String, fixesPath: String, truthPath: String
    let polygonsPath: String?
    let eventsOut: String?
    let json: Bool, sweep: Bool, diagnoseFN: Bool
    let reps: Int, threads: Int
    let config: TransitionDetectorConfiguration

    init(arguments args: Arguments) throws(UsageError) {
        fencesPath = try args.required("fences")
        fixesPath = try args.required("fixes")
        truthPath = try args.required("truth")
        polygonsPath = args.string("polygons")
        eventsOut = args.string("events-out")
        json = args.flag("json")
        sweep = args.flag("sweep")
        diagnoseFN = args.flag("diagnose")
        reps = try args.int("reps", default: 3, in: 1...BenchLimits.maxReps)
        threads = try args.int("threads", default: 1, in: 1...1_024)
        config = try Self.configuration(args)
    }

    /// The detector's settings from `--preset` and the tuning options, every one range-checked
    /// here (distances up to 10,000 km, so that no sum of them overflows), then checked together.
    /// - Throws: ``UsageError`` naming the option and its range.
    static func configuration(_ args: Arguments) throws(UsageError) -> TransitionDetectorConfiguration {
        var config = try args.choice("preset", default: DetectorPreset.default).configuration
        let meters = 0...1e7, factor = 0...1e3, seconds = 0...1e9, sigmas = 0...1e6, speed = 0...1e5
        config.hysteresisMeters = try args.double("hysteresis", default: config.hysteresisMeters, in: meters)
        config.hysteresisRadiusFraction = try args.double("radius-fraction", default: config.hysteresisRadiusFraction, in: factor)
        config.accuracyFactor = try args.double("accuracy-factor", default: config.accuracyFactor, in: factor)
        config.maxAccuracyMeters = try args.double("max-accuracy", default: config.maxAccuracyMeters, in: meters)
        config.enterConfirmations = try args.int("enter-confirm", default: config.enterConfirmations, in: 1...255)
        config.exitConfirmations = try args.int("exit-confirm", default: config.exitConfirmations, in: 1...255)
        config.minimumDwellSeconds = try args.double("min-dwell", default: config.minimumDwellSeconds, in: seconds)
        config.enterEvidence = try args.double("enter-evidence", default: config.enterEvidence, in: sigmas)
        config.enterEvidencePerFix = try args.double("evidence-per-fix", default: config.enterEvidencePerFix, in: sigmas)
        config.exitEvidence = try args.double("exit-evidence", default: config.exitEvidence, in: sigmas)
        config.exitEvidencePerFix = try args.double("exit-evidence-per-fix", default: config.exitEvidencePerFix, in: sigmas)
        config.slowEvidenceCapSigmas =
            args.string("slow-evidence-cap") == "none"
            ? .infinity : try args.double("slow-evidence-cap", default: config.slowEvidenceCapSigmas, in: sigmas)
        config.slowSpeedMetersPerSecond = try args.double("slow-speed", default: config.slowSpeedMetersPerSecond, in: speed)
        config.stillSpeedMetersPerSecond = try args.double("still-speed", default: config.stillSpeedMetersPerSecond, in: speed)
        config.stillEvidencePerFix = try args.double("still-evidence-per-fix", default: config.stillEvidencePerFix, in: sigmas)
        config.polygonEnterAccuracyFactor = try args.double("polygon-enter-factor", default: config.polygonEnterAccuracyFactor, in: factor)
        config.polygonExitAccuracyFactor = try args.double("polygon-exit-factor", default: config.polygonExitAccuracyFactor, in: factor)
        config.polygonStillEnterAccuracyFactor = try args.double(
            "polygon-still-enter-factor", default: config.polygonStillEnterAccuracyFactor, in: factor)
        config.polygonStillExitAccuracyFactor = try args.double(
            "polygon-still-exit-factor", default: config.polygonStillExitAccuracyFactor, in: factor)
        config.maxSpeedMetersPerSecond = try args.double("max-speed", default: config.maxSpeedMetersPerSecond, in: speed)
        config.neighborhoodSlackMeters = try args.double("slack", default: config.neighborhoodSlackMeters, in: meters)
        do {
            try config.validate()
        } catch {
            guard case let .invalidSetting(field, value) = error, let option = optionOfSetting[field] else {
                throw UsageError("the detector settings are invalid: \(error)")
            }
            throw UsageError("option '--\(option)' must be > 0, got \(value)")
        }
        return config
    }

    func validate() throws(UsageError) {
        try FileIdentity.refuseOverwriting(
            eventsOut, option: "events-out",
            inputs: [("fences", fencesPath), ("fixes", fixesPath), ("truth", truthPath)])
    }

    func execute() throws {
        // The detector follows each device through time: its fixes must be in time order.
        let (rows, fixes) = try loadWorkload(fencesPath: fencesPath, fixesPath: fixesPath, truthPath: truthPath, order: .perDevice)
        let fences = try makeFences(rows)
        let outlines = try loadOutlines(polygonsPath, rows: rows)
        let index = PackedRTree(fences)
        let start = monotonicSeconds()
        func progress(_ step: String) { printError("[transitions \(formatFixed(monotonicSeconds() - start, 1)) s] \(step)") }
        progress("true transitions from the truth")
        let truth = try TransitionScoring.trueTransitions(fixes, index: index, outlines: outlines)
        progress("\(truth.count) true transitions; naive detector")
        let naiveEvents = TransitionScoring.detectNaive(fixes, index: index, outlines: outlines)
        let naive = TransitionScoring.score(detected: naiveEvents, truth: truth)
        progress(sweep ? "sweep of \(DetectorSweep.settings(base: config).count) settings (one line each as it finishes)" : "detector, \(reps) runs")

        if sweep {
            print(try Self.sweepTable(fences: fences, outlines: outlines, fixes: fixes, truth: truth, base: config, naive: naive))
            return
        }
        var runs: [Double] = []
        var cpuRuns: [Double] = []
        var criticalCPURuns: [Double] = []  // per run, the busiest shard's thread CPU seconds
        var events: [TransitionEvent] = []
        var detectors: [TransitionDetector] = []
        let shards = threads > 1 ? FixShards(fixes, count: threads) : nil
        for _ in 0..<reps {
            var ds = try (0..<threads).map { _ throws(BenchError) in try Self.makeDetector(fences, config, outlines: outlines) }
            let start = monotonicSeconds(), cpuStart = ProcessStats.threadCPUSeconds()
            if let shards {
                var shardCPU: [Double] = []
                events = shards.detect(with: &ds, shardCPUSeconds: &shardCPU)
                criticalCPURuns.append(shardCPU.max() ?? 0)
            } else {
                events = TransitionScoring.detect(fixes, with: &ds[0])
            }
            runs.append(monotonicSeconds() - start)
            cpuRuns.append(ProcessStats.threadCPUSeconds() - cpuStart)
            detectors = ds
        }
        runs.sort()
        cpuRuns.sort()
        let seconds = OrderStatistics.median(runs)
        let cpuSeconds = OrderStatistics.median(cpuRuns)
        let score = TransitionScoring.score(detected: events, truth: truth)
        if diagnoseFN {
            for (key, n) in TransitionScoring.falseNegativeBreakdown(detected: events, truth: truth) {
                printError("FN \(key): \(n)")
            }
        }
        if let eventsOut {
            do {
                let w = try CSVWriter(path: eventsOut)
                TransitionScoring.writeCSV(events, header: true, to: w)
                try w.close()
            } catch {
                // The writer's message names the file; a write error has no line.
                throw BenchError(error.message)
            }
        }
        let fixesPerSecond = Double(fixes.count) / seconds
        let devices = detectors.reduce(0) { $0 + $1.deviceCount }
        let stateEntries = detectors.reduce(0) { $0 + $1.stateEntryCount }
        let stateBytes = detectors.reduce(0) { $0 + $1.stateBytes }
        if json {
            var o = JSONObject()
            o.set("fences", fences.count)
            o.set("polygon_fences", outlines.count)
            o.set("fixes", fixes.count)
            o.set("true_transitions", score.trueTransitions)
            o.set("optional_transitions", score.optionalTransitions)
            o.set("required_transitions", score.requiredTransitions)
            o.set("detector", object: Self.scoreJSON(score, fixesPerSecond: fixesPerSecond))
            o.set("naive", object: Self.scoreJSON(naive, fixesPerSecond: nil))
            o.set(
                "false_positive_reduction_vs_naive",
                score.falsePositives == 0 ? Double.infinity : Double(naive.falsePositives) / Double(score.falsePositives), decimals: 1)
            var c = JSONObject()
            let k = detectors.reduce(TransitionCounters()) { $0 + $1.counters }
            c.set("accepted", k.accepted); c.set("inaccurate", k.inaccurate); c.set("jumps", k.jumps)
            c.set("duplicates", k.duplicates); c.set("out_of_order", k.outOfOrder); c.set("invalid", k.invalid)
            c.set("neighborhood_queries", k.neighborhoodQueries); c.set("state_entries", stateEntries)
            o.set("counters", object: c)
            var m = JSONObject()
            m.set("devices", devices)
            m.set("bytes_per_idle_device", TransitionDetector.bytesPerIdleDevice)
            m.set("bytes_per_fence_entry", TransitionDetector.bytesPerFenceEntry)
            m.set("entry_buffer_overhead_bytes", TransitionDetector.entryBufferOverhead)
            m.set("state_bytes", stateBytes)
            m.set("bytes_per_device", devices == 0 ? 0 : Double(stateBytes) / Double(devices), decimals: 1)
            m.set("entries_per_device", devices == 0 ? 0 : Double(stateEntries) / Double(devices), decimals: 2)
            let binary = detectors.reduce(0) { $0 + $1.binarySnapshot().count }
            m.set("binary_snapshot_bytes", binary)
            m.set("binary_snapshot_bytes_per_device", devices == 0 ? 0 : Double(binary) / Double(devices), decimals: 1)
            o.set("state", object: m)
            o.set("threads", threads)
            o.set("ns_per_fix", seconds / Double(fixes.count) * 1e9, decimals: 1)
            if threads == 1 { o.set("fixes_per_cpu_second", Double(fixes.count) / cpuSeconds, decimals: 0) }
            if threads > 1 {
                // The busiest shard's thread CPU time: the wall time on idle cores, less the merge.
                o.set("fixes_per_busiest_shard_cpu_second", Double(fixes.count) / OrderStatistics.median(criticalCPURuns), decimals: 0)
            }
            o.set("seconds_runs", array: runs.map { JSONObject.number($0, decimals: 6) })
            print(o.text)
        } else {
            print("true transitions \(score.trueTransitions) (\(score.optionalTransitions) optional brushes)")
            print(Self.scoreTable([("detector", score, fixesPerSecond), ("naive", naive, nil)]))
            print(
                "detector on-CPU: \(formatFixed(Double(fixes.count) / cpuSeconds / 1e6, 2)) M fixes/s "
                    + "(wall \(formatFixed(fixesPerSecond / 1e6, 2)); they differ when the machine is shared)")
            let k = detectors.reduce(TransitionCounters()) { $0 + $1.counters }
            print(
                "counters: accepted \(k.accepted), inaccurate \(k.inaccurate), jumps \(k.jumps), duplicates \(k.duplicates), "
                    + "out of order \(k.outOfOrder), invalid \(k.invalid), neighborhood queries \(k.neighborhoodQueries), "
                    + "state entries \(stateEntries), \(stateBytes) bytes of device state")
        }
    }

    static func makeDetector(
        _ fences: [Fence], _ config: TransitionDetectorConfiguration, outlines: FenceOutlines = FenceOutlines()
    ) throws(BenchError) -> TransitionDetector {
        do {
            return try TransitionDetector(fences: fences, outlines: outlines, configuration: config)
        } catch {
            throw BenchError("\(error)")
        }
    }

    static func scoreJSON(_ s: TransitionScore, fixesPerSecond: Double?) -> JSONObject {
        var o = JSONObject()
        o.set("detected", s.detected)
        o.set("matched", s.matched)
        o.set("false_positives", s.falsePositives)
        o.set("false_negatives", s.falseNegatives)
        o.set("false_positive_rate", s.falsePositiveRate)
        o.set("false_negative_rate", s.falseNegativeRate)
        o.set("latency_p50_s", s.latencyP50, decimals: 1)
        o.set("latency_p95_s", s.latencyP95, decimals: 1)
        o.set("flaps_per_true_transition", s.flapsPerTrueTransition, decimals: 4)
        if let fixesPerSecond { o.set("fixes_per_second", fixesPerSecond, decimals: 0) }
        return o
    }

    static func scoreTable(_ rows: [(String, TransitionScore, Double?)]) -> String {
        let header = ["detector", "detected", "FP rate", "FN rate", "p50 s", "p95 s", "flaps/true", "M fixes/s"]
        var out = [header]
        for (name, s, fps) in rows {
            out.append([
                name, String(s.detected), formatFixed(s.falsePositiveRate * 100, 2) + "%",
                formatFixed(s.falseNegativeRate * 100, 2) + "%", formatFixed(s.latencyP50, 0),
                formatFixed(s.latencyP95, 0), formatFixed(s.flapsPerTrueTransition, 4),
                fps.map { formatFixed($0 / 1e6, 2) } ?? "-"
            ])
        }
        return TextTable.render(out)
    }

    /// The trade-off table: FP/FN/latency over hysteresis (m) x accuracy gate (m), other settings
    /// as given.
    static func sweepTable(
        fences: [Fence], outlines: FenceOutlines, fixes: FixStream, truth: [TrueTransition],
        base: TransitionDetectorConfiguration, naive: TransitionScore
    ) throws(BenchError) -> String {
        var lines = ["| hysteresis m | accuracy gate m | FP rate | FN rate | p50 s | p95 s | FP vs naive |", "|---|---|---|---|---|---|---|"]
        for setting in DetectorSweep.settings(base: base) {
            var d = try makeDetector(fences, setting.configuration, outlines: outlines)
            let s = TransitionScoring.score(detected: TransitionScoring.detect(fixes, with: &d), truth: truth)
            let line =
                "| \(formatFixed(setting.hysteresisMeters, 0)) | \(formatFixed(setting.accuracyGateMeters, 0)) | "
                + "\(formatFixed(s.falsePositiveRate * 100, 2))% | "
                + "\(formatFixed(s.falseNegativeRate * 100, 2))% | \(formatFixed(s.latencyP50, 0)) | \(formatFixed(s.latencyP95, 0)) | "
                + "\(s.falsePositives == 0 ? "inf" : formatFixed(Double(naive.falsePositives) / Double(s.falsePositives), 1))x |"
            printError(line)
            lines.append(line)
        }
        lines.append(
            "| naive | - | \(formatFixed(naive.falsePositiveRate * 100, 2))% | \(formatFixed(naive.falseNegativeRate * 100, 2))% | "
                + "\(formatFixed(naive.latencyP50, 0)) | \(formatFixed(naive.latencyP95, 0)) | 1x |")
        return lines.joined(separator: "\n")
    }
}

/// The `--preset` names: the detector's documented configurations.
enum DetectorPreset: String, CaseIterable {
    case `default`, precise, hysteresis, evidence

    var configuration: TransitionDetectorConfiguration {
        switch self {
        case .default: return .default
        case .precise: return .precise
        case .hysteresis: return .hysteresis
        case .evidence: return .evidence
        }
    }
}
