/// The defenses of a ``TransitionDetector`` against GPS noise. Meters, seconds, meters per second.
///
/// Two rules decide entries and exits. The evidence rule (the default; ``enterEvidence`` and
/// ``exitEvidence`` positive) scores each fix by how far past the boundary it lies in units of
/// its error scale, sigma = half the reported accuracy, and fires when the accumulated score
/// reaches the threshold: a deep fix decides at once, shallow fixes must agree, a lone outlier
/// is outweighed by the fixes around it, and a fix of a device moving slower than
/// ``slowSpeedMetersPerSecond`` counts for at most ``slowEvidenceCapSigmas`` (a multipath
/// outlier can throw a standing device across the boundary in one fix; crossing that far in
/// one fix takes speed), while a fix of a device slower than ``stillSpeedMetersPerSecond``
/// must lie a further ``stillEvidencePerFix`` past the boundary to count at all (a standing
/// device's errors are correlated, so its shallow fixes repeat one error). The hysteresis rule
/// (thresholds 0): a fix at great-circle distance `d` from a fence of radius `r`, with reported accuracy `a`, is decisively inside when
/// `d < r - margin` and decisively outside when `d > r + margin`, with
/// `margin = hysteresisMeters + hysteresisRadiusFraction * r + accuracyFactor * a`; only
/// decisive fixes move a fence's state, after `enterConfirmations` / `exitConfirmations` of
/// them. Either way a fence's first state for a device is its first decisive fix, without an
/// event.
///
/// The defaults were tuned with `geofence-bench transitions --truth` on two generated workloads
/// of 10,000 POIs, 1,000 devices and 1,000,000 fixes with truth (realistic noise, seeds 11 and
/// 12; docs/WORKLOADS.md) and, for the still rule, on ten of `--pois 2000 --devices 200 --fixes 200000`
/// (seeds 21-30), and checked on seeds they were not tuned on (table in docs/DETECTOR.md). The
/// measured reason for each is beside it: seed 11, the defaults with that one setting changed,
/// unless stated.
public struct TransitionDetectorConfiguration: Hashable, Sendable, Codable {
    /// Fixed part of the band, meters (>= 0): the constant of the hysteresis margin, and under
    /// the evidence rule the offset from the boundary where a fix's evidence starts. Default 0:
    /// under the hysteresis rule (seed 1), 10 / 20 / 40 m more raised false negatives from
    /// 0.47 % to 0.80 / 1.14 / 1.85 % with no gain in false positives (0.15-0.24 %).
    public var hysteresisMeters: Double
    /// Part of the band proportional to the radius (>= 0): wide fences tolerate a wider band.
    /// Default 0 (not needed on the measured workloads).
    public var hysteresisRadiusFraction: Double
    /// Multiple of the fix's reported accuracy added to the hysteresis margin (>= 0): at 0.9 a
    /// fix claiming 40 m must be 36 m past the boundary to be decisive. Under the evidence rule
    /// it only decides a fence's first state and how far a device may move before a settled
    /// entry must be looked at again. Default 0.75: 0.3 / 0.75 / 0.9 gave false positives 0.107 /
    /// 0.103 / 0.103 % and false negatives 0.339 / 0.347 / 0.350 %. Under the
    /// hysteresis rule (seed 1; ``hysteresis`` uses 0.9), 0.5 / 0.75 / 0.9 / 1.0 gave 0.41 / 0.23
    /// / 0.18 / 0.16 % against 0.30 / 0.40 / 0.47 / 0.52 %.
    public var accuracyFactor: Double
    /// Accuracy gate, meters: a fix reporting a worse accuracy changes no state (it still
    /// advances the device clock). Must be finite. Default 100: gates 50 / 100 / 200 m gave false
    /// positives 0.092 / 0.103 / 0.144 % and false negatives 0.366 / 0.347 / 0.335 % (``precise``
    /// uses 50).
    public var maxAccuracyMeters: Double
    /// Consecutive decisive fixes needed to count an entry under the hysteresis rule (>= 1).
    /// Default 1: (seed 1) a second fix cut false positives to 0.11 % but raised false negatives
    /// to 0.80 % and p50 latency to 41 s.
    public var enterConfirmations: Int
    /// Consecutive decisive fixes needed to count an exit under the hysteresis rule (>= 1).
    /// Default 2: (seed 1) one fix gave false positives 0.32 % (multipath outliers briefly
    /// "outside"), two give 0.16 % at the cost of one fix interval of latency (p95 47 -> 81 s).
    public var exitConfirmations: Int
    /// Minimum time, seconds, between the first decisive inside fix and the entry under the
    /// hysteresis rule (>= 0). Default 0 (an app may want it for "arrived", at the price of that much latency).
    public var minimumDwellSeconds: Double
    /// Jump gate: the fastest plausible speed, m/s. A fix further from the last accepted fix than
    /// `maxSpeed * dt + jumpAccuracyFactor * (a1 + a2) + jumpSlackMeters` is rejected.
    /// Default 60 m/s (216 km/h): a guard against gross jumps (a cell fix claiming 10 m, a
    /// position from another city); on the measured workloads, whose multipath errors stay
    /// within a few hundred meters, it rejects nothing, and tighter bounds reject real driving.
    public var maxSpeedMetersPerSecond: Double
    /// Multiple of both fixes' accuracies allowed on top of the speed bound (>= 0).
    public var jumpAccuracyFactor: Double
    /// Constant allowance of the jump gate, meters (>= 0).
    public var jumpSlackMeters: Double
    /// After this many consecutive rejected jumps the next fix is accepted anyway (the device
    /// really moved, or the last accepted fix was the outlier); 1...127.
    public var maxConsecutiveJumpRejections: Int
    /// How far a fix may be, meters, from where the device's cached neighborhood of fences was
    /// fetched (its anchor: the fix then, or half this further along a moving device's step)
    /// before it is fetched again from the index. Affects speed and memory only, never the
    /// events (> 0). Default 3,000 m (the measurements behind it: docs/DETECTOR.md).
    public var neighborhoodSlackMeters: Double
    /// Evidence needed for an entry (>= 0; 0: entries use the hysteresis rule). When positive,
    /// each fix of a device outside scores
    /// `z = min((r - band - d) / sigma, cap) - enterEvidencePerFix`, where `d` is the fix's
    /// distance from the center, `band = hysteresisMeters + hysteresisRadiusFraction * r`,
    /// `sigma` half the reported accuracy (the error scale of one axis; at least 0.5 m) and
    /// `cap` ``slowEvidenceCapSigmas`` for a slow fix, else none; the score is
    /// `S = max(0, S + z)` (a CUSUM, kept in steps of 1/8; a still fix also pays
    /// ``stillEvidencePerFix``) and the device enters when
    /// `S >= enterEvidence`. A deep fix of a moving device enters at once, shallow or slow
    /// ones must agree over several fixes, and a lone outlier is forgiven by the fixes around
    /// it. `enterConfirmations` and `minimumDwellSeconds` do not apply in this mode.
    /// Default 2.5: 2 / 2.5 / 3 gave false positives 0.205 / 0.103 / 0.093 % and false
    /// negatives 0.298 / 0.347 / 0.387 % (at 2 one slow fix that is not still can enter).
    public var enterEvidence: Double
    /// Evidence a fix must exceed to count towards an entry, in units of sigma (>= 0; see
    /// ``enterEvidence``). Default 0.3, with a still fix paying 0.7 more (see
    /// ``stillEvidencePerFix``): 0.2 / 0.3 / 0.5 / 1 (with ``exitEvidencePerFix`` the same) gave
    /// false positives 0.113 / 0.103 / 0.092 / 0.097 % and false negatives 0.322 / 0.347 / 0.400
    /// / 0.567 %. Without the still rule, 0.25 / 0.5 / 1 for every fix gave 0.171 / 0.112 /
    /// 0.074 % and 0.305 / 0.363 / 0.496 %: 0.3 plus 0.7 for a still fix has fewer of both errors
    /// than 0.5 for all (2k-POI seeds 21-30 pooled: 0.105 % / 0.333 % against 0.116 % / 0.356 %).
    public var enterEvidencePerFix: Double
    /// Evidence needed for an exit (>= 0; 0: exits use the hysteresis rule and
    /// `exitConfirmations`). When positive, each fix of a device inside scores
    /// `z = min((d - r - band) / sigma, cap) - exitEvidencePerFix` and the device exits when the
    /// CUSUM `S = max(0, S + z)` reaches `exitEvidence` (as ``enterEvidence``, mirrored).
    /// Default 2.5: 2 / 2.5 / 3 / 3.5 gave false positives 0.213 / 0.103 / 0.093 / 0.088 % and
    /// false negatives 0.322 / 0.347 / 0.367 / 0.394 %.
    public var exitEvidence: Double
    /// Evidence a fix must exceed to count towards an exit, in units of sigma (>= 0). Default 0.3
    /// (measured with ``enterEvidencePerFix``).
    public var exitEvidencePerFix: Double
    /// The most evidence, in sigmas, one fix counts for (before the per-fix allowance is taken
    /// off) when the device moved slower than ``slowSpeedMetersPerSecond`` since its previous
    /// accepted fix (>= 0; infinity: no cap). A multipath outlier throws a standing device's
    /// fix far across the boundary, but a real crossing that deep in one fix takes speed; with
    /// the cap less the allowance below the threshold, a slow device needs two fixes. Default
    /// 2.5 (2.5 - 0.3 = 2.2 < 2.5): none / 3 / 2.5 / 2 gave false positives 0.290 / 0.285 / 0.103
    /// / 0.091 % and false negatives 0.318 / 0.319 / 0.347 / 0.370 %.
    public var slowEvidenceCapSigmas: Double
    /// Speed, m/s, over the step from the device's previous accepted fix below which a fix is
    /// slow (see ``slowEvidenceCapSigmas``; >= 0, finite; 0: no fix is slow). Default 8, about the slowest
    /// driving (walking is under 2): 6 / 7 / 8 / 10 gave false positives 0.128 / 0.111 / 0.103 /
    /// 0.090 % and false negatives 0.342 / 0.342 / 0.347 / 0.400 %.
    public var slowSpeedMetersPerSecond: Double
    /// Speed, m/s, over the step from the device's previous accepted fix below which a fix is
    /// still (>= 0, finite; 0: no fix is still). A still fix pays ``stillEvidencePerFix`` on top
    /// of the per-fix allowance. The errors of a standing device's fixes are correlated over a
    /// minute or more, so its consecutive shallow fixes past the boundary are largely one error
    /// seen again, not independent evidence; a device on the move sees the boundary from new
    /// positions. Default 0.8, under walking pace (1-2 m/s) but above the apparent speed of most
    /// standing devices, whose fixes wander (2k-POI seed 21, accuracy gate 50 m: 90 % of standing
    /// devices' fixes and 7 % of walkers' are below 0.8 m/s; medians 0.29 and 1.44 m/s): 0.6 /
    /// 0.8 / 1.0 gave false positives 0.115 / 0.105 / 0.104 % and false negatives 0.327 / 0.333 /
    /// 0.342 % (2k-POI tuning seeds 21-30 pooled).
    public var stillSpeedMetersPerSecond: Double
    /// Evidence, in sigmas, that a still fix (see ``stillSpeedMetersPerSecond``) must exceed on
    /// top of ``enterEvidencePerFix`` or ``exitEvidencePerFix`` to count (>= 0). Default 0.7 on
    /// top of 0.3: 0 / 0.5 / 0.6 / 0.7 / 0.9 gave false positives 0.157 / 0.111 / 0.107 / 0.105 /
    /// 0.105 % and false negatives 0.309 / 0.327 / 0.329 / 0.333 / 0.346 % (2k-POI tuning seeds
    /// 21-30 pooled); a per-fix allowance of 0.2 / 0.3 / 0.4 with 0.8 / 0.7 / 0.6 on top gave
    /// 0.110 / 0.105 / 0.097 % and 0.316 / 0.333 / 0.358 %.
    public var stillEvidencePerFix: Double
    /// Polygon fences are decided by the hysteresis rule on the signed distance to their
    /// boundary, whatever rule the circles use: a fix is decisively inside when it is
    /// `hysteresisMeters + polygonEnterAccuracyFactor × accuracy` inside the polygon, and
    /// decisively outside when it is `hysteresisMeters + polygonExitAccuracyFactor × accuracy`
    /// outside; ``enterConfirmations``, ``exitConfirmations`` and ``minimumDwellSeconds``
    /// apply (>= 0). Default 0.6, with 1.0 for exits (``polygonExitAccuracyFactor``): on
    /// 1,000-polygon workloads (`generate --pois 0 --polygons 1000 --devices 200 --fixes 200000`,
    /// tuning seeds 11-15 pooled, 23,000 required transitions) the evidence rule of the circles'
    /// defaults gave false positives / false negatives 1.56 % / 1.12 %, its flaps being
    /// exit-and-enter pairs of devices standing 10-30 m inside a building; the hysteresis rule
    /// at entry / exit factors 0.9 / 0.9 gives 0.20 % / 0.66 %, 0.5 / 0.9 0.23 % / 0.46 %,
    /// 0.6 / 0.9 0.19 % / 0.49 %, 0.6 / 1.0 0.18 % / 0.50 %, 0.6 / 1.2 0.13 % / 0.53 %, 0.6 / 0.6
    /// 0.58 % / 0.42 %. A low entry margin catches visits that stand a few meters inside a
    /// wall; a high exit margin, on two fixes, keeps those visits from flapping. Figures on
    /// seeds not tuned on: docs/POLYGONS.md.
    public var polygonEnterAccuracyFactor: Double
    /// The multiple of the accuracy a fix must be outside a polygon fence, on top of
    /// ``hysteresisMeters``, to count towards its exit (>= 0). Default 1.0; see
    /// ``polygonEnterAccuracyFactor``.
    public var polygonExitAccuracyFactor: Double
    /// The entry margin's accuracy factor, in place of ``polygonEnterAccuracyFactor``, for a
    /// still fix of a polygon fence: one from a device that moved slower than
    /// ``stillSpeedMetersPerSecond`` since its previous accepted fix (>= 0). Default 0.3, with
    /// 1.2 for exits (``polygonStillExitAccuracyFactor``): a standing device's fixes wander
    /// about one spot, so a spot a few meters inside a wall is entered on a shallower fix, and
    /// a standing device near a wall is not let out by the error of one spot seen twice. The
    /// tuning and the figures on seeds not tuned on: docs/POLYGONS.md.
    public var polygonStillEnterAccuracyFactor: Double
    /// The exit margin's accuracy factor, in place of ``polygonExitAccuracyFactor``, for a still
    /// fix of a polygon fence (>= 0). Default 1.2; see ``polygonStillEnterAccuracyFactor``.
    public var polygonStillExitAccuracyFactor: Double

