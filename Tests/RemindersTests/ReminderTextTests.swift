import Geofencing
import Testing
@testable import Reminders

@Suite struct ReminderTextTests {
    @Test func distances() {
        let mi = 1609.344
        let cases: [(Double, DistanceUnit, String)] = [
            (0.8 * mi, .miles, "0.8 mi"), (3 * mi, .miles, "3 mi"), (2.96 * mi, .miles, "3 mi"), (1.25 * mi, .miles, "1.3 mi"),
            (12.4 * mi, .miles, "12 mi"), (9.96 * mi, .miles, "10 mi"), (10, .miles, "0.1 mi"), (0, .miles, "0.1 mi"),
            (1_200, .kilometers, "1.2 km"), (5_000, .kilometers, "5 km"), (449, .kilometers, "450 m"), (10, .kilometers, "50 m"),
            (949, .kilometers, "950 m"), (950, .kilometers, "1 km"), (15_400, .kilometers, "15 km"), (1e9, .kilometers, "1000000 km")
        ]
        for (m, unit, text) in cases { #expect(ReminderText.distance(m, unit: unit) == text, "\(m) m") }
    }

    @Test func unitsByLocale() {
        #expect(DistanceUnit(localeIdentifier: "en_US") == .miles)
        #expect(DistanceUnit(localeIdentifier: "en-GB") == .miles)
        #expect(DistanceUnit(localeIdentifier: "fi_FI") == .kilometers)
        #expect(DistanceUnit(localeIdentifier: "ja_JP") == .kilometers)
        #expect(DistanceUnit(localeIdentifier: "en") == .kilometers)
    }

    @Test func templates() {
        let (book, _) = World.book()
        func text(_ kind: ReminderKind, _ slot: Int32, _ d: Double, _ unit: DistanceUnit = .miles) -> String? {
            ReminderText.line(for: ReminderItem(slot: slot, kind: kind, fence: 0, distanceMeters: d, eventTime: 0), in: book, unit: unit)
        }
        #expect(text(.approach, 0, 3 * 1609.344) == "You're 3 mi from a pharmacy — pick up prescription?")
        #expect(text(.approach, 0, 1_200, .kilometers) == "You're 1.2 km from a pharmacy — pick up prescription?")
        #expect(text(.arrival, 1, 150) == "Arriving at Home — water the plants now?")
        #expect(text(.postArrival, 1, 150) == "Still need to water the plants?")
        #expect(text(.offer, 2, 150) == "Did you finish ‘Gym workout’?")
        #expect(text(.approach, 0, .nan) == "You're near a pharmacy — pick up prescription?")
        #expect(text(.approach, 9, 1) == nil)
    }

    @Test func contentOfOffersAndBundles() throws {
        let (book, _) = World.book()
        let offer = ReminderItem(slot: 2, kind: .offer, fence: 6, distanceMeters: 150, eventTime: 0)
        let one = ReminderDecision(time: 0, kind: .offer, outcome: .deliver(.notification), localDay: 0, item: offer, items: [offer], until: nil)
        let c = try #require(ReminderText.content(for: one, in: book, unit: .miles))
        #expect(c.title == "Mark done?")
        #expect(c.body == "Did you finish ‘Gym workout’?")
        #expect(c.categoryIdentifier == "LOCATION_COMPLETION_OFFER")
        #expect(NotificationCatalog.completionOffer.actions.map(\.title) == ["Mark done", "Snooze 15m", "Snooze 1h", "Disable for this Activity"])
        #expect(
            c.userInfo == [
                "task_ids": "gym-offer", "kind": "offer", "type": "locationCompletionOffer", "activityId": "gym-offer",
                "trigger": "leave"
            ])
        let approach = ReminderItem(slot: 0, kind: .approach, fence: 2, distanceMeters: 1609.344, eventTime: 0)
        let both = ReminderDecision(
            time: 0, kind: .bundle, outcome: .deliver(.notification), localDay: 0, item: approach,
            items: [approach, offer], until: nil)
        let b = try #require(ReminderText.content(for: both, in: book, unit: .miles))
        #expect(b.title == "2 reminders")
        #expect(b.body == "You're 1 mi from a pharmacy — pick up prescription?\nDid you finish ‘Gym workout’?")
        #expect(b.userInfo["task_ids"] == "rx,gym-offer")
        let suppressed = ReminderDecision(time: 0, kind: .approach, outcome: .suppress(.dailyCap), localDay: 0, item: approach, items: [], until: nil)
        #expect(ReminderText.content(for: suppressed, in: book, unit: .miles) == nil)
        let single = ReminderDecision(
            time: 0, kind: .approach, outcome: .deliver(.notification), localDay: 0, item: approach, items: [approach], until: nil)
        #expect(ReminderText.content(for: single, in: book, unit: .miles)?.title == "Pick up prescription")
    }

