/// The defences of a ``TransitionDetector`` against GPS noise. Metres, seconds, metres per second.
///
/// A fix at great-circle distance `d` from a fence of radius `r`, with reported accuracy `a`,
/// is decisively inside when `d < r - margin` and decisively outside when `d > r + margin`, with
/// `margin = hysteresisMeters + hysteresisRadiusFraction * r + accuracyFactor * a`. Only
/// decisive fixes move a fence's state; fixes in the band between change nothing.
/// The defaults were tuned with `geofence-bench transitions` on the README's 10k-POI workload
/// with truth (realistic noise; 1,000 devices, 1 M fixes) and checked on a
/// second seed; the measured reason for each is beside it. At the defaults: false positives
/// 0.18 %, false negatives 0.47 %, latency p50 23 s / p95 80 s, 93x fewer false positives than
/// the naive detector.
public struct TransitionDetectorConfiguration: Hashable, Sendable, Codable {
    /// Fixed part of the hysteresis band, metres (>= 0). Default 0: with the accuracy term
    /// below doing the work, 10 / 20 / 40 m more raised false negatives from 0.47 % to 0.80 /
    /// 1.14 / 1.85 % with no gain in false positives (0.15-0.24 %).
    public var hysteresisMeters: Double
    /// Part of the band proportional to the radius (>= 0): wide fences tolerate a wider band.
    /// Default 0 (not needed on the measured workloads).
    public var hysteresisRadiusFraction: Double
    /// Multiple of the fix's reported accuracy added to the band (>= 0): a fix claiming 40 m
    /// must be 0.9 x 40 m past the boundary to count. Default 0.9: 0.5 / 0.75 / 0.9 / 1.0 gave
    /// false positives 0.41 / 0.23 / 0.18 / 0.16 % against false negatives 0.30 / 0.40 / 0.47 /
    /// 0.52 %; 0.9 is the one setting inside both goals (<= 0.2 %, <= 0.5 %).
    public var accuracyFactor: Double
    /// Accuracy gate, metres: a fix reporting a worse accuracy changes no state (it still
    /// advances the device clock). Must be finite. Default 100: gates 50 / 100 / 200 / 1500 m
    /// gave false positives 0.17 / 0.18 / 0.21 / 0.51 % at the same false negatives (0.46-0.49 %).
    public var maxAccuracyMeters: Double
    /// Consecutive decisive fixes needed to count an entry (>= 1). Default 1: a second fix cut
    /// false positives to 0.11 % but raised false negatives to 0.80 % and p50 latency to 41 s.
    public var enterConfirmations: Int
    /// Consecutive decisive fixes needed to count an exit (>= 1). Default 2: one fix gave
    /// false positives 0.32 % (multipath outliers briefly "outside"), two give 0.16 % at the
    /// cost of one fix interval of latency (p95 47 -> 81 s).
    public var exitConfirmations: Int
    /// Minimum time, seconds, between the first decisive inside fix and the entry (>= 0).
    /// Default 0 (an app may want it for "arrived", at the price of that much latency).
    public var minimumDwellSeconds: Double
    /// Jump gate: the fastest plausible speed, m/s. A fix further from the last accepted fix than
    /// `maxSpeed * dt + jumpAccuracyFactor * (a1 + a2) + jumpSlackMeters` is rejected.
    /// Default 60 m/s (216 km/h): a guard against gross jumps (a cell fix claiming 10 m, a
    /// position from another city); on the measured workloads, whose multipath errors stay
    /// within a few hundred metres, it rejects nothing, and tighter bounds reject real driving.
    public var maxSpeedMetersPerSecond: Double
    /// Multiple of both fixes' accuracies allowed on top of the speed bound (>= 0).
    public var jumpAccuracyFactor: Double
    /// Constant allowance of the jump gate, metres (>= 0).
    public var jumpSlackMeters: Double
    /// After this many consecutive rejected jumps the next fix is accepted anyway (the device
    /// really moved, or the last accepted fix was the outlier); >= 1.
    public var maxConsecutiveJumpRejections: Int
    /// How far a device may move, metres, before its cached neighbourhood of fences is fetched
    /// again from the index. Affects speed and memory only, never the events (> 0).
    /// Default 3,000 m: on the 10k-POI workload 1 / 1.5 / 2 / 3 km measured 2.5-2.7 / 2.6 /
    /// 2.8-3.1 / 2.9-3.1 M fixes/s on-CPU (shared machine, two runs each).
    public var neighborhoodSlackMeters: Double

