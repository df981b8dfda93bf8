/// Everything a benchmark report shows, as measured: written to `report.json` and drawn into
/// `report.html` from the same values.
///
/// Units: speeds in fixes per second, memory in bytes, times in seconds, rates as fractions
/// (0.0123 is 1.23 %), distances in meters.
public struct BenchmarkReport: Hashable, Sendable, Codable {
    /// One index on one stabbing workload.
    public struct Stab: Hashable, Sendable, Codable {
        /// `grid`, `packed`, `dynamic` or `brute` (the `geofence-bench stab --index` names).
        public var index: String
        /// Fences and fixes of the workload.
        public var fences: Int, fixes: Int
        /// Fixes per second, median of the timed runs (query phase only, one thread).
        public var fixesPerSecond: Double
        /// Bytes of the index's own storage (`nil` where the index cannot tell).
        public var indexBytes: Int?
        /// Candidates rejected by the exact test / candidates (0 when there were none).
        public var candidateFalsePositiveRate: Double
        /// Hits and the stabbing checksum of docs/WORKLOADS.md (decimal string: a UInt64 does not fit every JSON reader).
        public var hits: Int, checksum: String
        /// Build time of the index, seconds.
        public var buildSeconds: Double
    }

    /// One setting of the detector's trade-off sweep.
    public struct Detector: Hashable, Sendable, Codable {
        /// Hysteresis (meters) and accuracy gate (meters; `nil` for the naive detector, which has none).
        public var hysteresisMeters: Double, accuracyGateMeters: Double?
        /// False-positive rate (of detections) and false-negative rate (of required true transitions).
        public var falsePositiveRate: Double, falseNegativeRate: Double
        /// Median and 95th-percentile latency of matched detections, seconds (`nil` if none).
        public var latencyP50Seconds: Double?, latencyP95Seconds: Double?
        /// True for the detector's default configuration.
        public var isDefault: Bool
    }

    /// One region-selection policy under one OS cap.
    public struct Planner: Hashable, Sendable, Codable {
        /// Regions the simulated OS monitors at once.
        public var cap: Int
        /// `planner` (MonitorPlanner defaults), `nearest-15min` or `nearest-once`.
        public var policy: String
        /// Required true entries caught by OS events alone, and by OS events plus the app's
        /// wake-up check (system recall); fractions.
        public var recall: Double, systemRecall: Double
        /// Replans and wake-ups per device-hour.
        public var replansPerDeviceHour: Double, wakesPerDeviceHour: Double
        /// Share of plans that are guaranteed.
        public var guaranteedPlanShare: Double
    }

    /// A peer's figure from a `scripts/compare-peers --json-out` file.
    public struct Peer: Hashable, Sendable, Codable {
        /// The peer's name (`boost_packed`, `s2_cover`, ...).
        public var name: String
        /// Fences of the workload, fixes per second, index memory in bytes.
        public var fences: Int, fixesPerSecond: Double, indexBytes: Int
    }

    /// Where the detector trade-off and planner figures came from when they were read from a
    /// `scripts/sweep --json-out` file instead of measured: the file's name and its workload.
    public struct SweepSource: Hashable, Sendable, Codable {
        /// The file's name (its last path component).
        public var file: String
        /// The workload of the sweep: POIs, devices, fixes and generator seed.
        public var pois: Int, devices: Int, fixes: Int, seed: UInt64
        /// The GPS noise model of the workload (`realistic`).
        public var noise: String

        /// A source from its parts.
        public init(file: String, pois: Int, devices: Int, fixes: Int, seed: UInt64, noise: String) {
            self.file = file
            self.pois = pois
            self.devices = devices
            self.fixes = fixes
            self.seed = seed
            self.noise = noise
        }
    }

    /// The settings the report was measured with.
    public var settings: ReportSettings
    /// Whether the measuring binary was built with optimization (a debug build's speeds mean nothing).
    public var optimized: Bool
    /// Stabbing results, by workload then index.
    public var stab: [Stab]
    /// Peers' results, when a peers file was given.
    public var peers: [Peer]
    /// The detector's trade-off sweep (hysteresis x accuracy gate).
    public var detector: [Detector]
    /// The naive detector (an event whenever distance <= radius changes) on the same workload.
    public var naiveDetector: Detector
    /// True transitions and required ones (not brushes) of the accuracy workload.
    public var trueTransitions: Int, requiredTransitions: Int
    /// Latency of every matched detection with the default detector, seconds, ascending.
    public var defaultLatenciesSeconds: [Double]
    /// Policies under each cap.
    public var planner: [Planner]
    /// Seconds the measurement took.
    public var elapsedSeconds: Double
    /// The sweep file that ``detector``, ``naiveDetector`` and ``planner`` were read from; `nil`
    /// when the report measured them itself.
    public var sweepSource: SweepSource?

    /// A report from its parts.
    public init(
        settings: ReportSettings, optimized: Bool, stab: [Stab], peers: [Peer], detector: [Detector],
        naiveDetector: Detector, trueTransitions: Int, requiredTransitions: Int,
        defaultLatenciesSeconds: [Double], planner: [Planner], elapsedSeconds: Double,
        sweepSource: SweepSource? = nil
    ) {
        self.settings = settings
        self.optimized = optimized
        self.stab = stab
        self.peers = peers
        self.detector = detector
        self.naiveDetector = naiveDetector
        self.trueTransitions = trueTransitions
        self.requiredTransitions = requiredTransitions
        self.defaultLatenciesSeconds = defaultLatenciesSeconds
        self.planner = planner
        self.elapsedSeconds = elapsedSeconds
        self.sweepSource = sweepSource
    }
}
