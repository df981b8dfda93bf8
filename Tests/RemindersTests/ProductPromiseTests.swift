import Foundation
import Geofencing
import Testing
@testable import Reminders

/// Promises of the product documents that had no test of their own, or that the code had broken
/// (docs/REMINDERS.md, "Audit"): one test each, named for the promise.
@Suite struct ProductPromiseTests {
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

    /// AirFit 9.2: a check-in is for a user who has lapsed. One decided by the morning's check
    /// (08:00) for 09:00 is withdrawn when the user opens the app at 08:30: no "It's been 4
    /// days" to someone using the app. The replay prints a `user_returned` suppression at 08:30
    /// instead of the delivery; the dispatcher cancels the scheduled request.
    @Test func aCheckInIsWithdrawnWhenTheUserComesBackBeforeItIsShown() async throws {
        let json = """
            {"product": "airfit", "time_zone": "America/New_York",
             "events": [
               {"at": "2026-01-09T08:00:00-05:00", "type": "daily_check", "last_active": "2026-01-05T07:00:00-05:00", "absence": "check_in_on_me"},
               {"at": "2026-01-09T08:30:00-05:00", "type": "app", "state": "foreground"},
               {"at": "2026-01-12T08:00:00-05:00", "type": "daily_check", "last_active": "2026-01-09T08:30:00-05:00"},
               {"at": "2026-01-13T08:00:00-05:00", "type": "daily_check", "last_active": "2026-01-09T08:30:00-05:00"}],
             "until": "2026-01-14T12:00:00-05:00"}
            """
        let out = try ReminderReplay.run(try ReminderScenario.parse(Data(json.utf8)))
        let shown = out.lines.map { "\($0.decision) \($0.reason ?? "-") \(ReminderReplayTests.iso($0.at, "America/New_York"))" }
        #expect(
            shown == [
                "suppress user_returned 2026-01-09T08:30:00-05:00",
                // Away again from 01-09 08:30: more than 3 days by 01-13 08:00, so 09:00 that day.
                "deliver - 2026-01-13T09:00:00-05:00"
            ])

