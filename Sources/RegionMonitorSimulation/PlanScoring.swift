import Geodesy
import Geofencing
import SpatialIndex
import Workloads

/// Scores a region-selection policy against ground truth through the simulated OS
/// (``OSRegionMonitor``): how many true fence entries reach the app, at what cost in replans.
///
/// ## Definitions
/// - A *true entry* of (device, fence) is a change of the truth position's state from outside
///   to inside the fence (`d <= r`, great circle) between two consecutive fixes of the device;
///   its time is the later fix's. The first fix of a device is no entry.
/// - An entry is *optional* when the truth leaves the fence again within ``Settings/brushSeconds``
///   (60 s: a brush past the boundary, as in the transitions scoring); missing it is not counted,
///   catching it is.
/// - An entry is *caught* when the simulated OS delivers an enter event for that fence (from a
///   crossing or from the initial state reported on registration) at a time `t_d` with
///   `t_before <= t_d <= t_entry + window` (`t_before` the fix before the entry: the OS watches
///   the path between fixes, so it may see the crossing before the next fix;
///   ``Settings/windowSeconds``, 600 s), and the truth is inside the fence at `t_d`. Each event
///   catches at most one entry (entries matched in time order, to the earliest eligible event).
/// - *Recall* (OS events alone) = caught required entries / required entries (required = not
///   optional). Also reported: recall over the *deep* required entries (the truth gets at least
///   the OS pass distance inside: the only ones an OS with that hysteresis can report).
/// - *System recall* (`recallWithWakeUpCheck`, the headline): an entry also counts as caught
///   when the app fires it itself at a wake-up (see "Wake-time check") within the same window
///   while the truth is inside the fence. This is how geofencing SDKs work around OS caps.
/// - A *replan* is every plan after a device's first; device-hours sum each device's span
///   from its first to its last fix.
///
/// ## Wake-time check
/// The app is woken by every OS event it receives (a fence's enter or exit, initial states
/// included, the refresh exit, the significant-change signal) and by its own plans. Woken, it
/// takes the next fix (the device's *noisy* position, never the truth) and evaluates it against
/// all its fences, keeping a belief of which fences it is in:
/// - it fires an entry for every fence it does not believe it is in whose boundary the fix is
///   at least ``Settings/wakeCheckGate`` × the fix's reported accuracy inside, and from then on
///   believes it is in that fence;
/// - it stops believing it is in a fence when the fix is at least
///   ``Settings/wakeCheckExitGate`` × accuracy outside it (default: any fix outside);
/// - when the fix lies inside a fence it does not believe it is in, but not by the gate, it
///   stays awake for the next fix (at most ``Settings/wakeCheckConfirmFixes`` in a row).
/// So a stay it already knew of fires nothing, and a leave and re-entry between two wakes is
/// not seen. With a gate of 0 this is the plain check (fire what the fix is inside and the
/// previous wake's fix was not). A fire with the truth outside the fence is a false alarm:
/// counted (``Score/wakeCheckFalseFires``), never a catch; a fire in a stay of the truth that
/// an earlier fire already announced is counted in ``Score/wakeCheckRepeatFires``. With
/// ``Settings/checksAtEveryWake`` false the app checks only when it plans. Polygon fences
/// (``Truth/outlines``) are not in this check: the app feeds every fix it wakes for to a
/// `TransitionDetector` over them (``Settings/polygonDetection``), a polygon fires when the
/// detector reports its entry, and the app stays awake while inside a polygon's circle.
///
/// ## The simulated app
/// Per device, in time order (`SimulatedApp`, in named steps: observe, wake, plan, match). The OS looks at the true position at every fix and every
/// ``Settings/observationSeconds`` (5 s) along the straight path between fixes, and delivers
/// its events (seeded delays). An exit of the refresh region (the planner), a significant-change
/// signal (optional) or the 15-minute timer (baseline) wakes the app, which asks for a fresh
/// location and plans when it arrives: at the next fix, with its noisy position and its
/// reported accuracy as uncertainty, and the speed and heading between that fix and the latest
/// of the 4 before it accurate to ``Settings/motionFixMaximumAccuracyMeters``. The plan's diff is applied to the OS at that moment,
/// against the true position then.
public enum PlanScoring {
    /// How regions are chosen.
    public enum Policy: Sendable {
        /// The `MonitorPlanner`, replanning when the refresh region is exited and, if
        /// `significantChangeMeters` is set, whenever the true position has moved that far
        /// from where the last significant-change signal fired (iOS: about 500 m).
        case planner(MonitorPlanner, significantChangeMeters: Double?)
        /// The `count` fences with the nearest centers, planned at the first fix and then
        /// every `replanEverySeconds` (nil: never again).
        case nearestCenters(count: Int, replanEverySeconds: Double?)
    }