    /// A configuration with the given settings; the defaults are the tuned ones (see each
    /// property). Checked by ``validate()`` when a detector is made.
    public init(
        hysteresisMeters: Double = 0, hysteresisRadiusFraction: Double = 0,
        accuracyFactor: Double = 0.75, maxAccuracyMeters: Double = 100,
        enterConfirmations: Int = 1, exitConfirmations: Int = 2, minimumDwellSeconds: Double = 0,
        maxSpeedMetersPerSecond: Double = 60, jumpAccuracyFactor: Double = 2, jumpSlackMeters: Double = 50,
        maxConsecutiveJumpRejections: Int = 3, neighborhoodSlackMeters: Double = 3000,
        enterEvidence: Double = 2.5, enterEvidencePerFix: Double = 0.3,
        exitEvidence: Double = 2.5, exitEvidencePerFix: Double = 0.3,
        slowEvidenceCapSigmas: Double = 2.5, slowSpeedMetersPerSecond: Double = 8,
        stillSpeedMetersPerSecond: Double = 0.8, stillEvidencePerFix: Double = 0.7,
        polygonEnterAccuracyFactor: Double = 0.6, polygonExitAccuracyFactor: Double = 1.0,
        polygonStillEnterAccuracyFactor: Double = 0.3, polygonStillExitAccuracyFactor: Double = 1.2
    ) {
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
        self.slowEvidenceCapSigmas = slowEvidenceCapSigmas
        self.slowSpeedMetersPerSecond = slowSpeedMetersPerSecond
        self.stillSpeedMetersPerSecond = stillSpeedMetersPerSecond
        self.stillEvidencePerFix = stillEvidencePerFix
        self.polygonEnterAccuracyFactor = polygonEnterAccuracyFactor
        self.polygonExitAccuracyFactor = polygonExitAccuracyFactor
        self.polygonStillEnterAccuracyFactor = polygonStillEnterAccuracyFactor
        self.polygonStillExitAccuracyFactor = polygonStillExitAccuracyFactor
    }

