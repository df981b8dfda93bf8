import DetectorScoring
import Geodesy
import Geofencing
import IndexBenchmark
import RegionMonitorSimulation
import SpatialIndex
import Workloads

/// Measures a ``BenchmarkReport``: stabbing throughput, memory and candidate false positives of
/// every index over fence counts; the transition detector's FP/FN trade-off and latency; the
/// monitor planner's recall and replans under OS caps. All workloads are generated in memory
/// from seeded `WorkloadSpec`s, so a report is reproducible apart from its timings.
public enum ReportRunner {
    /// Runs every measurement of `settings`, telling `progress` what it is doing (for stderr).
    /// `peers` are copied into the report as given.
    ///
    /// With a `sweep` (read by ``SweepResults``), the detector trade-off, the naive detector and
    /// the planner rows are taken from it instead of measured, the report's settings list its
    /// hysteresis values, accuracy gates and caps, and ``BenchmarkReport/sweepSource`` names it;
    /// the default detector still runs on the report's accuracy workload for the latency
    /// distribution and the transition counts.
    /// - Complexity: dominated by the stabbing runs, (repetitions + 1) × fixes × indexes per size.
    public static func measure(
        _ settings: ReportSettings, peers: [BenchmarkReport.Peer] = [],
        sweep: SweepResults.Sweep? = nil, optimized: Bool,
        progress: (String) -> Void
    ) throws -> BenchmarkReport {
        var settings = settings
        if let sweep {
            settings.hysteresisMeters = distinct(sweep.detector.map(\.hysteresisMeters))
            settings.accuracyGatesMeters = distinct(sweep.detector.compactMap(\.accuracyGateMeters))
            settings.caps = distinct(sweep.planner.map(\.cap))
        }
        let clock = ContinuousClock()
        let start = clock.now
        var stab: [BenchmarkReport.Stab] = []
        for pois in settings.stabPOIs {
            progress("stabbing: generating \(pois) POIs, \(settings.stabFixes) fixes")
            let workload = WorkloadGenerator.make(settings.stabSpec(pois: pois))
            let fences = try workload.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
            let input = StabInput(workload.fixes, threads: 1)
            for kind in [IndexKind.grid, .packed, .dynamic, .brute] {
                if kind == .brute && fences.count > settings.bruteForceMaximumFences { continue }
                progress("stabbing: \(kind.rawValue), \(fences.count) fences")
                let m = try StabMeasurement.measure(kind, fences: fences, input: input, repetitions: settings.repetitions)
                stab.append(
                    BenchmarkReport.Stab(
                        index: kind.rawValue, fences: m.fences, fixes: m.fixes, fixesPerSecond: m.fixesPerSecond,
                        indexBytes: m.indexBytes, candidateFalsePositiveRate: m.stats.falsePositiveRate, hits: m.totals.hits,
                        checksum: String(m.totals.checksum), buildSeconds: m.buildSeconds))
            }
        }

        progress("accuracy: generating \(settings.accuracyPOIs) POIs, \(settings.accuracyFixes) fixes with truth")
        let workload = WorkloadGenerator.make(settings.accuracySpec)
        let fences = try workload.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
        let fixes = workload.fixes
        let index = PackedRTree(fences)
        let truth = try TransitionScoring.trueTransitions(fixes, index: index)
        var detector: [BenchmarkReport.Detector] = []
        var defaultLatencies: [Double] = []
        let defaults = TransitionDetectorConfiguration.default
        if sweep != nil {
            progress("detector: defaults only (the trade-off comes from the sweep file)")
            var d = try TransitionDetector(fences: fences, configuration: defaults)
            let events = TransitionScoring.detect(fixes, with: &d)
            defaultLatencies = TransitionScoring.match(detected: events, truth: truth).latencies.sorted()
        }
        let grid = DetectorSweep.settings(base: defaults, hysteresis: settings.hysteresisMeters, gates: settings.accuracyGatesMeters)
        for setting in sweep == nil ? grid : [] {
            let (hysteresis, gate) = (setting.hysteresisMeters, setting.accuracyGateMeters)
            progress("detector: hysteresis \(Int(hysteresis)) m, accuracy gate \(Int(gate)) m")
            var d = try TransitionDetector(fences: fences, configuration: setting.configuration)
            let events = TransitionScoring.detect(fixes, with: &d)
            let score = TransitionScoring.score(detected: events, truth: truth)
            let isDefault = setting.configuration == defaults
            if isDefault {
                defaultLatencies = TransitionScoring.match(detected: events, truth: truth).latencies.sorted()
            }
            detector.append(point(score, hysteresis: hysteresis, gate: gate, isDefault: isDefault))
        }
        let naivePoint: BenchmarkReport.Detector
        if let sweep {
            naivePoint = sweep.naiveDetector
        } else {
            progress("detector: naive (distance <= radius)")
            let naive = TransitionScoring.score(detected: TransitionScoring.detectNaive(fixes, index: index), truth: truth)
            naivePoint = point(naive, hysteresis: 0, gate: nil, isDefault: false)
        }
        let required = truth.reduce(0) { $0 + ($1.optional ? 0 : 1) }

        var planner: [BenchmarkReport.Planner] = sweep?.planner ?? []
        if sweep == nil {
            let planTruth = try PlanScoring.truth(fences: fences, fixes: fixes)
            for cap in settings.caps {
                let monitor = try MonitorPlanner(
                    candidates: PlanScoring.candidates(from: workload.fences),
                    configuration: MonitorPlanner.Configuration(capacity: cap))
                let policies: [(String, PlanScoring.Policy)] = [
                    ("planner", .planner(monitor, significantChangeMeters: 500)),  // iOS: about 500 m
                    ("nearest-15min", .nearestCenters(count: cap, replanEverySeconds: 900)),
                    ("nearest-once", .nearestCenters(count: cap, replanEverySeconds: nil))
                ]
                for (name, policy) in policies {
                    progress("planner: cap \(cap), \(name)")
                    let s = try PlanScoring.score(policy, truth: planTruth, fixes: fixes, settings: PlanScoring.Settings(os: .init(capacity: cap)))
                    planner.append(
                        BenchmarkReport.Planner(
                            cap: cap, policy: name, recall: s.recall, systemRecall: s.recallWithWakeUpCheck,
                            replansPerDeviceHour: s.replansPerDeviceHour, wakesPerDeviceHour: s.wakesPerDeviceHour,
                            guaranteedPlanShare: s.plans == 0 ? 0 : Double(s.guaranteedPlans) / Double(s.plans)))
                }
            }
        }
        let elapsed = clock.now - start
        return BenchmarkReport(
            settings: settings, optimized: optimized, stab: stab, peers: peers, detector: sweep?.detector ?? detector,
            naiveDetector: naivePoint, trueTransitions: truth.count, requiredTransitions: required,
            defaultLatenciesSeconds: defaultLatencies, planner: planner,
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            sweepSource: sweep?.source)
    }

    /// `values` without repeats, in first-seen order.
    static func distinct<T: Hashable>(_ values: [T]) -> [T] {
        var seen = Set<T>()
        return values.filter { seen.insert($0).inserted }
    }

    static func point(_ s: TransitionScore, hysteresis: Double, gate: Double?, isDefault: Bool) -> BenchmarkReport.Detector {
        BenchmarkReport.Detector(
            hysteresisMeters: hysteresis, accuracyGateMeters: gate,
            falsePositiveRate: s.falsePositiveRate, falseNegativeRate: s.falseNegativeRate,
            latencyP50Seconds: s.latencyP50.isNaN ? nil : s.latencyP50,
            latencyP95Seconds: s.latencyP95.isNaN ? nil : s.latencyP95, isDefault: isDefault)
    }
}
