import Reminders
import Workloads

/// Reads the benchmark's per-device reminder preferences,
/// `device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale`:
/// an IANA zone name, quiet hours as 24-hour `HH:mm` (both empty = no quiet hours; the window
/// may wrap midnight), the proximity-nudge daily cap (a whole number >= 0), the global spacing and the default
/// cooldown in seconds (finite, >= 0), and a locale identifier (`en_US`; empty = `en_US`).
/// These set the proximity policy (`ProximityNudgePolicy`); every other preference is `defaults`'.
///
/// The first bad row ends the read with `WorkloadIOError/badRow(path:line:column:message:)`
/// naming the file, the line and the column; a device listed twice is an error on its second row.
public enum NudgePreferencesReader {
    /// The preferences by device id.
    public static func read(path: String, defaults: ReminderPreferences = NudgeSimulation.benchmarkDefaults)
        throws(WorkloadIOError) -> [Int32: ReminderPreferences]
    {
        var out: [Int32: ReminderPreferences] = [:]
        let names = ["device", "time_zone", "quiet_start", "quiet_end", "daily_cap", "spacing_s", "cooldown_s", "locale"]
        try WorkloadReader.forEachRow(path: path, required: names, optional: []) { (row: inout RowParser) throws(WorkloadIOError) in
            let device = try row.identifier(0)
            guard out[device] == nil else { throw row.fail(0, "device \(device) is listed twice") }
            var p = defaults
            do {
                try p.setTimeZone(identifier: row.text(1))
            } catch {
                throw row.fail(1, "unknown IANA time zone '\(row.shown(1))'")
            }
            let start = row.text(2), end = row.text(3)
            if start.isEmpty != end.isEmpty {
                throw row.fail(start.isEmpty ? 2 : 3, "quiet_start and quiet_end must both be set or both be empty")
            }
            if start.isEmpty {
                p.proximity.quietHours = nil
            } else {
                do throws(ReminderError) {
                    p.proximity.quietHours = try QuietHours(from: start, to: end)
                } catch {
                    guard case let .invalidPreference(field, message) = error else { throw row.fail(2, "\(error)") }
                    throw row.fail(field == "quiet_end" ? 3 : 2, message)
                }
            }
            let cap = try row.int32(4)
            guard cap >= 0 else { throw row.fail(4, "expected a daily cap >= 0, found '\(row.shown(4))'") }
            p.proximity.dailyCap = Int(cap)
            p.proximity.minimumSpacingSeconds = try row.nonNegative(5)
            p.proximity.defaultCooldownSeconds = try row.nonNegative(6)
            let locale = row.text(7)
            p.localeIdentifier = locale.isEmpty ? "en_US" : locale
            out[device] = p
        }
        return out
    }
}
