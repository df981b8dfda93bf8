/// A Do-Not-Disturb / Focus period the OS reports, as absolute instants: `[start, end)` in Unix
/// seconds. A nudge due inside it is queued and released at `end` (see ``ReminderEngine``).
public struct DoNotDisturbWindow: Hashable, Sendable, Codable {
    /// First instant of the period, Unix seconds.
    public var start: Double
    /// First instant after the period, Unix seconds (`end > start`).
    public var end: Double

    /// A period from `start` to `end` (Unix seconds).
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` unless both are finite and
    ///   `start < end`.
    public init(start: Double, end: Double) throws(ReminderError) {
        guard start.isFinite, end.isFinite, start < end else {
            throw .invalidPreference(field: "do_not_disturb", message: "needs finite start < end, got \(start) and \(end)")
        }
        self.start = start
        self.end = end
    }
}