    /// The largest multiple of the accuracy in any margin: `accuracyFactor`, and with polygon
    /// fences (`polygons`) also their four factors. What a neighborhood must reach beyond a
    /// fence for a fix to be decisively outside it.
    func largestAccuracyFactor(polygons: Bool) -> Double {
        guard polygons else { return accuracyFactor }
        return Swift.max(
            accuracyFactor, polygonEnterAccuracyFactor, polygonExitAccuracyFactor, polygonStillEnterAccuracyFactor,
            polygonStillExitAccuracyFactor)
    }

    /// The tuned defaults: the evidence rule (entry and exit thresholds 2.5; each fix less 0.3
    /// sigma, and less 0.7 more when the device moved slower than 0.8 m/s since its previous
    /// accepted fix; a fix slower than 8 m/s capped at 2.5 sigmas; accuracy gate 100 m). The
    /// workloads they were tuned and checked on, and the figures: docs/DETECTOR.md.
    public static let `default` = TransitionDetectorConfiguration()

    /// Fewer false positives for a few more false negatives: the defaults with a 50 m accuracy
    /// gate (per-fix allowance 0.3 sigma for a device on the move and 0.3 + 0.7 = 1 sigma for a
    /// still one, slower than 0.8 m/s since its previous accepted fix; ``stillSpeedMetersPerSecond``,
    /// ``stillEvidencePerFix``; thresholds 2.5). A fix claiming worse than 50 m changes no
    /// state, so fewer coarse fixes cross a boundary and some real crossings wait for a better
    /// fix. On the 10k-POI workloads none of the presets was tuned on (table in docs/DETECTOR.md) it
    /// keeps false positives at or under 0.091 % and false negatives at or under 0.355 % (p95
    /// latency 55 s), against the defaults' 0.101 % and 0.336 %. On 2k-POI workloads it is
    /// within 0.10 % / 0.40 % on seeds 4 and 7, not on seeds 5 (0.077 % / 0.425 %) and 6
    /// (0.102 % / 0.392 %).
    ///
    /// Tuned with `geofence-bench transitions --truth W/truth.csv --preset precise` on generated
    /// workloads with truth (false positives / false negatives; p95 54-56 s):
    ///
    /// | tuning workload | precise | default |
    /// |---|---|---|
    /// | 10k POIs, seed 11 | 0.092 % / 0.366 % | 0.103 % / 0.347 % |
    /// | 10k POIs, seed 12 | 0.081 % / 0.347 % | 0.091 % / 0.330 % |
    /// | 10k POIs, 1,000 devices, 300k fixes, seed 13 | 0.100 % / 0.420 % | 0.117 % / 0.384 % |
    /// | 2k POIs, 200 devices, 200k fixes, seeds 21-30 pooled | 0.085 % / 0.354 % | 0.105 % / 0.333 % |
    ///
    /// The 2k-POI seeds spread (standard deviation) by 0.02 % in false positives and 0.04 % in
    /// false negatives (one event is 0.0035 %, see ``default``): taken one at a time, 7 of the 10
    /// tuning seeds are within 0.10 % / 0.40 % (the others 0.122 % / 0.332 %, 0.094 % / 0.415 %
    /// and 0.112 % / 0.426 %). Without the still allowance the same settings give 0.134 % /
    /// 0.329 % (seeds 21-30 pooled).
    public static let precise = TransitionDetectorConfiguration(
        maxAccuracyMeters: 50, enterEvidencePerFix: 0.3, exitEvidencePerFix: 0.3,
        stillSpeedMetersPerSecond: 0.8, stillEvidencePerFix: 0.7)

