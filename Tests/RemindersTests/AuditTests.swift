import Foundation
import Geofencing
import Testing
@testable import Reminders

/// The audit of the product documents against the code (docs/REMINDERS.md, "Audit"): one test
/// per promise that had none, or that the code broke.
@Suite struct AuditTests {
    static let noon = World.epoch + 12 * 3_600

    /// Kwilt PRD, Delivery: "If app is foreground: in-app offer surface. Else: schedule/dispatch a
    /// local notification". The app's state that counts is the one when the offer is shown: a
    /// leave offer delayed 5 minutes, decided with the app open, is a notification when the app
    /// has gone to the background by then (an in-app surface nobody is looking at is no offer);
    /// and the other way round, in-app when the app is open at the offer's time.
    @Test func aDelayedOfferFollowsTheAppStateWhenItIsShown() {
        let (book, _) = World.book()
        let foreground = AppContext(isForeground: true)
        var e = try! ReminderEngine(preferences: World.preferences())
        var out: [ReminderDecision] = []
        e.handle(exit(6, at: Self.noon), in: book, context: foreground, now: Self.noon, into: &out)
        #expect(out.isEmpty)  // waiting its 5 minutes
        e.advance(to: Self.noon + 300, in: book, context: .background, into: &out)
        #expect(out.map(\.outcome) == [.deliver(.notification)])
        #expect(out.map(\.time) == [Self.noon + 300])

        var f = try! ReminderEngine(preferences: World.preferences())
        out = []
        f.handle(exit(6, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        f.advance(to: Self.noon + 300, in: book, context: foreground, into: &out)
        #expect(out.map(\.outcome) == [.deliver(.inApp)])
    }

    /// Near Me: a nudge waiting its bundle window while the app was in the background is shown
    /// in-app when the user has opened the app by the window's end.
    @Test func aBundledNudgeFollowsTheAppStateWhenItIsShown() {
        let (book, _) = World.book()
        var e = try! ReminderEngine()
        var out: [ReminderDecision] = []
        e.handle(enter(0, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        e.advance(to: Self.noon + 120, in: book, context: AppContext(isForeground: true), into: &out)
        #expect(out.map(\.outcome) == [.deliver(.inApp)])
    }

    /// Without notification permission and with `requiresNotifications` false, a background
    /// offer goes to the in-app inbox; it stays there even if the app is in the background when
    /// it is due (there is no notification to show).
    @Test func anInboxOfferStaysInAppWithoutNotificationPermission() {
        let (book, _) = World.book()
        var p = World.preferences()
        p.requiresNotifications = false
        let noPermission = AppContext(hasNotificationPermission: false)
        var e = try! ReminderEngine(preferences: p)
        var out: [ReminderDecision] = []
        e.handle(exit(6, at: Self.noon), in: book, context: noPermission, now: Self.noon, into: &out)
        e.advance(to: Self.noon + 300, in: book, context: noPermission, into: &out)
        #expect(out.map(\.outcome) == [.deliver(.inApp)])
    }

    /// Kwilt PRD, Notification integration: the notification carries
    /// `{ type: 'locationCompletionOffer'; activityId; trigger: 'arrive' | 'leave' }`, so a tap
    /// lands on the right Activity.
    @Test func anOfferNotificationCarriesTheDocumentsPayload() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences())
        let offer = e.run(exit(6, at: Self.noon), book)
        #expect(offer.count == 1)
        let content = ReminderText.content(for: offer[0], in: book, unit: .miles)!
        #expect(content.title == "Mark done?")
        #expect(content.body == "Did you finish ‘Gym workout’?")
        #expect(content.userInfo["type"] == "locationCompletionOffer")
        #expect(content.userInfo["activityId"] == "gym-offer")
        #expect(content.userInfo["trigger"] == "leave")
        #expect(content.categoryIdentifier == "LOCATION_COMPLETION_OFFER")
        #expect(NotificationCatalog.completionOffer.actions.map(\.title) == ["Mark done", "Snooze 15m", "Snooze 1h", "Disable for this Activity"])
        // A tap on the body opens that Activity; Mark done completes it.
        #expect(
            try! ActionRouter.route(actionIdentifier: ActionRouter.defaultActionIdentifier, userInfo: content.userInfo)
                == .open(taskIDs: ["gym-offer"]))
        #expect(try! ActionRouter.route(actionIdentifier: "MARK_DONE", userInfo: content.userInfo) == .complete(taskIDs: ["gym-offer"]))
    }

    /// Kwilt PRD, Snooze: "Snooze schedules another one-shot notification" is for a snooze of a
    /// while (15m / 1h). A snooze for the rest of the day says "not today": the offer must not
    /// come back at local midnight (a "Mark done?" at 00:00 asks about a day that has ended, and
    /// quiet hours are off by default). The next day's trigger offers as usual.
    @Test func anOfferSnoozedForTheDayDoesNotReturnAtMidnight() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences())
        var out = e.run(exit(6, at: Self.noon), book)
        #expect(out.map(\.outcome) == [.deliver(.notification)])
        _ = e.apply(.snooze(slot: 2, .restOfDay), in: book, now: Self.noon + 400)
        #expect(e.nextWakeTime == nil)
        // Later the same day: still snoozed (until midnight, 2026-01-06T00:00Z).
        out = []
        e.handle(exit(6, at: Self.noon + 9 * 3_600), in: book, context: .background, now: Self.noon + 9 * 3_600, into: &out)
        #expect(out.map(\.reason) == [.snoozed])
        #expect(out.first?.until == World.epoch + 86_400)
        out = []
        e.advance(to: Self.noon + 86_400 - 1, in: book, context: .background, into: &out)
        #expect(out.isEmpty)
        // The next day: a new offer.
        #expect(e.run(exit(6, at: Self.noon + 86_400), book).map(\.outcome) == [.deliver(.notification)])
        // A snooze of 15 minutes still brings the offer back, once, at its end.
        _ = e.apply(.snooze(slot: 2, .fifteenMinutes), in: book, now: Self.noon + 86_400 + 400)
        out = []
        e.advance(to: Self.noon + 86_400 + 400 + 900, in: book, context: .background, into: &out)
        #expect(out.map(\.time) == [Self.noon + 86_400 + 1_300])
        #expect(out.map(\.outcome) == [.deliver(.notification)])
    }
}