    /// Scoring settings.
    public struct Settings: Hashable, Sendable {
        /// The simulated OS (the capacity is the policy's cap).
        public var os: OSRegionMonitor.Configuration
        /// Latest delivery after the entry that still counts, seconds.
        public var windowSeconds: Double = 600
        /// An entry reversed within this many seconds is optional.
        public var brushSeconds: Double = 60
        /// Seed of the OS delays (mixed with the device id).
        public var seed: UInt64 = 1
        /// How often the OS looks at the true position between fixes (along the straight path
        /// between them), seconds: a real OS tracks continuously; 5 s is 65 m at driving speed.
        public var observationSeconds: Double = 5
        /// Planner policy: the app, woken by an event of a monitored fence, plans again (at the
        /// next fix) when the event reports a crossing, or an initial state that contradicts the
        /// plan's fix (registered as outside but reported inside, or the reverse). Needed by
        /// a planner that leaves shielded rings out without bounding the refresh radius by them.
        /// False (default; measured: true costs 20 replans per device-hour on the 10k-POI
        /// workload): only the refresh exit (and the optional significant-change signal) plans.
        public var replansOnFenceEvents: Bool = false
        /// Whether the app evaluates its fix at every wake-up (any delivered OS event), not only
        /// when it plans (see "Wake-time check" in ``PlanScoring``). All policies.
        public var checksAtEveryWake: Bool = true
        /// Planner policy with a significant-change distance: whether the signal makes the app
        /// plan (true) or only wakes it for its check (false: it plans on the refresh exit).
        public var significantChangeReplans: Bool = false
        /// The significant-change signal comes at most this often, seconds (iOS documents no
        /// more than one every 5 minutes).
        public var significantChangeMinimumSeconds: Double = 300

        /// Wake-time check, entry side (see "Wake-time check" in ``PlanScoring``), in units of
        /// the fix's reported accuracy: the app fires a fence only when its fix is at least
        /// `wakeCheckGate × accuracy` inside it. Default 1 (measured at cap 20: false fires
        /// 4.7 % -> 0.3 % of fires, and fewer misses, since a false belief no longer hides the
        /// real entry); 0 is the ungated check.
        public var wakeCheckGate: Double = 1
        /// Wake-time check, exit side, in units of the fix's accuracy: the app stops believing
        /// it is inside a fence when its fix is at least `wakeCheckExitGate × accuracy` outside.
        /// Default 0 (any fix outside): a sticky belief hides re-entries (measured: 0.25 costs
        /// 0.05 points of system recall); duplicate fires stay as rare as without a gate (~2 %).
        public var wakeCheckExitGate: Double = 0
        /// The app estimates speed and heading (for the planner) from its latest fix and the
        /// latest of the 4 before it whose reported accuracy is at most this, meters (default
        /// 100: a coarse Wi-Fi/cell fix makes up a jump; measured at cap 20, +0.7 points of OS
        /// recall and +0.03 of system recall at 0.8 % more replans; `.infinity`: the fix before).
        public var motionFixMaximumAccuracyMeters: Double = 100
        /// How many further fixes in a row the app takes after a wake whose fix lay inside a
        /// fence it does not believe it is in, but not by the gate (it stays awake for them,
        /// as an app that asks for a better fix does). Default 3.
        public var wakeCheckConfirmFixes: Int = 3
        /// Polygon fences: the noise model the app runs on its woken fixes. The app feeds every
        /// fix it wakes for to a `TransitionDetector` over the polygon fences with this
        /// configuration, and a polygon fires when the detector reports its entry (its evidence
        /// and confirmations, on the signed distance to the polygon's boundary), not when a raw
        /// fix falls inside. Default: the detector's defaults, which apply its polygon settings
        /// (``TransitionDetectorConfiguration``).
        public var polygonDetection: TransitionDetectorConfiguration = .default

