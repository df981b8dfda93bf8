/// The defences of a ``TransitionDetector`` against GPS noise. Metres, seconds, metres per second.
///
/// A fix at great-circle distance `d` from a fence of radius `r`, with reported accuracy `a`,
/// is decisively inside when `d < r - margin` and decisively outside when `d > r + margin`, with
/// `margin = hysteresisMeters + hysteresisRadiusFraction * r + accuracyFactor * a`. Only
/// decisive fixes move a fence's state; fixes in the band between change nothing.
/// The defaults are the tuned values of the README's trade-off table (see the scoring tool,
/// `geofence-bench transitions`).
public struct TransitionDetectorConfiguration: Hashable, Sendable, Codable {
    /// Fixed part of the hysteresis band, metres (>= 0).
    public var hysteresisMeters: Double
    /// Part of the band proportional to the radius (>= 0): wide fences tolerate a wider band.
    public var hysteresisRadiusFraction: Double
    /// Multiple of the fix's reported accuracy added to the band (>= 0): a fix claiming 40 m
    /// must be that much further past the boundary to count.
    public var accuracyFactor: Double
    /// Accuracy gate, metres: a fix reporting a worse accuracy changes no state (it still
    /// advances the device clock). Must be finite.
    public var maxAccuracyMeters: Double
    /// Consecutive decisive fixes needed to count an entry (>= 1).
    public var enterConfirmations: Int
    /// Consecutive decisive fixes needed to count an exit (>= 1).
    public var exitConfirmations: Int
    /// Minimum time, seconds, between the first decisive inside fix and the entry (>= 0).
    public var minimumDwellSeconds: Double
    /// Jump gate: the fastest plausible speed, m/s. A fix further from the last accepted fix than
    /// `maxSpeed * dt + jumpAccuracyFactor * (a1 + a2) + jumpSlackMeters` is rejected.
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
    public var neighbourhoodSlackMeters: Double

    public init(hysteresisMeters: Double = 0, hysteresisRadiusFraction: Double = 0,
                accuracyFactor: Double = 0.9, maxAccuracyMeters: Double = 100,
                enterConfirmations: Int = 1, exitConfirmations: Int = 2, minimumDwellSeconds: Double = 0,
                maxSpeedMetersPerSecond: Double = 60, jumpAccuracyFactor: Double = 2, jumpSlackMeters: Double = 50,
                maxConsecutiveJumpRejections: Int = 3, neighbourhoodSlackMeters: Double = 3000) {
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
        self.neighbourhoodSlackMeters = neighbourhoodSlackMeters
    }

    /// The tuned defaults.
    public static let `default` = TransitionDetectorConfiguration()

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
        guard neighbourhoodSlackMeters.isFinite, neighbourhoodSlackMeters > 0 else {
            throw .invalidSetting(field: "neighbourhoodSlackMeters", value: neighbourhoodSlackMeters)
        }
        guard enterConfirmations >= 1, enterConfirmations <= 255 else { throw .invalidSetting(field: "enterConfirmations", value: Double(enterConfirmations)) }
        guard exitConfirmations >= 1, exitConfirmations <= 255 else { throw .invalidSetting(field: "exitConfirmations", value: Double(exitConfirmations)) }
        guard maxConsecutiveJumpRejections >= 1 else {
            throw .invalidSetting(field: "maxConsecutiveJumpRejections", value: Double(maxConsecutiveJumpRejections))
        }
    }
}
