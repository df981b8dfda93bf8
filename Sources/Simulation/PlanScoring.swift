import Geodesy
import Geofencing
import SpatialIndex

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
/// ``Settings/checksAtEveryWake`` false the app checks only when it plans.
///
/// ## The simulated app
/// Per device, in time order. The OS looks at the true position at every fix and every
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
        /// The ``MonitorPlanner``, replanning when the refresh region is exited and, if
        /// `significantChangeMeters` is set, whenever the true position has moved that far
        /// from where the last significant-change signal fired (iOS: about 500 m).
        case planner(MonitorPlanner, significantChangeMeters: Double?)
        /// The `count` fences with the nearest centres, planned at the first fix and then
        /// every `replanEverySeconds` (nil: never again).
        case nearestCentres(count: Int, replanEverySeconds: Double?)
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
        /// latest of the 4 before it whose reported accuracy is at most this, metres (default
        /// 100: a coarse Wi-Fi/cell fix makes up a jump; measured at cap 20, +0.7 points of OS
        /// recall and +0.03 of system recall at 0.8 % more replans; `.infinity`: the fix before).
        public var motionFixMaximumAccuracyMeters: Double = 100
        /// How many further fixes in a row the app takes after a wake whose fix lay inside a
        /// fence it does not believe it is in, but not by the gate (it stays awake for them,
        /// as an app that asks for a better fix does). Default 3.
        public var wakeCheckConfirmFixes: Int = 3

        public init(os: OSRegionMonitor.Configuration, windowSeconds: Double = 600, brushSeconds: Double = 60, seed: UInt64 = 1,
                    observationSeconds: Double = 5, replansOnFenceEvents: Bool = false, checksAtEveryWake: Bool = true,
                    significantChangeReplans: Bool = false, significantChangeMinimumSeconds: Double = 300) {
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

    /// The figures of one policy.
    public struct Score: Hashable, Sendable {
        public var trueEntries = 0
        public var requiredEntries = 0
        public var caughtRequired = 0
        public var caughtOptional = 0
        public var plans = 0
        public var replans = 0
        public var deviceHours = 0.0
        /// Regions added / removed by replans (first plans excluded), refresh region included.
        public var regionsAdded = 0
        public var regionsRemoved = 0
        /// Fence regions added / removed by replans.
        public var fencesAdded = 0
        public var fencesRemoved = 0
        /// Plans whose guarantee held (planner only).
        public var guaranteedPlans = 0
        /// Enter events delivered that caught no entry (initial-state reports for fences the
        /// device was already in, late events after the truth left, ...).
        public var unmatchedEnterEvents = 0
        public var enterEvents = 0
        /// Seconds from entry to catching delivery, caught entries only, sorted ascending.
        public var latencies: [Double] = []
        /// Required entries caught by an OS event *or* by the app's own check at a wake-up (see
        /// ``PlanScoring``, "Wake-time check"): system recall, the headline figure.
        public var caughtRequiredWithWakeUpCheck = 0
        /// Times the app was woken and evaluated its fix (plans included).
        public var wakes = 0
        /// Entries the app fired itself at wake-ups, and how many of them had the truth outside
        /// the fence (false alarms of the noisy fix; not counted against recall).
        public var wakeCheckFires = 0
        public var wakeCheckFalseFires = 0
        /// Fires with the truth inside, in a stay an earlier fire of the same fence already
        /// announced (a duplicate notification: the fix flickered across the edge).
        public var wakeCheckRepeatFires = 0
        /// Required entries missed by the system (OS events and wake-time check), counted by
        /// fence radius (`"r<metres>"`), deepest point (`"depth<50"`, `"depth50-200"`,
        /// `"depth>=200"` metres) and stay (`"stay<120"`, `"stay120-600"`, `"stay>=600"` seconds).
        public var systemMisses: [String: Int] = [:]
        /// Required entries that get at least the OS pass distance deep (the ones an OS that
        /// needs that depth can report at all), and how many of them were caught.
        public var deepRequiredEntries = 0
        public var caughtDeepRequired = 0
        /// Required entries missed although the fence was registered when the truth crossed.
        public var missedWhileMonitored = 0
        /// Required entries missed whose fence was not registered when the truth crossed.
        public var missedUnmonitored = 0
        public var rejectedRegistrations = 0
        /// OS events dropped because a plan unregistered their region before delivery.
        public var droppedEvents = 0
        public var skippedObservations = 0

        public init() {}

        public var recall: Double { requiredEntries == 0 ? 1 : Double(caughtRequired) / Double(requiredEntries) }
        public var deepRecall: Double {
            deepRequiredEntries == 0 ? 1 : Double(caughtDeepRequired) / Double(deepRequiredEntries)
        }
        public var recallWithWakeUpCheck: Double {
            requiredEntries == 0 ? 1 : Double(caughtRequiredWithWakeUpCheck) / Double(requiredEntries)
        }
        public var wakesPerDeviceHour: Double { deviceHours == 0 ? 0 : Double(wakes) / deviceHours }
        public var replansPerDeviceHour: Double { deviceHours == 0 ? 0 : Double(replans) / deviceHours }
        public var fencesAddedPerReplan: Double { replans == 0 ? 0 : Double(fencesAdded) / Double(replans) }
        public var fencesRemovedPerReplan: Double { replans == 0 ? 0 : Double(fencesRemoved) / Double(replans) }
        public func latencyPercentile(_ q: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let k = min(latencies.count - 1, max(0, Int((q * Double(latencies.count - 1)).rounded())))
            return latencies[k]
        }
    }

    /// One true entry.
    public struct Entry: Hashable, Sendable {
        public var fence: Int32
        /// The first fix time with the truth inside, seconds.
        public var time: Double
        /// The fix time before it (the crossing lies between the two), seconds.
        public var previousFixTime: Double
        public var optional: Bool
        /// The deepest the truth got inside the fence (radius minus distance, at fixes)
        /// before leaving it again, metres. An OS that needs the position `pass` metres inside
        /// cannot report an entry that never gets that deep.
        public var maxDepthMeters: Double
        /// When the truth leaves the fence again (the first fix outside), seconds; infinity if never.
        public var exitTime: Double = .infinity
        /// When the truth last left the fence before this entry (the first fix outside),
        /// seconds; -infinity if it had not been inside before.
        public var previousExitTime: Double = -.infinity
    }

    /// Fixes grouped per device, with the true entries of every device: computed once and
    /// shared by the policies scored on the same workload.
    public struct Truth: Sendable {
        /// Fix rows of each device, in time order.
        public var rowsByDevice: [[Int]]
        /// True entries of each device, in time order (ties by fence id).
        public var entriesByDevice: [[Entry]]
        public var truthVectors: [UnitVector]
        public var fences: [Fence]
        public var positionByID: [Int32: Int]
        public var index: PackedRTree

        public var entryCount: Int { entriesByDevice.reduce(0) { $0 + $1.count } }
    }

    /// Groups the fixes by device and finds every true entry (needs the truth columns).
    public static func truth(fences: [Fence], fixes: FixStream, brushSeconds: Double = 60) -> Truth {
        var deviceSlot: [Int32: Int] = [:]
        var rows: [[Int]] = []
        for k in 0..<fixes.count {
            let d = fixes.device[k]
            let slot: Int
            if let s = deviceSlot[d] { slot = s } else { slot = rows.count; deviceSlot[d] = slot; rows.append([]) }
            rows[slot].append(k)
        }
        var vectors: [UnitVector] = []
        vectors.reserveCapacity(fixes.count)
        for k in 0..<fixes.count {
            vectors.append(LatLng(uncheckedLatitude: fixes.trueLatitude[k], longitude: fixes.trueLongitude[k]).unitVector)
        }
        let index = PackedRTree(fences)
        var positionByID: [Int32: Int] = [:]
        for (k, f) in fences.enumerated() { positionByID[f.id] = k }
        var entries: [[Entry]] = []
        var previous: [Int32] = [], current: [Int32] = []
        var transitions: [(fence: Int32, time: Double, previous: Double, entering: Bool)] = []
        var depth: [Double] = []               // per transition: deepest point of the stay it opens
        var openStay: [Int32: Int] = [:]       // fence -> index of its entry transition
        for deviceRows in rows {
            transitions.removeAll(keepingCapacity: true)
            depth.removeAll(keepingCapacity: true)
            openStay.removeAll(keepingCapacity: true)
            previous.removeAll(keepingCapacity: true)
            for (n, k) in deviceRows.enumerated() {
                _ = index.stab(vectors[k], into: &current)
                current.sort()
                if n > 0 {
                    // Merge the two sorted sets: ids only in `current` entered, only in `previous` left.
                    var i = 0, j = 0
                    while i < previous.count || j < current.count {
                        if j == current.count || (i < previous.count && previous[i] < current[j]) {
                            transitions.append((previous[i], fixes.time[k], fixes.time[deviceRows[n - 1]], false))
                            depth.append(0)
                            openStay[previous[i]] = nil
                            i += 1
                        } else if i == previous.count || current[j] < previous[i] {
                            transitions.append((current[j], fixes.time[k], fixes.time[deviceRows[n - 1]], true))
                            depth.append(0)
                            openStay[current[j]] = transitions.count - 1
                            j += 1
                        } else { i += 1; j += 1 }
                    }
                }
                for id in current {
                    guard let open = openStay[id] else { continue }
                    let f = fences[positionByID[id]!]
                    depth[open] = max(depth[open], f.radiusMeters - distance(vectors[k], f.centreVector))
                }
                swap(&previous, &current)
            }
            // An entry is optional when the same fence is left within brushSeconds.
            var nextExit: [Int32: Double] = [:]
            var deviceEntries: [Entry] = []
            for (n, tr) in transitions.enumerated().reversed() {
                if tr.entering {
                    let optional = nextExit[tr.fence].map { $0 - tr.time <= brushSeconds } ?? false
                    deviceEntries.append(Entry(fence: tr.fence, time: tr.time, previousFixTime: tr.previous, optional: optional,
                                               maxDepthMeters: depth[n], exitTime: nextExit[tr.fence] ?? .infinity))
                } else {
                    nextExit[tr.fence] = tr.time
                }
            }
            deviceEntries.reverse()
            var lastExit: [Int32: Double] = [:]
            var e = 0
            for tr in transitions {
                if tr.entering {
                    while e < deviceEntries.count, deviceEntries[e].fence != tr.fence || deviceEntries[e].time != tr.time { e += 1 }
                    if e < deviceEntries.count, let x = lastExit[tr.fence] { deviceEntries[e].previousExitTime = x }
                } else {
                    lastExit[tr.fence] = tr.time
                }
            }
            entries.append(deviceEntries)
        }
        return Truth(rowsByDevice: rows, entriesByDevice: entries, truthVectors: vectors, fences: fences,
                     positionByID: positionByID, index: index)
    }

    /// Runs `policy` over every device and scores it.
    public static func score(_ policy: Policy, truth: Truth, fixes: FixStream, settings: Settings) -> Score {
        var score = Score()
        var events: [OSRegionMonitor.Event] = []
        var delivered: [Int32: [(time: Double, inside: Bool, used: Bool)]] = [:]
        var near: [FenceNeighbor] = []
        var checked: [Int32: [(time: Double, inside: Bool)]] = [:]
        let isPlanner: Bool
        if case .planner = policy { isPlanner = true } else { isPlanner = false }
        for (slot, rows) in truth.rowsByDevice.enumerated() {
            guard let first = rows.first, let last = rows.last else { continue }
            score.deviceHours += (fixes.time[last] - fixes.time[first]) / 3600
            var os = OSRegionMonitor(configuration: settings.os,
                                     seed: settings.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: fixes.device[first]))
            var monitored: [MonitorPlanner.Region] = []
            delivered.removeAll(keepingCapacity: true)
            checked.removeAll(keepingCapacity: true)
            var planDue = true
            var lastPlanTime = -Double.infinity
            var lastPlanFix = -1
            var lastPlanLocation: LatLng? = nil
            var anchor = truth.truthVectors[first]
            var previousTruth = truth.truthVectors[first]
            let deviceEntries = truth.entriesByDevice[slot]
            var monitoredAtEntry = [Bool](repeating: false, count: deviceEntries.count)
            var nextEntry = 0
            var monitoredFences: Set<Int32> = []
            var planFixInside: Set<Int32> = []   // fences containing the fix of the last plan
            var wakeDue = false
            var lastSignal = -Double.infinity
            var previousRow = -1   // the fix before the current one, for the app's speed estimate
            var lastWakeFix = -1
            var wakeInside: [Int32] = [], lastWakeInside: Set<Int32> = []
            var app = WakeCheck(entryGate: settings.wakeCheckGate, exitGate: settings.wakeCheckExitGate)
            var fired: [Int32] = []
            var confirmations = 0   // extra fixes taken in a row to confirm an unsure entry
            var wakeLog: [(time: Double, fix: Int, inside: Set<Int32>)] = []   // every wake, for the miss causes

            func handle(_ events: [OSRegionMonitor.Event], truthAtDelivery: UnitVector) {
                if settings.checksAtEveryWake, !events.isEmpty { wakeDue = true }
                for e in events {
                    if case .fence(let id) = e.region, isPlanner, settings.replansOnFenceEvents {
                        let expected: OSRegionMonitor.Transition = planFixInside.contains(id) ? .enter : .exit
                        if !e.isInitialState || e.transition != expected { planDue = true }
                    }
                    switch (e.region, e.transition) {
                    case (.refresh, .exit): planDue = true
                    case (.fence(let id), .enter):
                        guard let pos = truth.positionByID[id] else { continue }
                        delivered[id, default: []].append((e.deliveredAt, truth.fences[pos].contains(truthAtDelivery), false))
                    default: break
                    }
                }
            }

            // One observation of the OS at time `tau` with the truth at `qTau`, `latest` the
            // newest fix at or before `tau`: deliver due events, then plan if due.
            func step(_ tau: Double, _ qTau: UnitVector, latest k: Int) {
                os.observe(truth: qTau, at: tau)
                os.deliver(before: tau.nextUp, into: &events)
                handle(events, truthAtDelivery: qTau)
                switch policy {
                case .planner(_, let significant):
                    if let significant, tau - lastSignal >= settings.significantChangeMinimumSeconds,
                       distance(anchor, qTau) >= significant {
                        if settings.significantChangeReplans { planDue = true } else { wakeDue = true }
                        anchor = qTau
                        lastSignal = tau
                    }
                case .nearestCentres(_, let every):
                    if let every, tau - lastPlanTime >= every { planDue = true }
                }
                // Woken, the app asks for a fresh location and plans when it arrives: at the
                // next fix (planning at a stale one would leave the truth outside the new
                // refresh region while the device moves).
                guard planDue || wakeDue, fixes.time[k] == tau, k != lastWakeFix else { return }
                let p = LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k])
                // Wake-time check with the noisy fix (see "Wake-time check").
                wakeDue = false
                lastWakeFix = k
                score.wakes += 1
                wakeInside.removeAll(keepingCapacity: true)
                truth.index.forEachContaining(p.unitVector) { id in wakeInside.append(id) }
                let unsure = app.check(p.unitVector, accuracyMeters: fixes.accuracy[k], inside: wakeInside,
                                       fence: { truth.fences[truth.positionByID[$0]!] }, fired: &fired)
                for id in fired {
                    let inside = truth.fences[truth.positionByID[id]!].contains(qTau)
                    checked[id, default: []].append((tau, inside))
                    score.wakeCheckFires += 1
                    if !inside { score.wakeCheckFalseFires += 1 }
                }
                lastWakeInside = Set(wakeInside)
                wakeLog.append((tau, k, lastWakeInside))
                // A fix inside a fence but too close to its edge for its accuracy: stay awake for
                // the next fix (at most `wakeCheckConfirmFixes` in a row).
                if unsure, confirmations < settings.wakeCheckConfirmFixes {
                    confirmations += 1
                    wakeDue = true
                } else {
                    confirmations = 0
                }
                guard planDue, k != lastPlanFix else { return }
                let target: [MonitorPlanner.Region]
                switch policy {
                case .planner(let planner, _):
                    // Inputs are validated workload values, so planning cannot throw.
                    // Speed and heading as the app knows them: between this fix and `previousRow`, capped at
                    // 70 m/s (faster than any road vehicle: a noise jump).
                    var speed = 0.0
                    var heading: Double? = nil
                    if previousRow >= 0, fixes.time[k] > fixes.time[previousRow] {
                        let a = LatLng(uncheckedLatitude: fixes.latitude[previousRow], longitude: fixes.longitude[previousRow])
                        speed = min(70, distance(a.unitVector, p.unitVector) / (fixes.time[k] - fixes.time[previousRow]))
                        if speed > 0 { heading = initialBearing(from: a, to: p) }
                    }
                    let plan = try! planner.plan(at: p, uncertaintyMeters: fixes.accuracy[k], speedMetersPerSecond: speed,
                                                 headingDegrees: heading,
                                                 currentlyMonitored: monitored,
                                                 previousLocation: lastPlanLocation)
                    lastPlanLocation = p
                    if plan.isGuaranteed { score.guaranteedPlans += 1 }
                    target = plan.regions
                case .nearestCentres(let count, _):
                    truth.index.nearest(to: p.unitVector, k: count, by: .centre, into: &near)
                    target = near.map { n in
                        let f = truth.fences[truth.positionByID[n.id]!]
                        return MonitorPlanner.Region(id: .fence(f.id), centre: f.centre,
                                                     radiusMeters: max(f.radiusMeters, settings.os.minimumRegionRadiusMeters))
                    }
                }
                let diff = RegionDiff(from: monitored, to: target)
                os.apply(diff, at: tau, truth: qTau)
                planFixInside = lastWakeInside
                if lastPlanTime > -Double.infinity {
                    score.replans += 1
                    score.regionsAdded += diff.add.count
                    score.regionsRemoved += diff.remove.count
                    score.fencesAdded += diff.add.filter { $0.id != .refresh }.count
                    score.fencesRemoved += diff.remove.filter { $0 != .refresh }.count
                }
                score.plans += 1
                monitored = target
                monitoredFences.removeAll(keepingCapacity: true)
                for r in target { if case .fence(let id) = r.id { monitoredFences.insert(id) } }
                lastPlanTime = tau
                lastPlanFix = k
                planDue = false
            }

            for (n, k) in rows.enumerated() {
                let t = fixes.time[k]
                let q = truth.truthVectors[k]
                if n > 0 {
                    // The OS watches continuously: observe the straight truth path between fixes.
                    let kPrev = rows[n - 1]
                    let tPrev = fixes.time[kPrev], qPrev = truth.truthVectors[kPrev]
                    var tau = tPrev + settings.observationSeconds
                    while tau < t {
                        let f = (tau - tPrev) / (t - tPrev)
                        step(tau, (qPrev * (1 - f) + q * f).normalized, latest: kPrev)
                        tau += settings.observationSeconds
                    }
                }
                while nextEntry < deviceEntries.count, deviceEntries[nextEntry].time <= t {
                    monitoredAtEntry[nextEntry] = monitoredFences.contains(deviceEntries[nextEntry].fence)
                    nextEntry += 1
                }
                // The app's speed and heading come from this fix and the latest earlier one
                // accurate enough (a coarse fix would make up a jump).
                previousRow = -1
                var back = n - 1
                while back >= 0, back >= n - 4 {
                    if fixes.accuracy[rows[back]] <= settings.motionFixMaximumAccuracyMeters { previousRow = rows[back]; break }
                    back -= 1
                }
                step(t, q, latest: k)
                previousTruth = q
            }
            os.deliver(before: .infinity, into: &events)
            handle(events, truthAtDelivery: previousTruth)
            score.rejectedRegistrations += os.rejectedRegistrations
            score.droppedEvents += os.droppedEvents
            score.skippedObservations += os.skippedObservations

            // Match entries to delivered enter events.
            for (n, entry) in deviceEntries.enumerated() {
                score.trueEntries += 1
                let deep = entry.maxDepthMeters >= settings.os.passDistanceMeters
                if !entry.optional {
                    score.requiredEntries += 1
                    if deep { score.deepRequiredEntries += 1 }
                }
                var list = delivered[entry.fence] ?? []
                let inWindow = { (t: Double) in t >= entry.previousFixTime && t <= entry.time + settings.windowSeconds }
                let appSaw = checked[entry.fence]?.contains { $0.inside && inWindow($0.time) } ?? false
                guard let m = list.firstIndex(where: { !$0.used && $0.inside && inWindow($0.time) }) else {
                    if appSaw && !entry.optional { score.caughtRequiredWithWakeUpCheck += 1 }
                    if !appSaw && !entry.optional {
                        let r = truth.fences[truth.positionByID[entry.fence]!].radiusMeters
                        let depth = entry.maxDepthMeters < 50 ? "depth<50" : entry.maxDepthMeters < 200 ? "depth50-200" : "depth>=200"
                        let stay = entry.exitTime - entry.time
                        let stayKey = stay < 120 ? "stay<120" : stay < 600 ? "stay120-600" : "stay>=600"
                        let away = entry.time - entry.previousExitTime
                        let awayKey = away < 60 ? "reentry-after<60" : away < 300 ? "reentry-after60-300" : away < 600 ? "reentry-after300-600"
                            : away.isFinite ? "reentry-after>=600" : "first-entry"
                        let f = truth.fences[truth.positionByID[entry.fence]!]
                        let cause = missCause(entry, fence: f, wakes: wakeLog, truth: truth, window: settings.windowSeconds)
                        for key in ["r\(Int(r.rounded()))", depth, stayKey, awayKey, cause] { score.systemMisses[key, default: 0] += 1 }
                    }
                    if !entry.optional {
                        if monitoredAtEntry[n] { score.missedWhileMonitored += 1 } else { score.missedUnmonitored += 1 }
                    }
                    continue
                }
                do {
                    list[m].used = true
                    delivered[entry.fence] = list
                    if entry.optional { score.caughtOptional += 1 } else {
                        score.caughtRequired += 1
                        score.caughtRequiredWithWakeUpCheck += 1
                        if deep { score.caughtDeepRequired += 1 }
                    }
                    score.latencies.append(list[m].time - entry.time)
                }
            }
            // Repeat fires: a fire with the truth inside, in a stay (of the truth in that fence)
            // that an earlier fire already announced.
            var entryTimes: [Int32: [Double]] = [:]
            for entry in deviceEntries { entryTimes[entry.fence, default: []].append(entry.time) }
            for (id, list) in checked {
                let times = entryTimes[id] ?? []
                var announced: Set<Int> = []
                for c in list where c.inside {
                    let stay = times.reduce(0) { n, t in t <= c.time ? n + 1 : n }
                    if !announced.insert(stay).inserted { score.wakeCheckRepeatFires += 1 }
                }
            }
            for (_, list) in delivered {
                score.enterEvents += list.count
                score.unmatchedEnterEvents += list.filter { !$0.used }.count
            }
        }
        score.latencies.sort()
        return score
    }
}

