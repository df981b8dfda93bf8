import Foundation
import Geodesy
import Testing
@testable import Reminders

/// Time at the edges of the reminders layer: Do-Not-Disturb periods that touch or overlap, the
/// replay's instants printed to the millisecond, events received after the replay's end.
@Suite struct TimeEdgeTests {
    static let noon = World.epoch + 12 * 3_600

    /// A check-in whose time falls in a Do-Not-Disturb period moves to its end; when that end
    /// is inside another period (Sleep until 09:30 overlapping a Work focus from 09:00, or a
    /// Driving focus starting as Sleep ends), it waits for that one too: a check-in is never
    /// shown while Do-Not-Disturb is on.
    @Test(arguments: [
        (6.0, 9.5, 9.0, 11.0),  // overlapping: 06:00-09:30 and 09:00-11:00
        (6.0, 9.5, 9.5, 10.0)  // touching: 06:00-09:30 and 09:30-10:00
    ])
    func aCheckInWaitsForEveryDoNotDisturbPeriodItMeets(periods: (Double, Double, Double, Double)) throws {
        let day = World.epoch + 5 * 86_400  // the check-in's day, 00:00 UTC
        var p = ReminderPreferences()
        p.doNotDisturb = [
            try DoNotDisturbWindow(start: day + periods.0 * 3_600, end: day + periods.1 * 3_600),
            try DoNotDisturbWindow(start: day + periods.2 * 3_600, end: day + periods.3 * 3_600)
        ]
        var engine = try ReminderEngine(preferences: p)
        engine.markActive(at: Self.noon)
        let maybe = engine.checkIn(context: .background, now: Self.noon + 4 * 86_400)
        let decided = try #require(maybe)
        #expect(decided.isDelivered)
        #expect(decided.time == day + periods.3 * 3_600)
        #expect(!p.doNotDisturb.contains { $0.start <= decided.time && decided.time < $0.end })
    }
}

