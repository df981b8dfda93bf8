import Foundation
import Geodesy
import Testing
@testable import Reminders

@Suite struct LocalTimeConverterTests {
    /// Arithmetic local time equals Foundation's Calendar for random instants in several zones,
    /// including both New York transitions of 2026 and Lord Howe's half-hour DST.
    @Test(arguments: ["America/New_York", "Asia/Tokyo", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func matchesCalendar(zone: String) {
        var rng = SplitMix64(seed: 20260105)
        var clock = LocalTimeConverter(timeZone: World.zone(zone))
        for k in 0..<3_000 {
            // Mostly forward in time with jumps back, over two years.
            let t = World.epoch + (k % 7 == 0 ? -1 : 1) * rng.nextUnit() * 2 * 365 * 86_400
            let local = clock.localTime(at: t)
            let oracle = World.calendarLocal(t, World.zone(zone))
            #expect(local.dateString == oracle.date, "seed 20260105, k \(k), t \(t)")
            #expect(Int(local.minute) == oracle.minute, "seed 20260105, k \(k), t \(t)")
        }
    }

    /// New York 2026: spring forward 2026-03-08 07:00Z (02:00 EST -> 03:00 EDT), fall back
    /// 2026-11-01 06:00Z (02:00 EDT -> 01:00 EST) (tzdata; `zdump -v America/New_York`).
    @Test func newYorkTransitions() {
        var clock = LocalTimeConverter(timeZone: World.zone("America/New_York"))
        let spring = 1_772_953_200.0  // 2026-03-08T07:00:00Z
        #expect(clock.localTime(at: spring - 1).minute == 119)  // 01:59 EST
        #expect(clock.localTime(at: spring).minute == 180)  // 03:00 EDT
        let fall = 1_793_512_800.0  // 2026-11-01T06:00:00Z
        #expect(clock.localTime(at: fall - 1).minute == 119)  // 01:59 EDT
        #expect(clock.localTime(at: fall).minute == 60)  // 01:00 EST again
        #expect(clock.localTime(at: fall).day == clock.localTime(at: fall - 1).day)
        // Day 2026-03-08 is 23 hours long, 2026-11-01 is 25.
        let march8 = LocalTime(day: 20_520, minute: 0)
        #expect(LocalTime.dateString(day: march8.day) == "2026-03-08")
        #expect(clock.instant(day: 20_521, minute: 0) - clock.instant(day: 20_520, minute: 0) == 23 * 3_600)
        #expect(clock.instant(day: 20_759, minute: 0) - clock.instant(day: 20_758, minute: 0) == 25 * 3_600)
        // 02:30 does not exist on 2026-03-08: the instant of the jump.
        #expect(clock.instant(day: 20_520, minute: 150) == spring)
    }

    @Test func cacheRefreshesOnlyAtTransitions() {
        var clock = LocalTimeConverter(timeZone: World.zone("America/New_York"))
        for k in 0..<100_000 { _ = clock.localTime(at: World.epoch + Double(k) * 600) }  // ~694 days
        #expect(clock.refreshes <= 6)  // one per DST interval crossed (four transitions) + the first
        clock.timeZone = World.zone("Asia/Tokyo")
        _ = clock.localTime(at: World.epoch)
        #expect(clock.localTime(at: World.epoch).minute == 9 * 60)  // Tokyo is UTC+9, no DST
    }

    @Test func dateStrings() {
        #expect(LocalTime.dateString(day: 0) == "1970-01-01")
        #expect(LocalTime.dateString(day: -1) == "1969-12-31")
        #expect(LocalTime.dateString(day: 20_458) == "2026-01-05")
        #expect(LocalTime.dateString(day: 11_016) == "2000-02-29")
    }
}