    /// A configuration with the given settings; the defaults are the tuned ones (see each
    /// property). Checked by ``validate()`` when a detector is made.
    public init(hysteresisMeters: Double = 0, hysteresisRadiusFraction: Double = 0,
                accuracyFactor: Double = 0.9, maxAccuracyMeters: Double = 100,
                enterConfirmations: Int = 1, exitConfirmations: Int = 2, minimumDwellSeconds: Double = 0,
                maxSpeedMetersPerSecond: Double = 60, jumpAccuracyFactor: Double = 2, jumpSlackMeters: Double = 50,
                maxConsecutiveJumpRejections: Int = 3, neighborhoodSlackMeters: Double = 3000) {
        self.hysteresisMeters = hysteresisMeters
        self.hysteresisRadiusFraction = hysteresisRadiusFraction
        self.accuracyFactor = accuracyFactor
        self.maxAccuracyMeters = maxAccuracyMeters
        self.enterConfirmations = enterConfirmations
        self.exitConfirmations = exitConfirmations
        self.minimumDwellSeconds = minimumDwellSeconds
        self.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
        self.jumpAccuracyFactor = jumpAccuracyFactor
        self.jumpSlackMeters = jumpSlackMeters
        self.maxConsecutiveJumpRejections = maxConsecutiveJumpRejections
        self.neighborhoodSlackMeters = neighborhoodSlackMeters
    }

    /// The tuned defaults.
    public static let `default` = TransitionDetectorConfiguration()

    /// Coding keys: the property names, except that the slack keeps the key
    /// `neighbourhoodSlackMeters`, so encoded configurations read either way.
    private enum CodingKeys: String, CodingKey {
        case hysteresisMeters, hysteresisRadiusFraction, accuracyFactor, maxAccuracyMeters, enterConfirmations,
             exitConfirmations, minimumDwellSeconds, maxSpeedMetersPerSecond, jumpAccuracyFactor, jumpSlackMeters,
             maxConsecutiveJumpRejections
        case neighborhoodSlackMeters = "neighbourhoodSlackMeters"
    }

    /// The slack under its former spelling.
    @available(*, deprecated, renamed: "neighborhoodSlackMeters")
    public var neighbourhoodSlackMeters: Double {
        get { neighborhoodSlackMeters }
        set { neighborhoodSlackMeters = newValue }
    }

    /// Checks every field's range.
    /// - Throws: ``GeofenceError/invalidSetting(field:value:)`` naming the first bad field.
    public func validate() throws(GeofenceError) {
        func nonNegative(_ v: Double, _ name: String) throws(GeofenceError) {
            guard v.isFinite, v >= 0 else { throw .invalidSetting(field: name, value: v) }
        }
        try nonNegative(hysteresisMeters, "hysteresisMeters")
        try nonNegative(hysteresisRadiusFraction, "hysteresisRadiusFraction")
        try nonNegative(accuracyFactor, "accuracyFactor")
        try nonNegative(maxAccuracyMeters, "maxAccuracyMeters")
        try nonNegative(minimumDwellSeconds, "minimumDwellSeconds")
        try nonNegative(jumpAccuracyFactor, "jumpAccuracyFactor")
        try nonNegative(jumpSlackMeters, "jumpSlackMeters")
        guard maxSpeedMetersPerSecond > 0 else { throw .invalidSetting(field: "maxSpeedMetersPerSecond", value: maxSpeedMetersPerSecond) }
        guard neighborhoodSlackMeters.isFinite, neighborhoodSlackMeters > 0 else {
            throw .invalidSetting(field: "neighborhoodSlackMeters", value: neighborhoodSlackMeters)
        }
        guard enterConfirmations >= 1, enterConfirmations <= 255 else { throw .invalidSetting(field: "enterConfirmations", value: Double(enterConfirmations)) }
        guard exitConfirmations >= 1, exitConfirmations <= 255 else { throw .invalidSetting(field: "exitConfirmations", value: Double(exitConfirmations)) }
        guard maxConsecutiveJumpRejections >= 1 else {
            throw .invalidSetting(field: "maxConsecutiveJumpRejections", value: Double(maxConsecutiveJumpRejections))
        }
    }
}
