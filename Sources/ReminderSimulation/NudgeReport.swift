import DetectorScoring
import Geofencing
import Reminders
import Workloads

/// The figures of a ``NudgeRun``: decisions by outcome and reason, nudges per device-day,
/// precision against the truth, and the invariants counted from the decisions in memory (the
/// benchmark's own count; ``NudgeDecisionsChecker`` counts them again from the CSV).
public struct NudgeReport: Sendable {
    /// Decisions made (deliveries + suppressions + queueings).
    public var decisions = 0
    /// Delivered notifications (a bundle is one) and the task nudges in them.
    public var delivered = 0
    /// Task nudges inside delivered notifications (a bundle of 3 counts 3).
    public var deliveredItems = 0
    /// Delivered bundles.
    public var bundles = 0
    /// Do-Not-Disturb queueings.
    public var queued = 0
    /// Suppressions by `SuppressionReason` raw value.
    public var suppressedByReason: [String: Int] = [:]
    /// Sum over devices of (last fix time - first fix time) / 86,400.
    public var deviceDays = 0.0
    /// Delivered task nudges whose triggering enter matches a true enter of the same device and
    /// fence (detection at most 120 s before or 600 s after it, as `TransitionScoring`);
    /// nil without truth.
    public var truePositiveItems: Int?
    /// The benchmark's own count of broken promises.
    public var invariants = NudgeInvariants()

    /// Delivered notifications per device-day.
    public var nudgesPerDeviceDay: Double { deviceDays > 0 ? Double(delivered) / deviceDays : 0 }
    /// `truePositiveItems / deliveredItems`.
    public var precision: Double? { truePositiveItems.map { deliveredItems > 0 ? Double($0) / Double(deliveredItems) : 1 } }

    /// Scores `run` of `simulation` over `fixes`; `truth` (from
    /// `TransitionScoring/trueTransitions(_:index:)`) enables precision.
    public init(run: NudgeRun, simulation: NudgeSimulation, fixes: FixStream, truth: [TrueTransition]? = nil) {
        decisions = run.decisions.count
        var span: [Int32: (Double, Double)] = [:]
        for k in 0..<fixes.count {
            let d = fixes.device[k], t = fixes.time[k]
            if let s = span[d] { span[d] = (min(s.0, t), max(s.1, t)) } else { span[d] = (t, t) }
        }
        deviceDays = span.values.reduce(0) { $0 + ($1.1 - $1.0) / 86_400 }
        var trueEnters: [Int64: [Double]] = [:]
        if let truth {
            for t in truth where t.event.kind == .enter {
                trueEnters[Int64(t.event.device) << 32 | Int64(UInt32(bitPattern: t.event.fence)), default: []].append(t.event.time)
            }
            truePositiveItems = 0
        }
        var byDevice: [Int32: [ReminderDecision]] = [:]
        for (device, d) in zip(run.devices, run.decisions) {
            switch d.outcome {
            case .suppress(let r): suppressedByReason[r.rawValue, default: 0] += 1
            case .queue: queued += 1
            case .deliver:
                delivered += 1
                deliveredItems += d.items.count
                if d.kind == .bundle { bundles += 1 }
                byDevice[device, default: []].append(d)
                if truth != nil {
                    for item in d.items {
                        let detected = item.eventTime - simulation.epoch
                        let times = trueEnters[Int64(device) << 32 | Int64(UInt32(bitPattern: item.fence))] ?? []
                        if times.contains(where: { $0 >= detected - TransitionScoring.lateSeconds && $0 <= detected + TransitionScoring.earlySeconds }
                        ) {
                            truePositiveItems! += 1
                        }
                    }
                }
            }
        }
        var completed: [Int64: Double] = [:]
        for c in run.completions {
            let key = Int64(c.device) << 32 | Int64(UInt32(bitPattern: c.slot))
            completed[key] = min(completed[key] ?? .infinity, c.time)
        }
        for (device, list) in byDevice {
            let p = simulation.preferences(of: device)
            var clock = LocalTimeConverter(timeZone: p.timeZone)
            var perDay: [Int32: Int] = [:]
            var previous: Double?
            var lastOfSlot: [Int32: Double] = [:]
            for d in list.sorted(by: { $0.time < $1.time }) {
                let local = clock.localTime(at: d.time)
                perDay[local.day, default: 0] += 1
                if perDay[local.day]! > (p.proximity.dailyCap ?? Int.max) { invariants.overCap += 1 }
                if let q = p.proximity.quietHours, q.contains(minute: local.minute) { invariants.inQuietHours += 1 }
                if let prev = previous, d.time - prev < p.proximity.minimumSpacingSeconds { invariants.withinSpacing += 1 }
                previous = d.time
                for item in d.items {
                    if let last = lastOfSlot[item.slot], d.time - last < p.proximity.defaultCooldownSeconds { invariants.withinCooldown += 1 }
                    lastOfSlot[item.slot] = d.time
                    if let done = completed[Int64(device) << 32 | Int64(UInt32(bitPattern: item.slot))], d.time > done {
                        invariants.afterCompletion += 1
                    }
                }
            }
        }
    }
}
