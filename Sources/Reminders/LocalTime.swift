/// A user's local time: the local calendar day and the minute of that day.
///
/// `day` counts local days since 1970-01-01 (day 0; negative before), `minute` is in
/// `0..<1440`. Both come from arithmetic on the UTC offset in force, never from a `Calendar`.
public struct LocalTime: Hashable, Sendable {
    /// Local days since 1970-01-01.
    public var day: Int32
    /// Minutes since local midnight, in `0..<1440`.
    public var minute: Int16

    /// A local time; `minute` in `0..<1440`.
    @inlinable
    public init(day: Int32, minute: Int16) {
        self.day = day
        self.minute = minute
    }

    /// The local date as `YYYY-MM-DD` (proleptic Gregorian).
    public var dateString: String { LocalTime.dateString(day: day) }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01), by the civil-from-days algorithm
    /// (H. Hinnant, "chrono-compatible low-level date algorithms").
    public static func dateString(day: Int32) -> String {
        let (y, m, d) = civil(day: Int(day))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(abs(y))
        while year.count < 4 { year = "0" + year }
        return (y < 0 ? "-" : "") + year + "-" + two(m) + "-" + two(d)
    }

    /// Year, month (1-12) and day (1-31) of a day number.
    public static func civil(day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