        /// Settings for the OS `os`; the others as documented on their properties (checked by
        /// ``validate()``).
        public init(
            os: OSRegionMonitor.Configuration, windowSeconds: Double = 600, brushSeconds: Double = 60, seed: UInt64 = 1,
            observationSeconds: Double = 5, replansOnFenceEvents: Bool = false, checksAtEveryWake: Bool = true,
            significantChangeReplans: Bool = false, significantChangeMinimumSeconds: Double = 300
        ) {
            self.significantChangeReplans = significantChangeReplans
            self.significantChangeMinimumSeconds = significantChangeMinimumSeconds
            self.checksAtEveryWake = checksAtEveryWake
            self.replansOnFenceEvents = replansOnFenceEvents
            self.observationSeconds = observationSeconds
            self.os = os
            self.windowSeconds = windowSeconds
            self.brushSeconds = brushSeconds
            self.seed = seed
        }
    }

    /// Why a scoring run was rejected.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The fix stream is inconsistent or holds a value out of range.
        case fixes(FixStreamError)
        /// The truth was extracted from a different fix stream (another number of fixes).
        case truthMismatch(truthFixes: Int, fixes: Int)
        /// A setting out of range, named.
        case invalidSetting(field: String, value: Double)
        /// The planner rejected a plan request.
        case planner(MonitorPlanner.Error)
        /// The polygon fences' detector rejected its fences (the `GeofenceError`'s words).
        case polygonDetector(String)
        /// The fixes' time gaps need more OS observations than ``observationLimit(fixes:)``:
        /// `device` is the one whose gaps passed the limit, `seconds` the sum of the gaps so far.
        case tooManyObservations(device: Int32, seconds: Double, limit: Int)

        /// What was rejected, in words.
        public var description: String {
            switch self {
            case .fixes(let e): return e.description
            case let .truthMismatch(truthFixes, fixes):
                return "the truth covers \(truthFixes) fixes but the stream has \(fixes)"
            case let .invalidSetting(field, value): return "plan scoring setting \(field) out of range: \(value)"
            case .planner(let e): return e.description
            case .polygonDetector(let why): return "the polygon fences' detector: \(why)"
            case let .tooManyObservations(device, seconds, limit):
                return "the fixes span \(seconds) s between them (device \(device) reached it), more than the "
                    + "\(limit) observations the OS simulation may make (one every observationSeconds; "
                    + "10,000,000, or 200 a fix): are the times in seconds?"
            }
        }
    }

    /// Runs `policy` over every device and scores it. O(fixes × (observations per fix + plan)).
    /// - Throws: ``Error`` when the fixes are invalid (`FixStream/validate(requiringTruth:)`),
    ///   `truth` comes from another stream, a setting is out of range (``Settings/validate()``)
    ///   or the planner rejects a request.
    public static func score(_ policy: Policy, truth: Truth, fixes: FixStream, settings: Settings) throws(Error) -> Score {
        do { try fixes.validate(requiringTruth: true) } catch { throw .fixes(error) }
        guard truth.truthVectors.count == fixes.count else {
            throw .truthMismatch(truthFixes: truth.truthVectors.count, fixes: fixes.count)
        }
        try settings.validate()
        try checkObservations(fixes: fixes, rowsByDevice: truth.rowsByDevice, settings: settings)
        let detector = try polygonDetector(truth: truth, configuration: settings.polygonDetection)
        var score = Score()
        for slot in truth.rowsByDevice.indices {
            var app = SimulatedApp(
                slot: slot, policy: policy, truth: truth, fixes: fixes, settings: settings, polygonDetector: detector, score: score)
            app.run()
            if let failure = app.failure { throw .planner(failure) }
            score = app.takeScore()
        }
        score.latencies.sort()
        return score
    }

    /// The most OS observations one scoring run may simulate for `fixes` fixes: 10,000,000, or
    /// 200 a fix when that is more (an average gap of 1,000 s at the default 5 s). The
    /// simulation observes the straight truth path every ``Settings/observationSeconds`` between
    /// a device's consecutive fixes, so its work is the time the fixes span, not their number:
    /// two fixes 10^9 s apart were hours of work, a fix at -1e308 s a loop without end.
    public static func observationLimit(fixes: Int) -> Int { max(10_000_000, 200 * fixes) }

    /// Throws ``Error/tooManyObservations(device:seconds:limit:)`` when the forward time gaps
    /// between each device's consecutive fixes need more than ``observationLimit(fixes:)``
    /// observations. O(fixes).
    static func checkObservations(fixes: FixStream, rowsByDevice: [[Int]], settings: Settings) throws(Error) {
        let limit = observationLimit(fixes: fixes.count)
        var seconds = 0.0
        for rows in rowsByDevice {
            for n in rows.indices.dropFirst() {
                seconds += max(0, fixes.time[rows[n]] - fixes.time[rows[n - 1]])
            }
            if !(seconds / settings.observationSeconds <= Double(limit)), let first = rows.first {
                throw .tooManyObservations(device: fixes.device[first], seconds: seconds, limit: limit)
            }
        }
    }

    /// The detector every device's app starts from for the polygon fences of `truth` (their
    /// circles and outlines), or nil when there are none. O(polygon fences).
    /// - Throws: ``Error/polygonDetector(_:)`` when the detector rejects them or `configuration`
    ///   (checked before, by ``Settings/validate()``).
    static func polygonDetector(truth: Truth, configuration: TransitionDetectorConfiguration) throws(Error)
        -> TransitionDetector?
    {
        guard !truth.outlines.isEmpty else { return nil }
        var circles: [Fence] = []
        for id in truth.outlines.ids {
            guard let k = truth.positionByID[id] else { throw .polygonDetector(GeofenceError.unknownFenceID(id).description) }
            circles.append(truth.fences[k])
        }
        do {
            return try TransitionDetector(fences: circles, outlines: truth.outlines, configuration: configuration)
        } catch {
            throw .polygonDetector(error.description)
        }
    }
}

