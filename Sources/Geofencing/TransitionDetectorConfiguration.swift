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
    /// really moved, or the last accepted fix was the outlier); 1...127.
    public var maxConsecutiveJumpRejections: Int
    /// How far a device may move, metres, before its cached neighbourhood of fences is fetched
    /// again from the index. Affects speed and memory only, never the events (> 0).
    /// Default 3,000 m: on the 10k-POI workload 1 / 1.5 / 2 / 3 km measured 2.5-2.7 / 2.6 /
    /// 2.8-3.1 / 2.9-3.1 M fixes/s on-CPU (shared machine, two runs each).
    public var neighborhoodSlackMeters: Double
    /// Evidence needed for an entry (>= 0; 0, the default: off, entries use the decisive-inside
    /// rule above). When positive, entries accumulate evidence instead: each fix scores
    /// `z = (r - band - d) / sigma - enterEvidencePerFix`, where `d` is the fix's distance from
    /// the centre, `band = hysteresisMeters + hysteresisRadiusFraction * r` and `sigma` half the
    /// reported accuracy (the error scale of one axis; at least 0.5 m); the score is
    /// `S = max(0, S + z)` (a CUSUM, kept in steps of 1/8 while outside) and the device enters
    /// when `S >= enterEvidence`. One deep fix enters at once, shallow ones must agree over
    /// several fixes, and a lone outlier is forgiven by the fixes around it.
    /// `enterConfirmations` and `minimumDwellSeconds` do not apply in this mode.
    public var enterEvidence: Double
    /// Evidence a fix must exceed to count towards an entry, in units of sigma (>= 0; see
    /// ``enterEvidence``). Default 1.
    public var enterEvidencePerFix: Double
    /// Evidence needed for an exit (>= 0; 0, the default: off, exits use the decisive-outside
    /// rule and `exitConfirmations`). When positive, each fix of a device inside scores
    /// `z = (d - r - band) / sigma - exitEvidencePerFix` and the device exits when the CUSUM
    /// `S = max(0, S + z)` reaches `exitEvidence` (as ``enterEvidence``, mirrored).
    public var exitEvidence: Double
    /// Evidence a fix must exceed to count towards an exit, in units of sigma (>= 0). Default 1.
    public var exitEvidencePerFix: Double

    /// A configuration with the given settings; the defaults are the tuned ones (see each
    /// property). Checked by ``validate()`` when a detector is made.
    public init(hysteresisMeters: Double = 0, hysteresisRadiusFraction: Double = 0,
                accuracyFactor: Double = 0.9, maxAccuracyMeters: Double = 100,
                enterConfirmations: Int = 1, exitConfirmations: Int = 2, minimumDwellSeconds: Double = 0,
                maxSpeedMetersPerSecond: Double = 60, jumpAccuracyFactor: Double = 2, jumpSlackMeters: Double = 50,
                maxConsecutiveJumpRejections: Int = 3, neighborhoodSlackMeters: Double = 3000,
                enterEvidence: Double = 0, enterEvidencePerFix: Double = 1,
                exitEvidence: Double = 0, exitEvidencePerFix: Double = 1) {
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
        self.enterEvidence = enterEvidence
        self.enterEvidencePerFix = enterEvidencePerFix
        self.exitEvidence = exitEvidence
        self.exitEvidencePerFix = exitEvidencePerFix
    }

    /// The tuned defaults.
    public static let `default` = TransitionDetectorConfiguration()

    /// Evidence entries and exits (``enterEvidence`` 3 at 0.5 per fix, ``exitEvidence`` 6 at
    /// 0.5 per fix; `accuracyFactor` 0.75 for the first state of a fence and the horizons;
    /// everything else as ``default``): on the realistic-noise workloads below, fewer false
    /// negatives than the defaults, fewer false positives on the 10k-POI ones (the same at 2k),
    /// and p95 latency 54-55 s against 79-80 s (exits a fix earlier). It does not reach
    /// FP <= 0.15 % with FN <= 0.45 % on every seed. Tuned on seed 1;
    /// `geofence-bench transitions --preset evidence` (FP / FN / p95 s):
    ///
    /// | workload (`make_workload.py --truth`) | default | evidence |
    /// |---|---|---|
    /// | 10k POIs, seed 1 | 0.183 % / 0.468 % / 80 | 0.144 % / 0.441 % / 55 |
    /// | 10k POIs, seed 2 | 0.190 % / 0.468 % / 79 | 0.161 % / 0.461 % / 55 |
    /// | 10k POIs, seed 3 | 0.181 % / 0.471 % / 79 | 0.157 % / 0.448 % / 55 |
    /// | 2k POIs, 200 devices, 200k fixes, seed 4 | 0.142 % / 0.507 % / 79 | 0.145 % / 0.478 % / 54 |
    /// | 10k POIs, seed 1, `--noise gaussian` | 0.060 % / 0.367 % / 59 | 0.026 % / 0.371 % / 51 |
    public static let evidence = TransitionDetectorConfiguration(accuracyFactor: 0.75, enterEvidence: 3, enterEvidencePerFix: 0.5,
                                                                 exitEvidence: 6, exitEvidencePerFix: 0.5)

    /// Coding keys: the property names, except that the slack keeps the key
    /// `neighbourhoodSlackMeters`, so encoded configurations read either way.
    private enum CodingKeys: String, CodingKey {
        case hysteresisMeters, hysteresisRadiusFraction, accuracyFactor, maxAccuracyMeters, enterConfirmations,
             exitConfirmations, minimumDwellSeconds, maxSpeedMetersPerSecond, jumpAccuracyFactor, jumpSlackMeters,
             maxConsecutiveJumpRejections
        case neighborhoodSlackMeters = "neighbourhoodSlackMeters"
        case enterEvidence, enterEvidencePerFix, exitEvidence, exitEvidencePerFix
    }

    /// Decodes every field; the evidence fields may be absent (encodings that predate them),
    /// and then take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(hysteresisMeters: try c.decode(Double.self, forKey: .hysteresisMeters),
                  hysteresisRadiusFraction: try c.decode(Double.self, forKey: .hysteresisRadiusFraction),
                  accuracyFactor: try c.decode(Double.self, forKey: .accuracyFactor),
                  maxAccuracyMeters: try c.decode(Double.self, forKey: .maxAccuracyMeters),
                  enterConfirmations: try c.decode(Int.self, forKey: .enterConfirmations),
                  exitConfirmations: try c.decode(Int.self, forKey: .exitConfirmations),
                  minimumDwellSeconds: try c.decode(Double.self, forKey: .minimumDwellSeconds),
                  maxSpeedMetersPerSecond: try c.decode(Double.self, forKey: .maxSpeedMetersPerSecond),
                  jumpAccuracyFactor: try c.decode(Double.self, forKey: .jumpAccuracyFactor),
                  jumpSlackMeters: try c.decode(Double.self, forKey: .jumpSlackMeters),
                  maxConsecutiveJumpRejections: try c.decode(Int.self, forKey: .maxConsecutiveJumpRejections),
                  neighborhoodSlackMeters: try c.decode(Double.self, forKey: .neighborhoodSlackMeters),
                  enterEvidence: try c.decodeIfPresent(Double.self, forKey: .enterEvidence) ?? 0,
                  enterEvidencePerFix: try c.decodeIfPresent(Double.self, forKey: .enterEvidencePerFix) ?? 1,
                  exitEvidence: try c.decodeIfPresent(Double.self, forKey: .exitEvidence) ?? 0,
                  exitEvidencePerFix: try c.decodeIfPresent(Double.self, forKey: .exitEvidencePerFix) ?? 1)
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
        try nonNegative(enterEvidence, "enterEvidence")
        try nonNegative(enterEvidencePerFix, "enterEvidencePerFix")
        try nonNegative(exitEvidence, "exitEvidence")
        try nonNegative(exitEvidencePerFix, "exitEvidencePerFix")
        guard maxSpeedMetersPerSecond > 0 else { throw .invalidSetting(field: "maxSpeedMetersPerSecond", value: maxSpeedMetersPerSecond) }
        guard neighborhoodSlackMeters.isFinite, neighborhoodSlackMeters > 0 else {
            throw .invalidSetting(field: "neighborhoodSlackMeters", value: neighborhoodSlackMeters)
        }
        guard enterConfirmations >= 1, enterConfirmations <= 255 else { throw .invalidSetting(field: "enterConfirmations", value: Double(enterConfirmations)) }
        guard exitConfirmations >= 1, exitConfirmations <= 255 else { throw .invalidSetting(field: "exitConfirmations", value: Double(exitConfirmations)) }
        guard maxConsecutiveJumpRejections >= 1, maxConsecutiveJumpRejections <= 127 else {
            throw .invalidSetting(field: "maxConsecutiveJumpRejections", value: Double(maxConsecutiveJumpRejections))
        }
    }
}
