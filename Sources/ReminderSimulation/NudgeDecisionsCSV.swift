import FastCSV
import Reminders

/// Writes a ``NudgeRun`` as the benchmark's decisions file,
/// `device,t,task,kind,decision,reason,channel,local_date`, one row per decision in time order
/// (ties by device, then as decided):
/// - `t`: seconds after the epoch when the user sees it (decision time + delay, the end of its
///   bundle window, or a Do-Not-Disturb release), or when it was due for a suppression or a
///   queueing; Swift's shortest round-trip decimal, so it reads back exactly;
/// - `task`: the task id, a bundle's ids joined by `+`, empty for an unbound fence;
/// - `kind`: `ReminderKind` (`offer|approach|arrival|post_arrival|bundle|check_in`);
/// - `decision`: `deliver|suppress|queue`; `reason`: the `SuppressionReason` raw value for a
///   suppression, `do_not_disturb` for a queueing, empty for a delivery;
/// - `channel`: `notification|in_app` for a delivery, empty otherwise;
/// - `local_date`: the device's `YYYY-MM-DD` at `t`.
public enum NudgeDecisionsCSV {
    /// The header fields.
    public static let header = ["device", "t", "task", "kind", "decision", "reason", "channel", "local_date"]

    /// Writes the header and every row of `run` to `out` (fields quoted as `CSVWriter`
    /// quotes them, so a task id with a comma or a quote reads back whole).
    public static func write(_ run: NudgeRun, of simulation: NudgeSimulation, to out: CSVWriter) {
        out.writeRecord(header)
        let order = run.decisions.indices.sorted {
            let a = run.decisions[$0], b = run.decisions[$1]
            return (a.time, run.devices[$0], $0) < (b.time, run.devices[$1], $1)
        }
        var dates: [Int32: String] = [:]
        for k in order {
            let d = run.decisions[k]
            out.writeField(Int64(run.devices[k]))
            out.writeField(d.time - simulation.epoch)
            let slots = d.isDelivered ? d.items.map(\.slot) : [d.item.slot]
            out.writeField(slots.map { simulation.book.entry($0)?.item.id ?? "" }.joined(separator: "+"))
            let (decision, reason, channel): (String, String, String)
            switch d.outcome {
            case .deliver(let c): (decision, reason, channel) = ("deliver", "", c.rawValue)
            case .suppress(let r): (decision, reason, channel) = ("suppress", r.rawValue, "")
            case .queue: (decision, reason, channel) = ("queue", "do_not_disturb", "")
            }
            out.writeField("\(d.kind)")
            out.writeField(decision)
            out.writeField(reason)
            out.writeField(channel)
            if dates[d.localDay] == nil { dates[d.localDay] = LocalTime.dateString(day: d.localDay) }
            out.writeField(dates[d.localDay]!)
            out.endRecord()
        }
    }
}
