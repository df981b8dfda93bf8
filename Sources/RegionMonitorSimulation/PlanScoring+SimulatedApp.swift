import Geodesy
import Geofencing
import SpatialIndex
import Workloads

extension PlanScoring {
    /// One device's app under one policy, driven through the simulated OS (see "The simulated
    /// app" in ``PlanScoring``). ``run()`` walks the device's fixes in time order; each OS
    /// observation goes through four named steps:
    /// - ``observe(at:truth:)``: the OS looks at the true position, delivers the events that are
    ///   due and the significant-change signal or the replanning timer fires;
    /// - ``wake(fix:at:truth:)``: woken, the app takes its next (noisy) fix and runs the
    ///   wake-time check;
    /// - ``plan(fix:location:at:truth:)``: when a plan is due the policy chooses regions and
    ///   their diff goes to the OS;
    /// - ``match()``: after the last fix, true entries are matched to the delivered enter
    ///   events and the wake-time fires, and everything is added to the score.
    struct SimulatedApp {
        /// An enter event as the app received it.
        struct Delivery {
            var time: Double
            /// Whether the truth was inside the fence at delivery.
            var inside: Bool
            /// Whether an entry has been matched to it.
            var used: Bool
        }

        /// A wake-time fire: when, and whether the truth was inside the fence.
        struct Fire {
            var time: Double
            var inside: Bool
        }

        /// One wake: its time, its fix's row and the fences containing that fix.
        struct Wake {
            var time: Double
            var fix: Int
            var inside: Set<Int32>
        }

        let policy: Policy
        let settings: Settings
        let truth: Truth
        let fixes: FixStream
        /// The device's fix rows, in time order.
        let rows: [Int]
        /// The device's true entries, in time order.
        let entries: [Entry]
        let isPlanner: Bool
        /// The figures so far (this device's are added as it runs).
        var score: Score
        /// The first planning error (only from a policy's planner with inputs it rejects).
        var failure: MonitorPlanner.Error?

        // The OS and what it delivered.
        var os: OSRegionMonitor
        var events: [OSRegionMonitor.Event] = []
        var delivered: [Int32: [Delivery]] = [:]
        /// Where the significant-change signal last fired (the truth then), and when.
        var anchor: UnitVector
        var lastSignal = -Double.infinity

        // What the app has asked the OS to monitor.
        var monitored: [MonitorPlanner.Region] = []
        var monitoredFences: Set<Int32> = []
        /// Per entry: whether its fence was monitored when the truth crossed.
        var monitoredAtEntry: [Bool]
        var nextEntry = 0

        // When the app plans and wakes.
        var planDue = true
        var wakeDue = false
        var lastPlanTime = -Double.infinity
        var lastPlanFix = -1
        var lastPlanLocation: LatLng? = nil
        /// Fences containing the fix of the last plan.
        var planFixInside: Set<Int32> = []
        /// The fix before the current one that the app trusts for its speed estimate (-1: none).
        var previousRow = -1
        var lastWakeFix = -1
        var lastWakeInside: Set<Int32> = []
        /// Extra fixes taken in a row to confirm an unsure entry.
        var confirmations = 0

        // The wake-time check and its record.
        var wakeCheck: WakeCheck
        var wakeInside: [Int32] = []
        var fired: [Int32] = []
        var fires: [Int32: [Fire]] = [:]
        var wakeLog: [Wake] = []
        var near: [FenceNeighbor] = []
        /// Polygon fences whose circle the OS reported entered and not left since: the app
        /// checks the polygon at every fix until the circle is left.
        var insideCircles: Set<Int32> = []
        /// The app's detector for the polygon fences (nil without any): fed every woken fix,
        /// its entry events are the polygons' fires (``Settings/polygonDetection``).
        var polygonDetector: TransitionDetector?
        /// The polygon detector's events of the current fix.
        var detections: [TransitionEvent] = []

        /// The app of the device in `truth`'s slot `slot`, adding to `score`; `polygonDetector`
        /// is the detector its polygon fences start from (``PlanScoring/polygonDetector(truth:configuration:)``).
        init(
            slot: Int, policy: Policy, truth: Truth, fixes: FixStream, settings: Settings, polygonDetector: TransitionDetector?,
            score: Score
        ) {
            self.policy = policy
            self.settings = settings
            self.truth = truth
            self.fixes = fixes
            rows = truth.rowsByDevice[slot]
            entries = truth.entriesByDevice[slot]
            if case .planner = policy { isPlanner = true } else { isPlanner = false }
            self.score = score
            let first = rows.first ?? 0
            os = OSRegionMonitor(
                configuration: settings.os,
                seed: settings.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: fixes.device[first]))
            anchor = truth.truthVectors[first]
            monitoredAtEntry = [Bool](repeating: false, count: entries.count)
            wakeCheck = WakeCheck(entryGate: settings.wakeCheckGate, exitGate: settings.wakeCheckExitGate)
            self.polygonDetector = polygonDetector
        }

