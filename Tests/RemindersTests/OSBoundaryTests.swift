import Foundation
import Testing
@testable import Reminders

@Suite struct OSBoundaryTests {
    static let user = PseudonymousID(accountID: "a", salt: "s")
    static let noon = World.epoch + 12 * 3_600

    /// Engine -> dispatcher -> fake notification center; completing the task cancels what is
    /// still scheduled for it.
    @Test func dispatchAndCancel() async throws {
        let (book, _) = World.book()
        var engine = try ReminderEngine(preferences: World.preferences())
        var out: [ReminderDecision] = []
        let context = AppContext.background
        engine.handle(exit(6, at: Self.noon), in: book, context: context, now: Self.noon, into: &out)
        engine.advance(to: Self.noon + 420, in: book, context: context, into: &out)
        let scheduler = FakeScheduler()
        let dispatcher = NotificationDispatcher(scheduler: scheduler, userID: Self.user)
        var ledger = NotificationLedger()
        var analytics = AnalyticsLog(optOut: false)
        try await dispatcher.dispatch(out, book: book, unit: .miles, ledger: &ledger, analytics: &analytics, now: Self.noon)
        let pending = await scheduler.pending
        #expect(pending.count == 1)
        let request = try #require(pending.values.first)
        #expect(request.type == .locationCompletionOffer)
        #expect(request.content.body == "Did you finish ‘Gym workout’?")
        #expect(request.trigger == .at(Self.noon + 300))  // exactly the rule's delay after leaving
        #expect(analytics.events.map(\.name) == ["LocationOfferEligible", "LocationOfferShown", "notification_scheduled"])
        let effects = engine.apply(.complete(slot: 2), in: book, now: Self.noon + 100)
        await dispatcher.perform(effects, book: book, ledger: &ledger, analytics: &analytics, now: Self.noon + 100)
        #expect(await scheduler.pending.isEmpty)
        #expect(await scheduler.cancelled == [request.id])
        #expect(analytics.events.last?.name == "notification_cancelled")
        // A scheduler that refuses: the error reaches the caller.
        await scheduler.setFailNext()
        let decided = engine.run(enter(3, at: Self.noon + 90_000), book)
        let later = try #require(decided.first)
        await #expect(throws: FakeError.self) {
            try await dispatcher.dispatch([later], book: book, unit: .miles, ledger: &ledger, analytics: &analytics, now: Self.noon)
        }
    }

    @Test func lapseCheckIns() async throws {
        var p = World.preferences(cap: 5, spacing: 0)
        p.checkIns.absence = .checkInOnMe
        var engine = try ReminderEngine(preferences: p)
        #expect(engine.checkIn(context: .background, now: Self.noon) == nil)  // never active: nothing known
        engine.markActive(at: Self.noon)
        #expect(engine.checkIn(context: .background, now: Self.noon + 2 * 86_400) == nil)  // within the lapse
        #expect(engine.checkIn(context: .background, now: Self.noon + 3 * 86_400) == nil)  // exactly 3 days: not more than 3
        let checkIn = engine.checkIn(context: .background, now: Self.noon + 3 * 86_400 + 1)
        let first = try #require(checkIn)
        #expect(first.outcome == .deliver(.notification))
        #expect(first.kind == .checkIn)
        #expect(first.time == World.epoch + 4 * 86_400 + 9 * 3_600)  // the next 09:00 local (UTC)
        #expect(engine.checkIn(context: .background, now: Self.noon + 4 * 86_400) == nil)  // one per lapse
        engine.markActive(at: Self.noon + 5 * 86_400)
        // In New York with a 07:30 check-in: the check at 07:00 EST schedules it for 07:30 that day.
        var q = engine.preferences
        try q.setTimeZone(identifier: "America/New_York")
        q.checkIns.checkInMinute = 7 * 60 + 30
        try engine.updatePreferences(q)
        #expect(engine.checkIn(context: .background, now: Self.noon + 9 * 86_400)?.time == Self.noon + 9 * 86_400 + 1_800)
        var space = p
        space.checkIns.absence = .giveMeSpace
        var quiet = try ReminderEngine(preferences: space)
        quiet.markActive(at: Self.noon)
        #expect(quiet.checkIn(context: .background, now: Self.noon + 30 * 86_400)?.reason == .userPrefersSpace)
        #expect(LapseCheckIn.due(ledger: quiet.ledger, preferences: space, now: Self.noon + 30 * 86_400) == nil)

        let request = try #require(LapseCheckIn.due(ledger: ReminderLedger.activeLongAgo(Self.noon), preferences: p, now: Self.noon + 4 * 86_400))
        #expect(request.daysAway == 4)
        let clock = FakeClock(time: Self.noon, sleepsForever: true)
        let answered = await LapseCheckIn.content(for: request, provider: FakeProvider(mode: .answer), clock: clock)
        #expect(answered.usedFallback == false)
        #expect(answered.0.body == "check_in_on_me after 4 days")
        let failed = await LapseCheckIn.content(for: request, provider: FakeProvider(mode: .fail), clock: clock)
        #expect(failed.usedFallback)
        #expect(failed.0.body == "It's been 4 days. How are you doing? Your reminders are here when you need them.")
        let timedOut = await LapseCheckIn.content(
            for: request, provider: FakeProvider(mode: .hang),
            clock: FakeClock(time: Self.noon, sleepsForever: false))
        #expect(timedOut.usedFallback)
    }

    /// AirFit 9.3: the dispatcher schedules a check-in like any other request: type
    /// `reactivation`, fired at the check-in's local time of day, the `GENERAL_CHECK_IN`
    /// category, the default sound, the content given.
    @Test func theDispatcherSchedulesCheckIns() async throws {
        var p = World.preferences(cap: 5, spacing: 0)
        p.checkIns.absence = .lightNudge
        var engine = try ReminderEngine(preferences: p)
        engine.markActive(at: Self.noon)
        let decided = engine.checkIn(context: .background, now: Self.noon + 3 * 86_400 + 60)
        let checkIn = try #require(decided)
        let scheduler = FakeScheduler()
        let dispatcher = NotificationDispatcher(scheduler: scheduler, userID: Self.user)
        var ledger = NotificationLedger()
        var analytics = AnalyticsLog(optOut: false)
        let content = LapseCheckIn.fallback(for: CheckInRequest(absence: .lightNudge, daysAway: 3, localeIdentifier: "en_US"))
        try await dispatcher.dispatch(
            [checkIn], book: TaskBook(tier: .premium), unit: .miles, ledger: &ledger, analytics: &analytics, now: Self.noon + 3 * 86_400 + 60,
            checkInContent: content)
        let pending = await scheduler.pending
        let request = try #require(pending.values.first)
        #expect(pending.count == 1 && request.type == .reactivation)
        #expect(request.trigger == .at(checkIn.time) && checkIn.time == World.epoch + 4 * 86_400 + 9 * 3_600)
        #expect(request.content.categoryIdentifier == "GENERAL_CHECK_IN" && request.content.sound == .default)
        #expect(request.content.body == content.body)
        #expect(analytics.events.map(\.name) == ["notification_scheduled"])
    }
}

extension ReminderLedger {
    static func activeLongAgo(_ t: Double) -> ReminderLedger {
        var l = ReminderLedger()
        l.markActive(at: t)
        return l
    }
}
