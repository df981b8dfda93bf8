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

extension TimeEdgeTests {
    static func utc(_ text: String) -> Double { ISO8601Instant.parse(text)! }

    /// A local time in a fall-back hour occurs twice. Its first occurrence is the one a daily
    /// notification fires at (Foundation's `Calendar` matches the first of a repeated time), in
    /// zones east of UTC too: Berlin's 02:30 on 2026-10-25 is 00:30Z (CEST) before 01:30Z (CET).
    @Test func aRepeatedLocalTimeIsFirstItsEarlierOccurrence() throws {
        for (zone, minute, first, second) in [
            ("Europe/Berlin", 150, "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"),
            ("America/New_York", 75, "2026-11-01T05:15:00Z", "2026-11-01T06:15:00Z"),
            ("Australia/Lord_Howe", 105, "2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z")
        ] {
            var clock = LocalTimeConverter(timeZone: try #require(TimeZone(identifier: zone)))
            let day = clock.localTime(at: Self.utc(first)).day
            #expect(clock.localTime(at: Self.utc(second)).day == day)
            #expect(clock.instant(day: day, minute: minute) == Self.utc(first), "\(zone)")
            #expect(clock.instants(day: day, minute: minute) == [Self.utc(first), Self.utc(second)], "\(zone)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = clock.timeZone
            let oracle = calendar.nextDate(
                after: Date(timeIntervalSince1970: Self.utc(first) - 7_200),
                matching: DateComponents(hour: minute / 60, minute: minute % 60), matchingPolicy: .nextTime)
            #expect(oracle?.timeIntervalSince1970 == Self.utc(first), "\(zone)")
        }
        // One occurrence on an ordinary day, none in a skipped hour.
        var ny = LocalTimeConverter(timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(ny.instants(day: 20_458, minute: 540) == [Self.utc("2026-01-05T14:00:00Z")])
        #expect(ny.instants(day: 20_520, minute: 150).isEmpty)  // 2026-03-08 02:30
    }

    /// A daily reminder at Berlin's 02:30 fired at 00:30Z on the fall-back day: a reconcile at
    /// 00:45Z counts it.
    @Test func aDailyReminderInARepeatedHourFiresAtItsFirstOccurrence() throws {
        var ledger = NotificationLedger()
        var clock = LocalTimeConverter(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let user = PseudonymousID(accountID: "a", salt: "s")
        let request = NotificationRequest(
            id: "d", type: .dailyShowUp, content: NotificationContent(title: "t", body: "b", categoryIdentifier: "X"),
            trigger: .daily(minute: 150))
        _ = ledger.scheduled(request, now: Self.utc("2026-10-24T12:00:00Z"), userID: user)
        let fired = ledger.reconcile(pendingIDs: ["d"], now: Self.utc("2026-10-25T00:45:00Z"), converter: &clock, userID: user)
        #expect(fired.map { $0.properties["occurrence"] } == ["\(Self.utc("2026-10-25T00:30:00Z"))"])
    }

    /// The check-in is shown at the next configured local time at or after the check: at 01:30
    /// EDT on New York's fall-back night a 01:15 check-in is 45 minutes later (01:15 EST), not the
    /// next day; at 02:10 CEST in Berlin a 02:30 one is 20 minutes later (02:30 CEST).
    @Test(arguments: [
        ("America/New_York", 75, "2026-11-01T05:30:00Z", "2026-11-01T06:15:00Z"),
        ("Europe/Berlin", 150, "2026-10-25T00:10:00Z", "2026-10-25T00:30:00Z"),
        ("Europe/Berlin", 150, "2026-10-25T00:40:00Z", "2026-10-25T01:30:00Z"),
        ("Europe/Berlin", 150, "2026-10-25T01:40:00Z", "2026-10-26T01:30:00Z")
    ])
    func aCheckInInARepeatedHourIsAtTheNextOccurrence(zone: String, minute: Int, check: String, shown: String) throws {
        var p = ReminderPreferences()
        try p.setTimeZone(identifier: zone)
        p.checkIns.checkInMinute = minute
        var engine = try ReminderEngine(preferences: p)
        engine.markActive(at: Self.utc(check) - 5 * 86_400)
        let maybe = engine.checkIn(context: .background, now: Self.utc(check))
        let decided = try #require(maybe)
        #expect(decided.time == Self.utc(shown))
    }
}

extension TimeEdgeTests {
    /// `instants(day:minute:)` against a search of every minute around it, over every day of
    /// 2026, in zones with hour, half-hour, 45-minute and midnight transitions.
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham", "America/Havana", "America/Santiago"])
    func instantsMatchASearch(zone: String) throws {
        var clock = LocalTimeConverter(timeZone: try #require(TimeZone(identifier: zone)))
        var probe = LocalTimeConverter(timeZone: clock.timeZone)
        let first = clock.localTime(at: Self.utc("2026-01-01T12:00:00Z")).day
        for day in first..<(first + 365) {
            for minute in [0, 30, 90, 150, 1_439] {
                let naive = Double(day) * 86_400 + Double(minute) * 60
                let found = clock.instants(day: day, minute: minute)
                if probe.utcOffset(at: naive - 50_400) == probe.utcOffset(at: naive + 50_400) {
                    #expect(found == [naive - probe.utcOffset(at: naive)], "\(zone) day \(day) minute \(minute)")
                    continue
                }
                var search: [Double] = []
                var t = naive - 50_400
                while t <= naive + 50_400 {
                    let local = probe.localTime(at: t)
                    if local.day == day, Int(local.minute) == minute, (t - naive).truncatingRemainder(dividingBy: 60) == 0 {
                        if probe.localTime(at: t - 1).minute != local.minute || probe.localTime(at: t - 1).day != day { search.append(t) }
                    }
                    t += 60
                }
                #expect(found == search, "\(zone) day \(day) minute \(minute)")
            }
        }
    }
}