        /// Runs the device's fixes through the OS and the app, then scores its entries.
        mutating func run() {
            guard let first = rows.first, let last = rows.last else { return }
            score.deviceHours += (fixes.time[last] - fixes.time[first]) / 3600
            var previousTruth = truth.truthVectors[first]
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
                        step(at: tau, truth: (qPrev * (1 - f) + q * f).normalized, latest: kPrev)
                        tau += settings.observationSeconds
                    }
                }
                while nextEntry < entries.count, entries[nextEntry].time <= t {
                    monitoredAtEntry[nextEntry] = monitoredFences.contains(entries[nextEntry].fence)
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
                step(at: t, truth: q, latest: k)
                previousTruth = q
            }
            os.deliver(before: .infinity, into: &events)
            receiveEvents(truthAtDelivery: previousTruth)
            score.rejectedRegistrations += os.rejectedRegistrations
            score.droppedEvents += os.droppedEvents
            score.skippedObservations += os.skippedObservations
            match()
        }

        /// One observation at time `tau` with the truth at `q`; `k` is the newest fix at or
        /// before `tau`. Woken, the app asks for a fresh location and acts when it arrives: at
        /// the next fix (planning at a stale one would leave the truth outside the new refresh
        /// region while the device moves).
        mutating func step(at tau: Double, truth q: UnitVector, latest k: Int) {
            observe(at: tau, truth: q)
            guard planDue || wakeDue, fixes.time[k] == tau, k != lastWakeFix else { return }
            let p = LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k])
            wake(fix: k, at: tau, truth: q)
            guard planDue, k != lastPlanFix else { return }
            plan(fix: k, location: p, at: tau, truth: q)
        }

        /// The OS observes the truth `q` at `tau` and delivers what is due; the significant-change
        /// signal (planner) or the replanning timer (nearest centers) may make a wake or plan due.
        mutating func observe(at tau: Double, truth q: UnitVector) {
            os.observe(truth: q, at: tau)
            os.deliver(before: tau.nextUp, into: &events)
            receiveEvents(truthAtDelivery: q)
            switch policy {
            case .planner(_, let significant):
                if let significant, tau - lastSignal >= settings.significantChangeMinimumSeconds,
                    distance(anchor, q) >= significant
                {
                    if settings.significantChangeReplans { planDue = true } else { wakeDue = true }
                    score.osWakeUps += 1
                    anchor = q
                    lastSignal = tau
                }
            case .nearestCenters(_, let every):
                if let every, tau - lastPlanTime >= every, !planDue { planDue = true; score.osWakeUps += 1 }
            }
        }

        /// The app receives ``events``: any event wakes it (with ``Settings/checksAtEveryWake``),
        /// a refresh exit makes a plan due, and fence enters are recorded for matching.
        mutating func receiveEvents(truthAtDelivery q: UnitVector) {
            if !events.isEmpty { score.osWakeUps += 1 }
            if settings.checksAtEveryWake, !events.isEmpty { wakeDue = true }
            for e in events {
                if case .fence(let id) = e.region, isPlanner, settings.replansOnFenceEvents {
                    let expected: OSRegionMonitor.Transition = planFixInside.contains(id) ? .enter : .exit
                    if !e.isInitialState || e.transition != expected { planDue = true }
                }
                switch (e.region, e.transition) {
                case (.refresh, .exit): planDue = true
                case (.fence(let id), .enter) where truth.outlines.polygon(forID: id) != nil:
                    // The OS watches the polygon's circle: its enter is no polygon event, only a wake.
                    insideCircles.insert(id)
                case (.fence(let id), .exit): insideCircles.remove(id)
                case (.fence(let id), .enter):
                    guard let pos = truth.positionByID[id] else { continue }
                    delivered[id, default: []].append(Delivery(time: e.deliveredAt, inside: truth.fences[pos].contains(q), used: false))
                default: break
                }
            }
        }

        /// The wake-time check with fix `k` (the noisy position, never the truth) at `tau`; `q`
        /// is the truth, used only to score the fires.
        mutating func wake(fix k: Int, at tau: Double, truth q: UnitVector) {
            let truth = self.truth
            let p = LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k]).unitVector
            wakeDue = false
            lastWakeFix = k
            score.wakes += 1
            wakeInside.removeAll(keepingCapacity: true)
            truth.index.forEachContaining(p) { id in wakeInside.append(id) }
            var circles = wakeInside
            if !truth.outlines.isEmpty {
                wakeInside.removeAll { !truth.contains($0, p) }
                circles.removeAll { truth.outlines.polygon(forID: $0) != nil }
            }
            // Circle fences: the gated check of the fix. Polygon fences: the detector's decision
            // rules over every fix the app has woken for.
            let unsure = wakeCheck.check(
                p, accuracyMeters: fixes.accuracy[k], inside: circles,
                fence: { truth.fences[truth.positionByID[$0]!] }, fired: &fired)
            if polygonDetector != nil {
                detections.removeAll(keepingCapacity: true)
                polygonDetector?.process(
                    device: fixes.device[k], time: fixes.time[k], latitude: fixes.latitude[k], longitude: fixes.longitude[k],
                    accuracy: fixes.accuracy[k], into: &detections)
                for e in detections where e.kind == .enter { fired.append(e.fence) }
                fired.sort()
            }
            for id in fired {
                let inside = truth.contains(id, q)
                fires[id, default: []].append(Fire(time: tau, inside: inside))
                score.wakeCheckFires += 1
                if !inside { score.wakeCheckFalseFires += 1 }
            }
            lastWakeInside = Set(wakeInside)
            wakeLog.append(Wake(time: tau, fix: k, inside: lastWakeInside))
            // A fix inside a fence but too close to its edge for its accuracy: stay awake for
            // the next fix (at most `wakeCheckConfirmFixes` in a row).
            if unsure, confirmations < settings.wakeCheckConfirmFixes {
                confirmations += 1
                wakeDue = true
            } else {
                confirmations = 0
            }
            // Inside a polygon fence's circle: keep checking the polygon at every fix (entries,
            // exits and re-entries), as an SDK that tracks while inside the circle does.
            if !insideCircles.isEmpty { wakeDue = true }
        }

        /// The policy plans at fix `k` (location `p`) at `tau`; the diff goes to the OS against
        /// the truth `q`. A planner error (inputs it rejects) is kept in ``failure`` and the plan
        /// is skipped.
        mutating func plan(fix k: Int, location p: LatLng, at tau: Double, truth q: UnitVector) {
            let target: [MonitorPlanner.Region]
            switch policy {
            case .planner(let planner, _):
                // Speed and heading as the app knows them: between this fix and `previousRow`,
                // capped at 70 m/s (faster than any road vehicle: a noise jump).
                var speed = 0.0
                var heading: Double? = nil
                if previousRow >= 0, fixes.time[k] > fixes.time[previousRow] {
                    let a = LatLng(uncheckedLatitude: fixes.latitude[previousRow], longitude: fixes.longitude[previousRow])
                    speed = min(70, distance(a.unitVector, p.unitVector) / (fixes.time[k] - fixes.time[previousRow]))
                    if speed > 0 { heading = initialBearing(from: a, to: p) }
                }
                let plan: MonitorPlanner.Plan
                do {
                    plan = try planner.plan(
                        at: p, uncertaintyMeters: fixes.accuracy[k], speedMetersPerSecond: speed,
                        headingDegrees: heading, currentlyMonitored: monitored,
                        previousLocation: lastPlanLocation)
                } catch {
                    if failure == nil { failure = error }
                    planDue = false
                    return
                }
                lastPlanLocation = p
                if plan.isGuaranteed { score.guaranteedPlans += 1 }
                target = plan.regions
            case .nearestCenters(let count, _):
                truth.index.nearest(to: p.unitVector, k: count, by: .center, into: &near)
                target = near.map { n in
                    let f = truth.fences[truth.positionByID[n.id]!]
                    return MonitorPlanner.Region(
                        id: .fence(f.id), center: f.center,
                        radiusMeters: max(f.radiusMeters, settings.os.minimumRegionRadiusMeters))
                }
            }
            let diff = RegionDiff(from: monitored, to: target)
            os.apply(diff, at: tau, truth: q)
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

        /// Matches the device's true entries to the delivered enter events (each event catches
        /// at most one entry, entries in time order, to the earliest eligible event) and to the
        /// wake-time fires, and adds the outcome, the misses by key, repeat fires and event
        /// counts to the score.
        mutating func match() {
            for (n, entry) in entries.enumerated() {
                score.trueEntries += 1
                let deep = entry.maxDepthMeters >= settings.os.passDistanceMeters
                if !entry.optional {
                    score.requiredEntries += 1
                    if deep { score.deepRequiredEntries += 1 }
                }
                var list = delivered[entry.fence] ?? []
                let window = settings.windowSeconds
                let inWindow = { (t: Double) in t >= entry.previousFixTime && t <= entry.time + window }
                let appSaw = fires[entry.fence]?.contains { $0.inside && inWindow($0.time) } ?? false
                guard let m = list.firstIndex(where: { !$0.used && $0.inside && inWindow($0.time) }) else {
                    if appSaw && !entry.optional { score.caughtRequiredWithWakeUpCheck += 1 }
                    if !appSaw && !entry.optional { countMiss(entry) }
                    if !entry.optional {
                        if monitoredAtEntry[n] { score.missedWhileMonitored += 1 } else { score.missedUnmonitored += 1 }
                    }
                    continue
                }
                list[m].used = true
                delivered[entry.fence] = list
                if entry.optional {
                    score.caughtOptional += 1
                } else {
                    score.caughtRequired += 1
                    score.caughtRequiredWithWakeUpCheck += 1
                    if deep { score.caughtDeepRequired += 1 }
                }
                score.latencies.append(list[m].time - entry.time)
            }
            // Repeat fires: a fire with the truth inside, in a stay (of the truth in that fence)
            // that an earlier fire already announced.
            var entryTimes: [Int32: [Double]] = [:]
            for entry in entries { entryTimes[entry.fence, default: []].append(entry.time) }
            for (id, list) in fires {
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

        /// Counts a required entry the system missed under its five ``Score/systemMisses`` keys.
        mutating func countMiss(_ entry: Entry) {
            let f = truth.fences[truth.positionByID[entry.fence]!]
            let depth = entry.maxDepthMeters < 50 ? "depth<50" : entry.maxDepthMeters < 200 ? "depth50-200" : "depth>=200"
            let stay = entry.exitTime - entry.time
            let stayKey = stay < 120 ? "stay<120" : stay < 600 ? "stay120-600" : "stay>=600"
            let away = entry.time - entry.previousExitTime
            let awayKey =
                away < 60
                ? "reentry-after<60"
                : away < 300
                    ? "reentry-after60-300"
                    : away < 600
                        ? "reentry-after300-600"
                        : away.isFinite ? "reentry-after>=600" : "first-entry"
            let cause = missCause(entry, fence: f)
            let shape = truth.outlines.polygon(forID: f.id) == nil ? "r\(Int(f.radiusMeters.rounded()))" : "polygon"
            for key in [shape, depth, stayKey, awayKey, cause] {
                score.systemMisses[key, default: 0] += 1
            }
        }

        /// Why the wake-time check missed `entry` (a ``Score/systemMisses`` cause key):
        /// `"cause:no-wake"` (no wake in the window while the truth was inside),
        /// `"cause:fix-outside"` (woken while the truth was inside, but every such fix lay outside
        /// the fence), `"cause:known-inside"` (a fix inside, but the previous wake's fix was
        /// inside too, so nothing fired; `:earlier-stay` when the truth was inside then too,
        /// `:noise` when it was not). O(log wakes + wakes in the window).
        func missCause(_ entry: Entry, fence: Fence) -> String {
            let wakes = wakeLog
            var lo = 0, hi = wakes.count
            while lo < hi { let mid = (lo + hi) / 2; if wakes[mid].time < entry.previousFixTime { lo = mid + 1 } else { hi = mid } }
            var truthInside = false
            for n in lo..<wakes.count {
                let w = wakes[n]
                guard w.time <= entry.time + settings.windowSeconds else { break }
                guard truth.contains(fence.id, truth.truthVectors[w.fix]) else { continue }
                truthInside = true
                if w.inside.contains(fence.id) {
                    // Why the app thought it was inside already: the last wake before the entry.
                    guard n > 0, wakes[n - 1].inside.contains(fence.id) else { return "cause:known-inside" }
                    return truth.contains(fence.id, truth.truthVectors[wakes[n - 1].fix])
                        ? "cause:known-inside:earlier-stay" : "cause:known-inside:noise"
                }
            }
            return truthInside ? "cause:fix-outside" : "cause:no-wake"
        }

        /// Hands the score over, leaving this app's copy empty (so the caller's is not shared).
        mutating func takeScore() -> Score {
            var taken = Score()
            swap(&taken, &score)
            return taken
        }
    }
}
