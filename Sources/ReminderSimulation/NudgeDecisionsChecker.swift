import Foundation
import Reminders
import Workloads

/// Checks a decisions file (``NudgeDecisionsCSV``) against the promises, independently of the
/// engine: it reads the file back, computes each delivered row's local date and minute with
/// Foundation's `Calendar` in the device's zone (not the engine's cached converter), and counts
/// (as ``NudgeInvariants``) rows over the device's cap per local date, in its quiet hours,
/// within its spacing of the previous delivery, tasks within their cooldown or after their
/// completion, and `local_date` values that disagree with the calendar.
public enum NudgeDecisionsChecker {
    /// Everything the promises depend on: the epoch (Unix seconds of `t = 0`), each device's
    /// preferences (`perDevice`, else `defaults`) and the first completion of each
    /// (device, task id), Unix seconds.
    public struct Rules: Sendable {
        /// Unix seconds of `t = 0`.
        public var epoch: Double
        /// Preferences of devices not in `perDevice`.
        public var defaults: ReminderPreferences
        /// Preferences by device.
        public var perDevice: [Int32: ReminderPreferences]
        /// First completion by device and task id, Unix seconds.
        public var completions: [Int32: [String: Double]]

        /// Rules from their parts.
        public init(
            epoch: Double, defaults: ReminderPreferences, perDevice: [Int32: ReminderPreferences],
            completions: [Int32: [String: Double]]
        ) {
            self.epoch = epoch
            self.defaults = defaults
            self.perDevice = perDevice
            self.completions = completions
        }

        /// The rules of a simulation and its run.
        public init(_ simulation: NudgeSimulation, _ run: NudgeRun) {
            var done: [Int32: [String: Double]] = [:]
            for c in run.completions {
                guard let id = simulation.book.entry(c.slot)?.item.id else { continue }
                done[c.device, default: [:]][id] = min(done[c.device]?[id] ?? .infinity, c.time)
            }
            self.init(epoch: simulation.epoch, defaults: simulation.defaults, perDevice: simulation.perDevice, completions: done)
        }
    }

    struct Delivery {
        var t: Double
        var tasks: [String]
        var localDate: String
    }

    static let kinds: Set<String> = Set(ReminderKind.allCases.map(\.description))
    static let reasons: Set<String> = Set(SuppressionReason.allCases.map(\.rawValue))

    /// The broken promises in the file at `path`.
    /// - Throws: `WorkloadIOError` naming the file, line and column of a malformed row (an
    ///   unknown kind, decision, reason or channel, a delivery without a task).
    public static func check(path: String, rules: Rules) throws(WorkloadIOError) -> NudgeInvariants {
        var byDevice: [Int32: [Delivery]] = [:]
        let names = ["device", "t", "task", "kind", "decision", "reason", "channel", "local_date"]
        try WorkloadReader.forEachRow(path: path, required: names, optional: []) { (row: inout RowParser) throws(WorkloadIOError) in
            let device = try row.identifier(0)
            let t = try row.finite(1)
            guard kinds.contains(row.text(3)) else { throw row.fail(3, "unknown kind '\(row.text(3))'") }
            switch row.text(4) {
            case "deliver":
                guard ["notification", "in_app"].contains(row.text(6)) else { throw row.fail(6, "unknown channel '\(row.text(6))'") }
                let tasks = row.text(2).split(separator: "+").map(String.init)
                guard !tasks.isEmpty else { throw row.fail(2, "a delivery names no task") }
                byDevice[device, default: []].append(Delivery(t: t, tasks: tasks, localDate: row.text(7)))
            case "suppress":
                guard reasons.contains(row.text(5)) else { throw row.fail(5, "unknown reason '\(row.text(5))'") }
            case "queue":
                guard row.text(5) == "do_not_disturb" else { throw row.fail(5, "a queueing's reason is do_not_disturb") }
            default:
                throw row.fail(4, "expected deliver, suppress or queue, found '\(row.shown(4))'")
            }
        }
        var found = NudgeInvariants()
        for (device, list) in byDevice {
            let p = rules.perDevice[device] ?? rules.defaults
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = p.timeZone
            var perDate: [String: Int] = [:]
            var previous: Double?
            var lastOfTask: [String: Double] = [:]
            for d in list.sorted(by: { $0.t < $1.t }) {
                let instant = rules.epoch + d.t
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: instant))
                let date = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
                if date != d.localDate { found.wrongLocalDate += 1 }
                perDate[date, default: 0] += 1
                if perDate[date]! > (p.proximity.dailyCap ?? Int.max) { found.overCap += 1 }
                if let q = p.proximity.quietHours {
                    let m = c.hour! * 60 + c.minute!, start = Int(q.start), end = Int(q.end)
                    if start <= end ? (m >= start && m < end) : (m >= start || m < end) { found.inQuietHours += 1 }
                }
                if let prev = previous, d.t - prev < p.proximity.minimumSpacingSeconds { found.withinSpacing += 1 }
                previous = d.t
                for task in d.tasks {
                    if let last = lastOfTask[task], d.t - last < p.proximity.defaultCooldownSeconds { found.withinCooldown += 1 }
                    lastOfTask[task] = d.t
                    if let done = rules.completions[device]?[task], instant > done { found.afterCompletion += 1 }
                }
            }
        }
        return found
    }
}