        // A later daily check that reports use between the decision and the check-in withdraws
        // it the same way; a last_active after the check itself is refused.
        let reported = """
            {"product": "airfit", "events": [
               {"at": "2026-01-09T08:00:00Z", "type": "daily_check", "last_active": "2026-01-05T07:00:00Z"},
               {"at": "2026-01-09T08:50:00Z", "type": "daily_check", "last_active": "2026-01-09T08:40:00Z"}],
             "until": "2026-01-10T12:00:00Z"}
            """
        let second = try ReminderReplay.run(try ReminderScenario.parse(Data(reported.utf8)))
        #expect(
            second.lines.map { "\($0.decision) \($0.reason ?? "-") \(ReminderReplayTests.iso($0.at))" } == [
                "suppress user_returned 2026-01-09T08:40:00Z"
            ])
        let future = reported.replacingOccurrences(of: "2026-01-09T08:40:00Z", with: "2026-01-09T09:40:00Z")
        #expect(throws: ReminderScenario.Error.self) { try ReminderScenario.parse(Data(future.utf8)) }

        // The engine and the dispatcher: the scheduled request is cancelled.
        var engine = try ReminderEngine()
        engine.markActive(at: Self.noon)
        let maybe = engine.checkIn(context: .background, now: Self.noon + 4 * 86_400)
        let decided = try #require(maybe)
        #expect(decided.time == World.epoch + 5 * 86_400 + 9 * 3_600)  // 09:00 UTC the next day
        let scheduler = FakeScheduler()
        let dispatcher = NotificationDispatcher(scheduler: scheduler, userID: PseudonymousID(accountID: "a", salt: "s"))
        var ledger = NotificationLedger()
        var analytics = AnalyticsLog(optOut: false)
        try await dispatcher.dispatch(
            [decided], book: TaskBook(), unit: .miles, ledger: &ledger, analytics: &analytics, now: Self.noon + 4 * 86_400)
        #expect(await scheduler.pending.count == 1)
        // A late report of use before the check-in was decided withdraws nothing.
        #expect(engine.markActive(at: Self.noon + 3 * 86_400) == nil)
        let returned = engine.markActive(at: Self.noon + 4 * 86_400 + 600)
        let back = try #require(returned)
        #expect(back.reason == .userReturned)
        #expect(back.kind == .checkIn)
        #expect(back.time == Self.noon + 4 * 86_400 + 600)
        try await dispatcher.dispatch(
            [back], book: TaskBook(), unit: .miles, ledger: &ledger, analytics: &analytics, now: back.time)
        #expect(await scheduler.pending.isEmpty)
        #expect(analytics.events.map(\.name) == ["notification_scheduled", "notification_cancelled"])
        #expect(engine.markActive(at: Self.noon + 4 * 86_400 + 700) == nil)  // once
        // One shown already is not withdrawn.
        var fired = try ReminderEngine()
        fired.markActive(at: Self.noon)
        _ = fired.checkIn(context: .background, now: Self.noon + 4 * 86_400)
        let late = fired.markActive(at: World.epoch + 5 * 86_400 + 9 * 3_600)
        #expect(late == nil)
    }

    /// The preference `requiresNotifications` false keeps a reminder for the in-app inbox when
    /// notifications are not allowed: a lapse check-in too (not a notification the OS will not
    /// show); with it true (the default) the check-in is suppressed as `notifications_off`.
    @Test func aCheckInWithoutNotificationPermissionGoesToTheInbox() throws {
        var p = ReminderPreferences()
        p.requiresNotifications = false
        var engine = try ReminderEngine(preferences: p)
        engine.markActive(at: Self.noon)
        let noPermission = AppContext(hasNotificationPermission: false)
        let inbox = engine.checkIn(context: noPermission, now: Self.noon + 4 * 86_400)
        #expect(inbox?.outcome == .deliver(.inApp))
        var strict = try ReminderEngine()
        strict.markActive(at: Self.noon)
        #expect(strict.checkIn(context: noPermission, now: Self.noon + 4 * 86_400)?.reason == .notificationsOff)
    }

    /// Near Me 3.2 and 5.1: a category task names its category in the approach text ("You're 5
    /// mi from a pharmacy — …?", the `{place_or_category}`) when its place has no name of its
    /// own; the categories are the document's five (gas stations, pharmacies, groceries, banks,
    /// post offices) and ATMs, and any other value is refused naming its path.
    @Test func aCategoryTaskIsNamedByItsCategory() throws {
        func run(_ category: String, name: String? = nil) throws -> ReminderReplay.Output {
            let place = name.map { #"{"name": "\#($0)", "lat": 40.75, "lon": -73.99}"# } ?? #"{"lat": 40.75, "lon": -73.99}"#
            let json = """
                {"product": "near_me", "tasks": [{"id": "rx", "title": "pick up prescription", "type": "poi",
                  "place": \(place), "category": "\(category)"}],
                 "events": [{"at": "2026-01-05T10:00:00Z", "type": "enter", "task": "rx", "fence": "approach_5mi"}],
                 "until": "2026-01-05T12:00:00Z"}
                """
            return try ReminderReplay.run(try ReminderScenario.parse(Data(json.utf8)))
        }
        #expect(try run("pharmacy").lines.map(\.body) == ["You're 5 mi from a pharmacy — pick up prescription?"])
        #expect(try run("fuel").lines.map(\.body) == ["You're 5 mi from a gas station — pick up prescription?"])
        #expect(try run("post_office").lines.map(\.body) == ["You're 5 mi from a post office — pick up prescription?"])
        #expect(try run("pharmacy", name: "Duane Reade").lines.map(\.body) == ["You're 5 mi from Duane Reade — pick up prescription?"])
        #expect(throws: ReminderScenario.Error.self) { try run("bakery") }
        do {
            _ = try run("bakery")
        } catch let error as ReminderScenario.Error {
            #expect(error.path == "tasks[0].category")
            #expect(error.message.contains("fuel, pharmacy, grocery, bank, atm or post_office"))
        }
    }

    /// Unknown or ignored input is an error in a scenario: `radius_m` on a Near Me task sets its
    /// arrival (and post-arrival) fence, which a home, work or custom task has; a `poi` task has
    /// none, so it is refused there rather than read and ignored.
    @Test func aNearMeTasksRadiusIsItsArrivalFence() throws {
        func scenario(_ type: String) -> String {
            """
            {"product": "near_me", "tasks": [{"id": "plants", "title": "water the plants", "type": "\(type)",
              "place": {"name": "Home", "lat": 40.70, "lon": -73.95}, "radius_m": 400}],
             "events": [], "until": "2026-01-05T12:00:00Z"}
            """
        }
        let s = try ReminderScenario.parse(Data(scenario("home").utf8))
        let out = try ReminderReplay.run(s)
        #expect(out.registeredFences == ["plants/approach_2mi", "plants/arrival", "plants/post_arrival"])
        let radii = out.analytics.filter { $0.name == "geofence_registered" }.map { $0.properties["radius_m"] ?? "" }
        #expect(radii == ["3218.688", "400.0", "400.0"])
        do {
            _ = try ReminderScenario.parse(Data(scenario("poi").utf8))
            Issue.record("radius_m on a poi task was accepted")
        } catch {
            #expect(error.path == "tasks[0].radius_m")
        }
    }

    /// The Kwilt PRD's rails with their defaults, at their exact edges: the 2 h per-activity
    /// cooldown and the 6 h global spacing end on the second (the wait is over at 2 h and 6 h),
    /// the cap of 2 is per local date and a new date starts at local midnight.
    @Test func kwiltDefaultRailsAtTheirEdges() throws {
        var book = TaskBook(tier: .free)
        for (k, id) in ["a", "b", "c"].enumerated() {
            let place = try Place(id: id, latitude: 40.70 + Double(k) / 10, longitude: -73.95)
            try book.add(CompletionOfferRule(id: id, activity: "Activity \(id)", place: place, placeLabel: id, trigger: .arrive))
        }
        _ = try book.geofences()  // fences 0, 1, 2: rules a, b, c
        var e = try ReminderEngine()  // 2 a day, 6 h apart, 2 h per activity, UTC
        let eight = World.epoch + 8 * 3_600
        func offer(_ fence: Int32, _ t: Double) -> String {
            let d = e.run(enter(fence, at: t), book)
            return d.map { $0.reason?.rawValue ?? "deliver" }.joined(separator: ",")
        }
        #expect(offer(0, eight) == "deliver")
        #expect(offer(0, eight + 7_199) == "task_cooldown")
        #expect(offer(1, eight + 21_599) == "global_spacing")
        #expect(offer(1, eight + 21_600) == "deliver")  // exactly 6 h later
        #expect(offer(2, eight + 12 * 3_600) == "daily_cap")  // 20:00, the date's third
        #expect(offer(2, World.epoch + 86_400) == "deliver")  // 00:00 the next date, 10 h after the last
        #expect(offer(0, World.epoch + 86_400 + 7_200) == "global_spacing")
    }
}
