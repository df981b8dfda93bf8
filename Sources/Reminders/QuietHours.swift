/// A daily window of local time in which no nudge is shown, as minutes of the local day.
///
/// `start` and `end` are minutes since local midnight in `0..<1440`. The window is
/// `[start, end)`; when `start > end` it wraps midnight (22:00-07:00 holds 23:30 and 06:59, not
/// 07:00); `start == end` is an empty window (no quiet hours).
public struct QuietHours: Hashable, Sendable, Codable {
    /// First quiet minute of the local day, in `0..<1440`.
    public let start: Int16
    /// First minute after the window, in `0..<1440`.
    public let end: Int16

    /// A window from `start` to `end` (minutes since local midnight).
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` for a minute outside `0..<1440`.
    public init(start: Int, end: Int) throws(ReminderError) {
        guard (0..<1440).contains(start), (0..<1440).contains(end) else {
            throw .invalidPreference(field: "quiet_hours", message: "minutes must be in 0..<1440, got \(start) and \(end)")
        }
        self.start = Int16(start)
        self.end = Int16(end)
    }

    /// A window from two `HH:mm` texts, e.g. `QuietHours(from: "22:00", to: "07:00")`.
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` naming `quiet_start` or
    ///   `quiet_end` for text that is not a 24-hour `HH:mm`.
    public init(from start: String, to end: String) throws(ReminderError) {
        try self.init(
            start: try QuietHours.minute(parsing: start, field: "quiet_start"),
            end: try QuietHours.minute(parsing: end, field: "quiet_end"))
    }

    /// Whether minute `minute` of the local day is quiet.
    @inlinable
    public func contains(minute: Int16) -> Bool {
        start <= end ? (minute >= start && minute < end) : (minute >= start || minute < end)
    }

    /// Minutes since midnight of a 24-hour `HH:mm` (`H:mm` accepted; `24:00` is not).
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` naming `field`.
    public static func minute(parsing text: String, field: String) throws(ReminderError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else {
            let shown = text.count > 40 ? text.prefix(40) + "..." : text  // a message quotes at most 40 characters
            throw .invalidPreference(field: field, message: "expected a 24-hour time HH:mm, found '\(shown)'")
        }
        return h * 60 + m
    }

    /// `HH:mm-HH:mm`.
    public var description: String {
        func hm(_ v: Int16) -> String { let h = Int(v) / 60, m = Int(v) % 60; return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)" }
        return hm(start) + "-" + hm(end)
    }
}