extension PlanScoring {
    /// The app's wake-time check (see "Wake-time check" in ``PlanScoring``): which fences it
    /// believes the device is in, updated from one noisy fix per wake.
    ///
    /// A fence the app does not believe it is in fires (and is believed from then on) when the
    /// fix is at least `entryGate × accuracy` inside it; a believed fence is dropped when the
    /// fix is at least `exitGate × accuracy` outside it. Gates are in units of the fix's
    /// reported accuracy (metres); 0 and 0 is the plain check: fire what the fix is inside and
    /// the previous fix was not.
    public struct WakeCheck: Sendable {
        public var entryGate: Double
        public var exitGate: Double
        /// Fence ids the app believes the device is in.
        public private(set) var believedInside: Set<Int32> = []

        public init(entryGate: Double, exitGate: Double) {
            self.entryGate = entryGate
            self.exitGate = exitGate
        }

        /// Evaluates the fix `p` (reported accuracy `accuracyMeters`), given the ids of every
        /// fence containing it (`inside`, any order) and a lookup of fences by id. Replaces
        /// `fired` with the fences that fire now, ascending. Returns true when a fence contains
        /// the fix but not by the entry gate and is not believed (an app would take another fix).
        public mutating func check(_ p: UnitVector, accuracyMeters: Double, inside: [Int32], fence: (Int32) -> Fence,
                                   fired: inout [Int32]) -> Bool {
            fired.removeAll(keepingCapacity: true)
            let gate = entryGate * accuracyMeters
            var unsure = false
            for id in inside where !believedInside.contains(id) {
                let f = fence(id)
                guard gate == 0 || distance(p, f.centreVector) <= f.radiusMeters - gate else {
                    unsure = true
                    continue
                }
                fired.append(id)
            }
            fired.sort()
            let exit = exitGate * accuracyMeters
            let insideSet = Set(inside)
            believedInside = believedInside.filter { id in
                if insideSet.contains(id) { return true }
                guard exit > 0 else { return false }
                let f = fence(id)
                return distance(p, f.centreVector) < f.radiusMeters + exit
            }
            believedInside.formUnion(fired)
            return unsure
        }
    }
}