    /// The catalog as the documents name it: Near Me's six actions on every nudge, Kwilt's
    /// offer buttons, AirFit's categories with their identifiers and titles; dismissals reported.
    @Test func catalogAsDocumented() {
        #expect(NotificationCatalog.nudge.actionIdentifiers == ["COMPLETE", "SNOOZE_15M", "SNOOZE_1H", "SNOOZE_TODAY", "OPEN_MAP", "MUTE"])
        #expect(NotificationCatalog.bundle.actionIdentifiers == NotificationCatalog.nudge.actionIdentifiers)
        #expect(NotificationCatalog.workoutReminder.identifier == "WORKOUT_REMINDER")
        #expect(
            NotificationCatalog.workoutReminder.actions.map { [$0.identifier, $0.title] }
                == [["START_WORKOUT_ACTION", "Start Workout"], ["SKIP_TODAY_ACTION", "Skip Today"]])
        #expect(NotificationCatalog.energyLogReminder.actions.map { [$0.identifier, $0.title] } == [["LOG_ENERGY_ACTION", "Log Energy"]])
        #expect(NotificationCatalog.checkIn.identifier == "GENERAL_CHECK_IN")
        let reported = NotificationCatalog.all.filter { $0.customDismissAction }.count
        #expect(reported == NotificationCatalog.all.count)
        let content = LapseCheckIn.fallback(for: CheckInRequest(absence: .lightNudge, daysAway: 4, localeIdentifier: "en_US"))
        #expect(content.categoryIdentifier == "GENERAL_CHECK_IN" && content.sound == .default)
    }

    @Test func router() throws {
        let info = ["task_ids": "rx,plants"]
        #expect(try ActionRouter.route(actionIdentifier: "MARK_DONE", userInfo: info) == .complete(taskIDs: ["rx", "plants"]))
        #expect(try ActionRouter.route(actionIdentifier: "SNOOZE_TODAY", userInfo: info) == .snooze(taskIDs: ["rx", "plants"], .restOfDay))
        #expect(try ActionRouter.route(actionIdentifier: "START_WORKOUT_ACTION", userInfo: [:]) == .startWorkout(taskIDs: []))
        #expect(try ActionRouter.route(actionIdentifier: "COMPLETE", userInfo: info) == .complete(taskIDs: ["rx", "plants"]))
        // A check-in names no task: a tap on its body opens the Dashboard.
        #expect(try ActionRouter.route(actionIdentifier: ActionRouter.defaultActionIdentifier, userInfo: ["kind": "check_in"]) == .openDashboard)
        #expect(throws: ReminderError.unknownAction("FLY")) { try ActionRouter.route(actionIdentifier: "FLY", userInfo: info) }
        #expect(throws: ReminderError.missingTaskID(action: "MARK_DONE")) { try ActionRouter.route(actionIdentifier: "MARK_DONE", userInfo: [:]) }
        // Every catalogued action routes somewhere; identifiers are unique within a category.
        for category in NotificationCatalog.all {
            #expect(Set(category.actions.map(\.identifier)).count == category.actions.count)
            for action in category.actions { _ = try ActionRouter.route(actionIdentifier: action.identifier, userInfo: info) }
        }
    }
}
