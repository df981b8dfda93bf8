import Foundation
import Geofencing
import Testing
@testable import Reminders

/// The daily cap and quiet hours across DST, a time-zone change, a wrapping quiet window and a
/// clock that goes backwards. Bundle window 0, spacing and cooldown 0: only the cap and quiet
/// hours decide.
@Suite struct TimeZoneCapTests {
    static func engine(_ zone: String, cap: Int = 2, quiet: QuietHours? = nil) -> ReminderEngine {
        var p = World.preferences(zone: zone, quiet: quiet, cap: cap, spacing: 0, cooldown: 0)
        p.proximity.bundleWindowSeconds = 0
        return try! ReminderEngine(preferences: p)
    }

    /// Arrival at home (fence 4) at each instant, each in a trip of its own (the 2-mile ring,
    /// fence 3, left a second before); delivered or the reason.
    static func outcomes(_ e: inout ReminderEngine, _ instants: [Double]) -> [String] {
        let (book, _) = World.book()
        return instants.map { t in
            _ = e.run(exit(3, at: t - 1), book)
            let d = e.run(enter(4, at: t), book)
            return d.first.map { $0.isDelivered ? "deliver \($0.localDay)" : "\($0.reason!.rawValue)" } ?? "none"
        }
    }

    static func utc(_ iso: String) -> Double { ISO8601DateFormatter().date(from: iso)!.timeIntervalSince1970 }

    @Test func newYorkSpringForward() {
        var e = Self.engine("America/New_York")
        // 2026-03-08 is a 23-hour day (day 20520); 00:30 EST, 03:30 EDT, 23:30 EDT, then 00:10 EDT on the 9th.
        let r = Self.outcomes(
            &e,
            [
                Self.utc("2026-03-08T05:30:00Z"), Self.utc("2026-03-08T07:30:00Z"),
                Self.utc("2026-03-09T03:30:00Z"), Self.utc("2026-03-09T04:10:00Z")
            ])
        #expect(r == ["deliver 20520", "deliver 20520", "daily_cap", "deliver 20521"])
    }

    @Test func newYorkFallBack() {
        var e = Self.engine("America/New_York")
        // 2026-11-01 is a 25-hour day (day 20758): 01:30 EDT, 01:30 EST, 23:59 EST, then 00:01 on the 2nd.
        let r = Self.outcomes(
            &e,
            [
                Self.utc("2026-11-01T05:30:00Z"), Self.utc("2026-11-01T06:30:00Z"),
                Self.utc("2026-11-02T04:59:00Z"), Self.utc("2026-11-02T05:01:00Z")
            ])
        #expect(r == ["deliver 20758", "deliver 20758", "daily_cap", "deliver 20759"])
    }

    /// A flight from Tokyo to Los Angeles mid-day: the key is the local date at delivery, so the
    /// Monday that Los Angeles repeats has one nudge left (Tokyo's Monday used one) and the
    /// Tuesday already used both in Tokyo.
    @Test func flightTokyoToLosAngeles() throws {
        var e = Self.engine("Asia/Tokyo")
        let mondayTokyo = Self.utc("2026-01-05T11:00:00Z")  // Mon 20:00 JST
        let tuesdayTokyo = [Self.utc("2026-01-05T23:00:00Z"), Self.utc("2026-01-06T01:00:00Z")]  // Tue 08:00, 10:00 JST
        #expect(Self.outcomes(&e, [mondayTokyo] + tuesdayTokyo) == ["deliver 20458", "deliver 20459", "deliver 20459"])
        var p = e.preferences
        p.timeZone = World.zone("America/Los_Angeles")
        try e.updatePreferences(p)
        // Landed: Monday 17:00 PST (01:00Z Tue) and 18:00 PST, then Tuesday 09:00 PST.
        let r = Self.outcomes(
            &e,
            [
                Self.utc("2026-01-06T01:00:00Z") + 60, Self.utc("2026-01-06T02:00:00Z"),
                Self.utc("2026-01-06T17:00:00Z")
            ])
        #expect(r == ["deliver 20458", "daily_cap", "daily_cap"])
        #expect(e.ledger.count(onDay: 20_458) == 2)
        #expect(e.ledger.count(onDay: 20_459) == 2)
    }

    /// 22:00-07:00 wraps midnight: 21:59 and 07:00 are outside, 22:00, 03:00 and 06:59 inside.
    @Test func wrappingQuietHours() throws {
        var e = Self.engine("Asia/Tokyo", cap: 100, quiet: try QuietHours(from: "22:00", to: "07:00"))
        let base = Self.utc("2026-01-05T12:59:00Z")  // 21:59 JST
        let r = Self.outcomes(&e, [base, base + 60, base + 5 * 3_600 + 60, base + 9 * 3_600, base + 9 * 3_600 + 60])
        #expect(r == ["deliver 20458", "quiet_hours", "quiet_hours", "quiet_hours", "deliver 20459"])
        let q = try QuietHours(from: "7:30", to: "07:30")  // empty window
        #expect(!q.contains(minute: 450) && !q.contains(minute: 0))
        #expect(try QuietHours(from: "09:00", to: "17:00").contains(minute: 16 * 60 + 59))
        #expect(!(try QuietHours(from: "09:00", to: "17:00").contains(minute: 17 * 60)))
    }

    /// A clock set back a day reopens neither the cap nor the cooldown.
    @Test func backwardsClock() {
        var p = World.preferences(cap: 1, spacing: 0)
        p.proximity.bundleWindowSeconds = 0
        var e = try! ReminderEngine(preferences: p)
        let (book, _) = World.book()
        let t = World.epoch + 10 * 3_600
        #expect(e.run(enter(4, at: t), book).first?.isDelivered == true)
        // The phone's clock jumps back 30 hours: same ledger time, same day, same cooldown.
        _ = e.run(exit(3, at: t - 30 * 3_600 - 1), book, now: t - 30 * 3_600 - 1)  // a new trip
        let back = e.run(enter(4, at: t - 30 * 3_600), book, now: t - 30 * 3_600)
        #expect(back.first?.reason == .taskCooldown)
        #expect(back.first?.time == t)
    }
}