extension PlanScoring {
    /// Why the wake-time check missed `entry` (a ``Score/systemMisses`` key): `"cause:no-wake"`
    /// (no wake in the window while the truth was inside), `"cause:fix-outside"` (woken while
    /// the truth was inside, but every such fix lay outside the fence), `"cause:known-inside"`
    /// (a fix inside, but the previous wake's fix was inside too, so nothing fired).
    static func missCause(_ entry: Entry, fence: Fence, wakes: [(time: Double, fix: Int, inside: Set<Int32>)],
                          truth: Truth, window: Double) -> String {
        var lo = 0, hi = wakes.count
        while lo < hi { let mid = (lo + hi) / 2; if wakes[mid].time < entry.previousFixTime { lo = mid + 1 } else { hi = mid } }
        var truthInside = false
        for n in lo..<wakes.count {
            let w = wakes[n]
            guard w.time <= entry.time + window else { break }
            guard fence.contains(truth.truthVectors[w.fix]) else { continue }
            truthInside = true
            if w.inside.contains(fence.id) {
                // Why the app thought it was inside already: the last wake before the entry.
                guard n > 0, wakes[n - 1].inside.contains(fence.id) else { return "cause:known-inside" }
                return fence.contains(truth.truthVectors[wakes[n - 1].fix]) ? "cause:known-inside:earlier-stay" : "cause:known-inside:noise"
            }
        }
        return truthInside ? "cause:fix-outside" : "cause:no-wake"
    }
}

extension PlanScoring {
    /// Planner candidates for workload fences: the workload's tiers are approach rings
    /// (1, 3 and 5 miles), so each fence gets the priority of an approach ring of its radius
    /// (``GeofenceKind/defaultPriority``: nearer rings rank higher).
    public static func candidates(from fences: [WorkloadFence]) -> [MonitorPlanner.Candidate] {
        fences.map { f in
            let miles = f.radius / 1609.344   // metres per international mile
            return MonitorPlanner.Candidate(id: f.id, latitude: f.latitude, longitude: f.longitude, radiusMeters: f.radius,
                                            priority: GeofenceKind.approach(miles: miles).defaultPriority)
        }
    }
}
