import Foundation

/// Converts instants (Unix seconds: seconds since 1970-01-01T00:00:00Z) to a user's
/// ``LocalTime`` without a `Calendar` per call.
///
/// Representation: the `TimeZone`, the UTC offset in force (seconds) and the interval
/// `[validFrom, validUntil)` of instants over which that offset holds, ending at the zone's next
/// transition (`TimeZone.nextDaylightSavingTimeTransition(after:)`). A conversion inside the
/// interval is two multiplications; outside it (or after ``timeZone`` changes) the offset and
/// the interval are recomputed once, with `secondsFromGMT(for:)`.
///
/// - Complexity: O(1); Foundation is called only when an instant leaves the cached interval
///   (about twice a year per user in a zone with daylight saving time).
public struct LocalTimeConverter: Sendable {
    /// The zone conversions use. Setting it drops the cached offset.
    public var timeZone: TimeZone {
        didSet { validFrom = .infinity; validUntil = -.infinity }
    }
    /// UTC offset in force over `[validFrom, validUntil)`, seconds.
    @usableFromInline var offset: Double = 0
    @usableFromInline var validFrom = Double.infinity
    @usableFromInline var validUntil = -Double.infinity
    /// How many times the offset was recomputed (for tests and the benchmark).
    public private(set) var refreshes = 0

    /// Instants are read within `±horizon` seconds of 1970 (about 3.2 million years): a finite
    /// instant beyond (a delay of 1e300 s) reads as the bound, so its local day still fits a
    /// ``LocalTime`` and nothing traps.
    public static let horizon = 1e14

    /// `instant` brought within ``horizon``.
    @inlinable
    public static func clamped(_ instant: Double) -> Double { Swift.min(Swift.max(instant, -horizon), horizon) }

    /// A converter for `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The local day and minute at `instant` (Unix seconds, finite; see ``horizon``).
    @inlinable
    public mutating func localTime(at instant: Double) -> LocalTime {
        let instant = Self.clamped(instant)
        if !(instant >= validFrom && instant < validUntil) { refresh(at: instant) }
        let local = instant + offset
        let day = (local * (1.0 / 86_400)).rounded(.down)
        var minute = Int((local - day * 86_400) * (1.0 / 60))
        if minute > 1439 { minute = 1439 }  // rounding of the product at the day's last second
        return LocalTime(day: Int32(day), minute: Int16(minute))
    }

    /// The UTC offset in force at `instant`, seconds.
    public mutating func utcOffset(at instant: Double) -> Double {
        let instant = Self.clamped(instant)
        if !(instant >= validFrom && instant < validUntil) { refresh(at: instant) }
        return offset
    }

    /// The instant (Unix seconds) local day `day` shows minute `minute`. Where that local time
    /// occurs twice (a fall-back hour) it is the first of the two, as a daily notification fires
    /// (Foundation's `Calendar` matches the first of a repeated time); where it does not exist
    /// (skipped by a spring-forward) it is the instant of the jump.
    public mutating func instant(day: Int32, minute: Int) -> Double {
        if let first = instants(day: day, minute: minute).first { return first }
        let naive = Double(day) * 86_400 + Double(minute) * 60
        let first = naive - utcOffset(at: naive - utcOffset(at: naive))
        let second = naive - utcOffset(at: first)
        let from = Date(timeIntervalSince1970: Swift.min(first, second) - 1)
        return timeZone.nextDaylightSavingTimeTransition(after: from)?.timeIntervalSince1970 ?? first
    }

    /// Every instant (Unix seconds) at which local day `day` shows minute `minute`, earliest
    /// first: one on most days, two in a fall-back hour, none in a spring-forward gap.
    public mutating func instants(day: Int32, minute: Int) -> [Double] {
        let naive = Double(day) * 86_400 + Double(minute) * 60
        // Such an instant is `naive - offset` for an offset in force within 14 h of `naive` (no
        // zone is further from UTC): walk the cached intervals across that window.
        var out: [Double] = []
        var at = naive - 50_400
        while at < naive + 50_400 {
            let candidate = naive - utcOffset(at: at)
            let end = validUntil  // the next transition after `at` (matching moves the cache)
            if !out.contains(candidate), matches(candidate, day, minute) { out.append(candidate) }
            guard end > at, end.isFinite else { break }
            at = end
        }
        return out.sorted()
    }

    /// The first instant at or after `time` (Unix seconds) at which the local clock shows
    /// `minute`: today's (the first of a repeated one still ahead), else tomorrow's. A minute
    /// skipped by a spring-forward is the instant of the jump.
    public mutating func next(minute: Int, atOrAfter time: Double) -> Double {
        let today = localTime(at: time).day
        let todays = instants(day: today, minute: minute)
        if let at = (todays.isEmpty ? [instant(day: today, minute: minute)] : todays).first(where: { $0 >= time }) { return at }
        return instant(day: today + 1, minute: minute)
    }

    private mutating func matches(_ instant: Double, _ day: Int32, _ minute: Int) -> Bool {
        let t = localTime(at: instant)
        return t.day == day && Int(t.minute) == minute
    }

    /// The instant local day `day + 1` begins for the day that holds `instant`.
    public mutating func startOfNextDay(after instant: Double) -> Double {
        let day = localTime(at: instant).day
        return self.instant(day: day + 1, minute: 0)
    }

    @usableFromInline
    mutating func refresh(at instant: Double) {
        refreshes += 1
        let date = Date(timeIntervalSince1970: instant)
        let newOffset = Double(timeZone.secondsFromGMT(for: date))
        let next = timeZone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        if newOffset == offset, next == validUntil, instant < validFrom {
            validFrom = instant  // the same interval, known further back
        } else {
            offset = newOffset
            validFrom = instant
            validUntil = next
        }
    }
}
