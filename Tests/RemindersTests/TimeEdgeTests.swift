import Foundation
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