extension PlanScoring.Settings {
    /// Checks the ranges the simulation needs: positive finite observation step, and finite
    /// non-negative windows, gates and accuracy bound (the accuracy bound may be infinite).
    /// - Throws: ``PlanScoring/Error/invalidSetting(field:value:)`` naming the first bad field.
    public func validate() throws(PlanScoring.Error) {
        func check(_ ok: Bool, _ field: String, _ value: Double) throws(PlanScoring.Error) {
            if !ok { throw .invalidSetting(field: field, value: value) }
        }
        try check(observationSeconds.isFinite && observationSeconds > 0, "observationSeconds", observationSeconds)
        try check(windowSeconds.isFinite && windowSeconds >= 0, "windowSeconds", windowSeconds)
        try check(brushSeconds.isFinite && brushSeconds >= 0, "brushSeconds", brushSeconds)
        try check(significantChangeMinimumSeconds >= 0, "significantChangeMinimumSeconds", significantChangeMinimumSeconds)
        try check(wakeCheckGate.isFinite && wakeCheckGate >= 0, "wakeCheckGate", wakeCheckGate)
        try check(wakeCheckExitGate.isFinite && wakeCheckExitGate >= 0, "wakeCheckExitGate", wakeCheckExitGate)
        try check(motionFixMaximumAccuracyMeters >= 0, "motionFixMaximumAccuracyMeters", motionFixMaximumAccuracyMeters)
        try check(wakeCheckConfirmFixes >= 0, "wakeCheckConfirmFixes", Double(wakeCheckConfirmFixes))
        do {
            try polygonDetection.validate()
        } catch {
            guard case let .invalidSetting(field, value) = error else { throw .polygonDetector(error.description) }
            throw .invalidSetting(field: "polygonDetection.\(field)", value: value)
        }
    }
}

extension PlanScoring {
    /// Planner candidates for workload fences: the workload's tiers are approach rings
    /// (1, 3 and 5 miles), so each fence gets the priority of an approach ring of its radius
    /// (`GeofenceKind/defaultPriority`: nearer rings rank higher); a polygon fence (in
    /// `outlines`) is a place, planned as its circle (the polygon's enclosing circle: the OS
    /// watches circles) with the priority of an arrival fence.
    public static func candidates(from fences: [WorkloadFence], outlines: FenceOutlines = FenceOutlines()) -> [MonitorPlanner.Candidate] {
        fences.map { f in
            let miles = f.radius / metersPerMile
            let kind = outlines.polygon(forID: f.id) == nil ? GeofenceKind.approach(miles: miles) : .arrival
            return MonitorPlanner.Candidate(
                id: f.id, latitude: f.latitude, longitude: f.longitude, radiusMeters: f.radius,
                priority: kind.defaultPriority)
        }
    }
}