    /// The hysteresis rule without evidence: `accuracyFactor` 0.9, an entry on one decisive fix,
    /// an exit on two (``enterConfirmations``, ``exitConfirmations``), everything else as
    /// ``default`` except the per-fix and still settings (0.5 and none), which this rule does not
    /// read. Simple to reason about; on the measured workloads it gives more of both
    /// errors and exits later than the defaults (table in docs/DETECTOR.md).
    public static let hysteresis = TransitionDetectorConfiguration(
        accuracyFactor: 0.9, enterEvidence: 0, enterEvidencePerFix: 0.5,
        exitEvidence: 0, exitEvidencePerFix: 0.5,
        slowEvidenceCapSigmas: .infinity,
        stillSpeedMetersPerSecond: 0, stillEvidencePerFix: 0)

    /// The evidence rule without the slow-fix cap and the still rule (``enterEvidence`` 3,
    /// ``exitEvidence`` 6, both at 0.5 per fix for every fix; everything else as ``default``):
    /// every fix counts in full, so a deep multipath outlier can cross on its own, and the higher
    /// thresholds that offset this cost false negatives (table in docs/DETECTOR.md).
    public static let evidence = TransitionDetectorConfiguration(
        accuracyFactor: 0.75, enterEvidence: 3, enterEvidencePerFix: 0.5,
        exitEvidence: 6, exitEvidencePerFix: 0.5,
        slowEvidenceCapSigmas: .infinity,
        stillSpeedMetersPerSecond: 0, stillEvidencePerFix: 0)

