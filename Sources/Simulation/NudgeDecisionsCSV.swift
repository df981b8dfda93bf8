import FastCSV
import Reminders

/// Writes a ``NudgeRun`` as the benchmark's decisions file,
/// `device,t,task,kind,decision,reason,channel,local_date`, one row per decision in time order
/// (ties by device, then as decided):
/// - `t`: seconds after the epoch when the user sees it (decision time + delay, the end of its
///   bundle window, or a Do-Not-Disturb release), or when it was due for a suppression or a
///   queueing; Swift's shortest round-trip decimal, so it reads back exactly;
/// - `task`: the task id, a bundle's ids joined by `+`, empty for an unbound fence;
/// - `kind`: `NudgeKind` (`offer|approach|arrival|post_arrival|bundle|check_in`);
/// - `decision`: `deliver|suppress|queue`; `reason`: the `SuppressionReason` raw value for a
///   suppression, `do_not_disturb` for a queueing, empty for a delivery;
/// - `channel`: `notification|in_app` for a delivery, empty otherwise;
/// - `local_date`: the device's `YYYY-MM-DD` at `t`.
public enum NudgeDecisionsCSV {
    /// The header line.
    public static let header = "device,t,task,kind,decision,reason,channel,local_date\n"

    /// Appends the header and every row of `run` to `out`.
    public static func append(_ run: NudgeRun, of simulation: NudgeSimulation, to out: inout [UInt8]) {
        out.append(contentsOf: Array(header.utf8))
        let order = run.decisions.indices.sorted {
            let a = run.decisions[$0], b = run.decisions[$1]
            return (a.time, run.devices[$0], $0) < (b.time, run.devices[$1], $1)
        }
        var dates: [Int32: [UInt8]] = [:]
        for k in order {
            let d = run.decisions[k]
            DecimalFormatting.append(Int64(run.devices[k]), to: &out)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: Array((d.time - simulation.epoch).description.utf8))
            out.append(UInt8(ascii: ","))
            let slots = d.isDelivered ? d.items.map(\.slot) : [d.item.slot]
            for (j, slot) in slots.enumerated() {
                if j > 0 { out.append(UInt8(ascii: "+")) }
                if let entry = simulation.book.entry(slot) { out.append(contentsOf: Array(entry.item.id.utf8)) }
            }
            let (decision, reason, channel): (String, String, String)
            switch d.outcome {
            case .deliver(let c): (decision, reason, channel) = ("deliver", "", c.rawValue)
            case .suppress(let r): (decision, reason, channel) = ("suppress", r.rawValue, "")
            case .queue: (decision, reason, channel) = ("queue", "do_not_disturb", "")
            }
            out.append(contentsOf: Array(",\(d.kind),\(decision),\(reason),\(channel),".utf8))
            if dates[d.localDay] == nil { dates[d.localDay] = Array(LocalTime.dateString(day: d.localDay).utf8) }
            out.append(contentsOf: dates[d.localDay]!)
            out.append(UInt8(ascii: "\n"))
        }
    }
}