extension TimeEdgeTests {
    /// The replay prints instants to the millisecond: what it prints reads back within half a
    /// millisecond, in zones with 45-minute and +14 h offsets too, and a time a hair before a
    /// whole second prints as that second (not as the second before with `.000`).
    @Test(arguments: ["UTC", "America/New_York", "Asia/Kathmandu", "Pacific/Kiritimati", "Australia/Lord_Howe"])
    func printedInstantsReadBack(zone: String) throws {
        var converter = LocalTimeConverter(timeZone: try #require(TimeZone(identifier: zone)))
        var rng = SplitMix64(seed: 41)
        var instants: [Double] = [World.epoch - 0.0004, World.epoch + 59.9996, World.epoch + 86_399.9999, 951_782_399.9995, -0.0001]
        for _ in 0..<500 {
            let offset: Double = (rng.nextUnit() - 0.5) * 40 * 365 * 86_400
            instants.append(World.epoch + offset)
        }
        for t in instants {
            let text = ReminderReplay.isoString(t, converter: &converter)
            let back = try #require(ISO8601Instant.parse(text), "\(text)")
            #expect(abs(back - t) <= 0.0005, "\(t) printed as \(text)")
        }
        var utc = LocalTimeConverter(timeZone: TimeZone(identifier: "UTC")!)
        #expect(ReminderReplay.isoString(World.epoch - 0.0004, converter: &utc) == "2026-01-05T00:00:00Z")
        #expect(ReminderReplay.isoString(World.epoch + 0.25, converter: &utc) == "2026-01-05T00:00:00.250Z")
    }
}

extension TimeEdgeTests {
    /// ISO 8601 sets no limit on the digits of a fraction: a second's last instant written
    /// with 14 or more nines is still within the second (not refused as a 60th second), and
    /// digits past what a Double holds change nothing.
    @Test func longFractionsOfASecond() throws {
        let midnight = World.epoch + 86_400
        for nines in [3, 13, 14, 20, 40] {
            let text = "2026-01-05T23:59:59." + String(repeating: "9", count: nines) + "Z"
            let t = try #require(ISO8601Instant.parse(text), "\(text)")
            #expect(t < midnight + 1e-6 && t > midnight - 0.002, "\(text)")
        }
        #expect(ISO8601Instant.parse("2026-01-05T00:00:00.123Z") == World.epoch + 0.123)
        #expect(ISO8601Instant.parse("2026-01-05T00:00:00.1230000000000000000001Z") == World.epoch + 0.123)
        #expect(ISO8601Instant.parse("2026-01-05T05:45:00.5+05:45") == World.epoch + 0.5)
        #expect(ISO8601Instant.parse("2026-01-05T23:59:60Z") == nil)  // no leap seconds in Unix time
    }
}

extension TimeEdgeTests {
    /// A delay or a bundle window the scenario reader accepts (any finite number >= 0) puts a
    /// delivery instant far beyond any calendar: the replay must not trap converting it to a
    /// local date (it did: `Int` of a garbage minute), and such an offer or nudge is simply not
    /// shown before `until`.
    @Test(arguments: [
        #"{"product": "kwilt", "tasks": [{"id": "gym", "title": "Gym workout", "place": {"lat": 40.7, "lon": -74}, "offer": {"trigger": "leave", "delay_s": 1e300}}], "events": [{"at": "2026-01-05T07:30:00Z", "type": "exit", "task": "gym"}, {"at": "2026-01-05T08:30:00Z", "type": "exit", "task": "gym"}], "until": "2026-01-06T12:00:00Z"}"#,
        #"{"product": "near_me", "preferences": {"bundle_window_s": 1.7e308}, "tasks": [{"id": "milk", "title": "buy milk", "type": "poi", "place": {"lat": 40.75, "lon": -73.99}}], "events": [{"at": "2026-01-05T10:00:00Z", "type": "enter", "task": "milk", "fence": "approach_5mi"}], "until": "2026-01-05T11:00:00Z"}"#
    ])
    func farFutureDeliveriesDoNotTrap(json: String) throws {
        let output = try ReminderReplay.run(try ReminderScenario.parse(Data(json.utf8)))
        let until = ISO8601Instant.parse("2026-01-06T12:00:00Z")!
        #expect(!output.lines.contains { $0.decision == "deliver" && $0.at <= until })
        var utc = LocalTimeConverter(timeZone: TimeZone(identifier: "UTC")!)
        for line in output.lines { _ = ReminderReplay.isoString(line.at, converter: &utc) }
    }

    /// Every finite instant has a local time and prints, however far from now: the converter's
    /// doc asks only for a finite instant.
    @Test func everyFiniteInstantHasALocalTime() {
        var clock = LocalTimeConverter(timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        for t in [1e300, -1e300, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 1e15, -1e15] {
            let local = clock.localTime(at: t)
            #expect((0..<1440).contains(local.minute), "\(t)")
            #expect((t > 0) == (local.day > 0), "\(t)")
            #expect(!ReminderReplay.isoString(t, converter: &clock).isEmpty)
            _ = clock.startOfNextDay(after: t)
        }
    }
}

extension TimeEdgeTests {
    /// Before standard time a zone's offset is its local mean time, not a whole minute (New York
    /// -04:56:02 until 1883, Kathmandu +05:41:16 until 1920). An offset is printed in minutes,
    /// so the printed wall time must go with the printed offset: what is printed reads back as
    /// the same instant.
    @Test(arguments: ["America/New_York", "Asia/Kathmandu", "Europe/Amsterdam", "Africa/Monrovia"])
    func instantsInLocalMeanTimeReadBack(zone: String) throws {
        var converter = LocalTimeConverter(timeZone: try #require(TimeZone(identifier: zone)))
        for text in ["1850-06-01T12:00:00Z", "1900-01-01T00:00:00Z", "1919-03-15T08:30:00Z", "0001-01-01T00:00:00Z"] {
            let t = try #require(ISO8601Instant.parse(text))
            let printed = ReminderReplay.isoString(t, converter: &converter)
            #expect(ISO8601Instant.parse(printed) == t, "\(text) printed as \(printed)")
        }
    }
}
