import Foundation
import Testing
@testable import Reminders

@Suite struct NotificationLedgerTests {
    static let user = PseudonymousID(accountID: "account-42", salt: "salt")
    static let noon = World.epoch + 12 * 3_600

    static func request(_ id: String, _ trigger: NotificationTrigger, _ type: NotificationType = .activityReminder) -> NotificationRequest {
        NotificationRequest(
            id: id, type: type, content: NotificationContent(title: "t", body: "b", categoryIdentifier: "ACTIVITY_REMINDER"),
            trigger: trigger)
    }

    @Test func oneShotFiresOnceWhenNoLongerPending() {
        var ledger = NotificationLedger()
        var clock = LocalTimeConverter(timeZone: World.zone("UTC"))
        #expect(ledger.scheduled(Self.request("a", .at(Self.noon + 600)), now: Self.noon, userID: Self.user).name == "notification_scheduled")
        // Not yet due; then due but still pending (the OS has not shown it).
        #expect(ledger.reconcile(pendingIDs: ["a"], now: Self.noon + 60, converter: &clock, userID: Self.user).isEmpty)
        #expect(ledger.reconcile(pendingIDs: ["a"], now: Self.noon + 700, converter: &clock, userID: Self.user).isEmpty)
        let fired = ledger.reconcile(pendingIDs: [], now: Self.noon + 800, converter: &clock, userID: Self.user)
        #expect(fired.map(\.name) == ["notification_fired_estimated"])
        #expect(fired[0].properties["notification_type"] == "activityReminder")
        #expect(ledger.reconcile(pendingIDs: [], now: Self.noon + 900, converter: &clock, userID: Self.user).isEmpty)  // idempotent
        // Cancelled before its time: never fired.
        _ = ledger.scheduled(Self.request("b", .at(Self.noon + 2_000)), now: Self.noon, userID: Self.user)
        #expect(ledger.cancelled(id: "b", now: Self.noon + 1_000, userID: Self.user)?.name == "notification_cancelled")
        #expect(ledger.cancelled(id: "b", now: Self.noon + 1_001, userID: Self.user) == nil)
        #expect(ledger.reconcile(pendingIDs: [], now: Self.noon + 5_000, converter: &clock, userID: Self.user).isEmpty)
        // Received in the foreground: it fired, reconcile does not count it again.
        _ = ledger.scheduled(Self.request("c", .at(Self.noon + 3_000)), now: Self.noon, userID: Self.user)
        #expect(ledger.received(id: "c", now: Self.noon + 3_000, converter: &clock, userID: Self.user)?.name == "notification_received")
        #expect(ledger.reconcile(pendingIDs: [], now: Self.noon + 5_000, converter: &clock, userID: Self.user).isEmpty)
        #expect(ledger.entries["c"]?.firedCount == 1)
    }

    /// A daily 08:00 reminder in New York, scheduled on 2026-03-06 at noon, reconciled across
    /// the spring-forward night: one firing per local day after 08:00 local.
    @Test func dailyFiresOncePerLocalDay() throws {
        var ledger = NotificationLedger()
        var clock = LocalTimeConverter(timeZone: World.zone("America/New_York"))
        let scheduledAt = TimeZoneCapTests.utc("2026-03-06T17:00:00Z")  // 12:00 EST on the 6th
        _ = ledger.scheduled(Self.request("d", .daily(minute: 8 * 60), .dailyShowUp), now: scheduledAt, userID: Self.user)
        // 2026-03-09 09:00 EDT (13:00Z): the 7th, 8th and 9th fired (not the 6th: scheduled after 08:00).
        let now = TimeZoneCapTests.utc("2026-03-09T13:00:00Z")
        let fired = ledger.reconcile(pendingIDs: ["d"], now: now, converter: &clock, userID: Self.user)
        #expect(
            fired.map { $0.properties["occurrence"] } == [
                "\(TimeZoneCapTests.utc("2026-03-07T13:00:00Z"))",  // 08:00 EST
                "\(TimeZoneCapTests.utc("2026-03-08T12:00:00Z"))",  // 08:00 EDT, the short day
                "\(TimeZoneCapTests.utc("2026-03-09T12:00:00Z"))"
            ])
        #expect(ledger.reconcile(pendingIDs: ["d"], now: now + 60, converter: &clock, userID: Self.user).isEmpty)
        // Opened on the 10th at 08:05: counted, so the reconcile after it adds nothing for the 10th.
        let tenth = TimeZoneCapTests.utc("2026-03-10T12:05:00Z")
        _ = ledger.opened(id: "d", now: tenth, converter: &clock, userID: Self.user, action: "START_WORKOUT")
        #expect(ledger.reconcile(pendingIDs: ["d"], now: tenth + 60, converter: &clock, userID: Self.user).isEmpty)
        // Cancelled on the 11th at 07:00 local: the 11th never fired.
        _ = ledger.cancelled(id: "d", now: TimeZoneCapTests.utc("2026-03-11T11:00:00Z"), userID: Self.user)
        #expect(ledger.reconcile(pendingIDs: [], now: TimeZoneCapTests.utc("2026-03-15T00:00:00Z"), converter: &clock, userID: Self.user).isEmpty)
        #expect(ledger.entries["d"]?.firedCount == 4)
    }

    @Test func analyticsOptOutAndPseudonyms() {
        // FNV-1a 64 of b"salt\x00account-42", by a Python one-liner:
        // h = 14695981039346656037; for b in data: h = ((h ^ b) * 1099511628211) % 2**64
        #expect(Self.user.value == "u_c72e5138812ae7a7")
        #expect(Self.user != PseudonymousID(accountID: "account-42", salt: "pepper"))
        #expect(!Self.user.value.contains("42"))
        let (book, _) = World.book()
        var log = AnalyticsLog(optOut: true)
        let shown = ReminderDecision(
            time: 0, kind: .offer, outcome: .deliver(.notification), localDay: 0,
            item: ReminderItem(slot: 2, kind: .offer, fence: 6, distanceMeters: 150, eventTime: 0), items: [], until: nil)
        log.record(AnalyticsLog.events(for: shown, book: book, userID: Self.user))
        var ledger = NotificationLedger()
        log.record(ledger.scheduled(Self.request("x", .at(1)), now: 0, userID: Self.user))
        #expect(log.events.map(\.name) == ["notification_scheduled"])
        #expect(log.withheld == 2)
        var all = AnalyticsLog(optOut: false)
        all.record(AnalyticsLog.events(for: shown, book: book, userID: Self.user))
        #expect(all.events.map(\.name) == ["LocationOfferEligible", "LocationOfferShown"])
        #expect(all.events[0].properties == ["trigger": "leave", "activity_id": "gym-offer", "radius_m": "150.0", "delay_s": "300.0"])
        #expect(all.events[1].properties == ["channel": "notification", "activity_id": "gym-offer"])
        var suppressed = shown
        suppressed.outcome = .suppress(.quietHours)
        #expect(
            AnalyticsLog.events(for: suppressed, book: book, userID: Self.user).map(\.properties) == [
                ["reason": "quiet_hours", "activity_id": "gym-offer"]
            ])
        #expect(
            Set(NotificationType.allCases.map(\.rawValue)) == [
                "activityReminder", "dailyShowUp", "streak", "reactivation", "locationCompletionOffer", "nudge"
            ])
    }
}