    /// Coding keys: the property names.
    private enum CodingKeys: String, CodingKey {
        case hysteresisMeters, hysteresisRadiusFraction, accuracyFactor, maxAccuracyMeters, enterConfirmations,
            exitConfirmations, minimumDwellSeconds, maxSpeedMetersPerSecond, jumpAccuracyFactor, jumpSlackMeters,
            maxConsecutiveJumpRejections, neighborhoodSlackMeters
        case enterEvidence, enterEvidencePerFix, exitEvidence, exitEvidencePerFix
        case slowEvidenceCapSigmas, slowSpeedMetersPerSecond
        case stillSpeedMetersPerSecond, stillEvidencePerFix
        case polygonEnterAccuracyFactor, polygonExitAccuracyFactor, polygonStillEnterAccuracyFactor,
            polygonStillExitAccuracyFactor
    }

    /// Decodes every field; each is required (a missing key is a `DecodingError` naming it),
    /// except `slowEvidenceCapSigmas`, which is absent exactly when it is infinite (no cap): JSON
    /// has no infinity, so ``encode(to:)`` leaves it out; and the four polygon factors, which
    /// take their defaults when absent (configurations written before polygon fences or
    /// before their still factors).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            hysteresisMeters: try c.decode(Double.self, forKey: .hysteresisMeters),
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
            enterEvidence: try c.decode(Double.self, forKey: .enterEvidence),
            enterEvidencePerFix: try c.decode(Double.self, forKey: .enterEvidencePerFix),
            exitEvidence: try c.decode(Double.self, forKey: .exitEvidence),
            exitEvidencePerFix: try c.decode(Double.self, forKey: .exitEvidencePerFix),
            slowEvidenceCapSigmas: try c.decodeIfPresent(Double.self, forKey: .slowEvidenceCapSigmas) ?? .infinity,
            slowSpeedMetersPerSecond: try c.decode(Double.self, forKey: .slowSpeedMetersPerSecond),
            stillSpeedMetersPerSecond: try c.decode(Double.self, forKey: .stillSpeedMetersPerSecond),
            stillEvidencePerFix: try c.decode(Double.self, forKey: .stillEvidencePerFix),
            polygonEnterAccuracyFactor: try c.decodeIfPresent(Double.self, forKey: .polygonEnterAccuracyFactor) ?? 0.6,
            polygonExitAccuracyFactor: try c.decodeIfPresent(Double.self, forKey: .polygonExitAccuracyFactor) ?? 1.0,
            polygonStillEnterAccuracyFactor: try c.decodeIfPresent(Double.self, forKey: .polygonStillEnterAccuracyFactor) ?? 0.3,
            polygonStillExitAccuracyFactor: try c.decodeIfPresent(Double.self, forKey: .polygonStillExitAccuracyFactor) ?? 1.2)
    }

    /// Encodes every field; an infinite `slowEvidenceCapSigmas` (no cap) is left out, which
    /// decodes back to infinity (JSON has no infinity).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(hysteresisMeters, forKey: .hysteresisMeters)
        try c.encode(hysteresisRadiusFraction, forKey: .hysteresisRadiusFraction)
        try c.encode(accuracyFactor, forKey: .accuracyFactor)
        try c.encode(maxAccuracyMeters, forKey: .maxAccuracyMeters)
        try c.encode(enterConfirmations, forKey: .enterConfirmations)
        try c.encode(exitConfirmations, forKey: .exitConfirmations)
        try c.encode(minimumDwellSeconds, forKey: .minimumDwellSeconds)
        try c.encode(maxSpeedMetersPerSecond, forKey: .maxSpeedMetersPerSecond)
        try c.encode(jumpAccuracyFactor, forKey: .jumpAccuracyFactor)
        try c.encode(jumpSlackMeters, forKey: .jumpSlackMeters)
        try c.encode(maxConsecutiveJumpRejections, forKey: .maxConsecutiveJumpRejections)
        try c.encode(neighborhoodSlackMeters, forKey: .neighborhoodSlackMeters)
        try c.encode(enterEvidence, forKey: .enterEvidence)
        try c.encode(enterEvidencePerFix, forKey: .enterEvidencePerFix)
        try c.encode(exitEvidence, forKey: .exitEvidence)
        try c.encode(exitEvidencePerFix, forKey: .exitEvidencePerFix)
        if slowEvidenceCapSigmas.isFinite { try c.encode(slowEvidenceCapSigmas, forKey: .slowEvidenceCapSigmas) }
        try c.encode(slowSpeedMetersPerSecond, forKey: .slowSpeedMetersPerSecond)
        try c.encode(stillSpeedMetersPerSecond, forKey: .stillSpeedMetersPerSecond)
        try c.encode(stillEvidencePerFix, forKey: .stillEvidencePerFix)
        try c.encode(polygonEnterAccuracyFactor, forKey: .polygonEnterAccuracyFactor)
        try c.encode(polygonExitAccuracyFactor, forKey: .polygonExitAccuracyFactor)
        try c.encode(polygonStillEnterAccuracyFactor, forKey: .polygonStillEnterAccuracyFactor)
        try c.encode(polygonStillExitAccuracyFactor, forKey: .polygonStillExitAccuracyFactor)
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
        try nonNegative(slowSpeedMetersPerSecond, "slowSpeedMetersPerSecond")
        try nonNegative(stillSpeedMetersPerSecond, "stillSpeedMetersPerSecond")
        try nonNegative(stillEvidencePerFix, "stillEvidencePerFix")
        try nonNegative(polygonEnterAccuracyFactor, "polygonEnterAccuracyFactor")
        try nonNegative(polygonExitAccuracyFactor, "polygonExitAccuracyFactor")
        try nonNegative(polygonStillEnterAccuracyFactor, "polygonStillEnterAccuracyFactor")
        try nonNegative(polygonStillExitAccuracyFactor, "polygonStillExitAccuracyFactor")
        guard !slowEvidenceCapSigmas.isNaN, slowEvidenceCapSigmas >= 0 else {  // infinity: no cap
            throw .invalidSetting(field: "slowEvidenceCapSigmas", value: slowEvidenceCapSigmas)
        }
        guard maxSpeedMetersPerSecond > 0 else { throw .invalidSetting(field: "maxSpeedMetersPerSecond", value: maxSpeedMetersPerSecond) }
        guard neighborhoodSlackMeters.isFinite, neighborhoodSlackMeters > 0 else {
            throw .invalidSetting(field: "neighborhoodSlackMeters", value: neighborhoodSlackMeters)
        }
        guard enterConfirmations >= 1, enterConfirmations <= 255 else {
            throw .invalidSetting(field: "enterConfirmations", value: Double(enterConfirmations))
        }
        guard exitConfirmations >= 1, exitConfirmations <= 255 else {
            throw .invalidSetting(field: "exitConfirmations", value: Double(exitConfirmations))
        }
        guard maxConsecutiveJumpRejections >= 1, maxConsecutiveJumpRejections <= 127 else {
            throw .invalidSetting(field: "maxConsecutiveJumpRejections", value: Double(maxConsecutiveJumpRejections))
        }
    }
}
