import Foundation
import Testing
@testable import Reminders

/// Scenarios written from the product documents' words (not from the code), replayed as
/// `geofence reminders replay` would: each line is `MM-DDTHH:MM task kind decision channel-or-reason`
/// in the scenario's zone.
@Suite struct DocumentScenarioTests {
    static func lines(_ out: ReminderReplay.Output) -> [String] {
        var converter = LocalTimeConverter(timeZone: out.timeZone)
        return out.lines.map { l in
            let at = String(ReminderReplay.isoString(l.at, converter: &converter).dropFirst(5).prefix(11))
            return "\(at) \(l.task ?? "None") \(l.kind) \(l.decision) \(l.channel ?? l.reason ?? "")"
        }
    }

    static let s1 = #"""
        {"product": "near_me", "time_zone": "America/New_York", "tier": "premium",
         "tasks": [{"id": "shirts", "title": "pick up shirts", "type": "custom", "place": {"name": "Main St Cleaners", "lat": 40.70, "lon": -74.00}},
                   {"id": "stamps", "title": "buy stamps", "type": "poi", "category": "post_office", "place": {"name": "post office", "lat": 40.80, "lon": -73.90}}],
         "events": [
           {"at": "2026-01-05T08:00:00-05:00", "type": "enter", "task": "shirts", "fence": "approach_5mi"},
           {"at": "2026-01-05T08:20:00-05:00", "type": "enter", "task": "shirts", "fence": "arrival"},
           {"at": "2026-01-05T08:25:00-05:00", "type": "dwell", "task": "shirts", "fence": "arrival"},
           {"at": "2026-01-05T09:00:00-05:00", "type": "exit", "task": "shirts", "fence": "arrival"},
           {"at": "2026-01-05T09:01:00-05:00", "type": "enter", "task": "shirts", "fence": "arrival"},
           {"at": "2026-01-05T12:00:00-05:00", "type": "enter", "task": "stamps", "fence": "approach_5mi"},
           {"at": "2026-01-05T12:10:00-05:00", "type": "enter", "task": "stamps", "fence": "approach_3mi"},
           {"at": "2026-01-05T12:20:00-05:00", "type": "enter", "task": "stamps", "fence": "approach_1mi"}],
         "until": "2026-01-05T23:00:00-05:00"}
        """#

    /// Near Me 4.1-4.4, 5.1-5.4: a custom place nudges at 5 mi, on arrival and after 5 minutes inside; a POI task at 5, 3 and 1 mi, each once per trip ("escalating reminders as I get closer"); a boundary bounce says nothing new.
    @Test func nearMeEscalatesInOneTripOnEveryTier() throws {
        let out = try ReminderReplayTests.replay(Self.s1)
        #expect(
            Self.lines(out) == [
                "01-05T08:02 shirts approach deliver notification",
                "01-05T08:22 shirts arrival deliver notification",
                "01-05T08:27 shirts post_arrival deliver notification",
                "01-05T09:01 shirts arrival suppress already_nudged",
                "01-05T12:02 stamps approach deliver notification",
                "01-05T12:12 stamps approach deliver notification",
                "01-05T12:22 stamps approach deliver notification"
            ])
        #expect(out.lines[0].body == "You're 5 mi from Main St Cleaners — pick up shirts?")
        #expect(out.lines[1].body == "Arriving at Main St Cleaners — pick up shirts now?")
        #expect(out.lines[2].body == "Still need to pick up shirts?")
        #expect(out.lines[6].body == "You're 1 mi from post office — buy stamps?")
        #expect(
            out.lines.filter { $0.decision == "deliver" }.allSatisfy {
                $0.actions == ["COMPLETE", "SNOOZE_15M", "SNOOZE_1H", "SNOOZE_TODAY", "OPEN_MAP", "MUTE"]
            })
        let names = out.analytics.map(\.name)
        #expect(names.filter { $0 == "nudge_shown" }.count == 6)
        #expect(names.filter { $0 == "task_created" }.count == 2 && names.filter { $0 == "place_added" }.count == 2)
        #expect(names.filter { $0 == "geofence_registered" }.count == out.registeredFences.count)
    }

    static let s2 = #"""
        {"product": "near_me", "time_zone": "America/New_York", "tier": "premium",
         "tasks": [{"id": "plants", "title": "water the plants", "type": "home", "place": {"name": "Home", "lat": 40.70, "lon": -73.95}}],
         "events": [
           {"at": "2026-01-05T18:00:00-05:00", "type": "enter", "task": "plants", "fence": "approach_2mi"},
           {"at": "2026-01-05T18:10:00-05:00", "type": "enter", "task": "plants", "fence": "arrival"},
           {"at": "2026-01-05T18:12:00-05:00", "type": "action", "task": "plants", "action": "snooze_15m"},
           {"at": "2026-01-05T18:15:00-05:00", "type": "dwell", "task": "plants", "fence": "arrival"},
           {"at": "2026-01-05T20:00:00-05:00", "type": "exit", "task": "plants", "fence": "approach_2mi"},
           {"at": "2026-01-05T21:00:00-05:00", "type": "enter", "task": "plants", "fence": "approach_2mi"},
           {"at": "2026-01-05T21:10:00-05:00", "type": "action", "task": "plants", "action": "snooze_today"},
           {"at": "2026-01-05T21:20:00-05:00", "type": "enter", "task": "plants", "fence": "arrival"},
           {"at": "2026-01-06T08:00:00-05:00", "type": "exit", "task": "plants", "fence": "approach_2mi"},
           {"at": "2026-01-06T17:00:00-05:00", "type": "enter", "task": "plants", "fence": "approach_2mi"},
           {"at": "2026-01-06T17:05:00-05:00", "type": "action", "task": "plants", "action": "complete"},
           {"at": "2026-01-06T17:10:00-05:00", "type": "enter", "task": "plants", "fence": "arrival"}],
         "until": "2026-01-06T23:00:00-05:00"}
        """#

    /// Near Me 5.5 "respect the snooze duration before showing the next reminder" (15m, then Today: nothing until the next local day); 2.5 complete "stop all related notifications" (its fences go: the later arrival is not reported).
    @Test func nearMeSnoozeRespectsItsDurationAndCompleteStopsEverything() throws {
        let out = try ReminderReplayTests.replay(Self.s2)
        #expect(
            Self.lines(out) == [
                "01-05T18:02 plants approach deliver notification",
                "01-05T18:12 plants arrival deliver notification",
                "01-05T18:17 plants post_arrival suppress snoozed",
                "01-05T21:02 plants approach deliver notification",
                "01-05T21:22 plants arrival suppress snoozed",
                "01-06T17:02 plants approach deliver notification",
                "01-06T17:10 plants arrival suppress not_registered"
            ])
        #expect(out.analytics.filter { $0.name == "snooze_selected" }.map { $0.properties["duration"] } == ["15m", "today"])
        #expect(out.analytics.filter { $0.name == "task_completed" }.count == 1)
        #expect(out.registeredFences.isEmpty)
    }

    static let s3 = #"""
        {"product": "near_me", "time_zone": "America/New_York", "tier": "premium",
         "tasks": [{"id": "milk", "title": "buy milk", "type": "poi", "category": "grocery", "place": {"name": "Corner Grocery", "lat": 40.75, "lon": -73.99}},
                   {"id": "meds", "title": "refill prescription", "type": "poi", "category": "pharmacy", "place": {"name": "pharmacy", "lat": 40.7502, "lon": -73.9902}}],
         "events": [
           {"at": "2026-01-05T22:00:00-05:00", "type": "dnd", "on": true},
           {"at": "2026-01-05T23:00:00-05:00", "type": "enter", "task": "milk", "fence": "approach_5mi"},
           {"at": "2026-01-06T07:00:00-05:00", "type": "dnd", "on": false},
           {"at": "2026-01-06T10:00:00-05:00", "type": "action", "task": "milk", "action": "mute"},
           {"at": "2026-01-06T10:30:00-05:00", "type": "enter", "task": "milk", "fence": "approach_3mi"},
           {"at": "2026-01-06T10:30:30-05:00", "type": "enter", "task": "meds", "fence": "approach_3mi"},
           {"at": "2026-01-06T11:00:00-05:00", "type": "action", "task": "milk", "action": "unmute"},
           {"at": "2026-01-06T11:30:00-05:00", "type": "enter", "task": "milk", "fence": "approach_1mi"}],
         "until": "2026-01-06T23:00:00-05:00"}
        """#

    /// Near Me 5.7 Do Not Disturb queues and shows at its end; 5.6 mute "until manually re-enabled"; other tasks nudge meanwhile.
    @Test func nearMeDoNotDisturbQueuesAndMuteHoldsUntilUnmuted() throws {
        let out = try ReminderReplayTests.replay(Self.s3)
        #expect(
            Self.lines(out) == [
                "01-05T23:02 milk approach queue do_not_disturb",
                "01-06T07:02 milk approach deliver notification",
                "01-06T10:32 milk approach suppress task_muted",
                "01-06T10:32 meds approach deliver notification",
                "01-06T11:32 milk approach deliver notification"
            ])
        #expect(out.lines[1].body == "You're 5 mi from Corner Grocery — buy milk?")
        #expect(out.registeredFences.count == 6)
    }

    static let s4 = #"""
        {"product": "kwilt", "time_zone": "America/New_York",
         "tasks": [{"id": "gym", "title": "Gym workout", "place": {"name": "Gym", "lat": 40.741, "lon": -73.99},
                    "offer": {"trigger": "leave", "delay_s": 300, "repeating": true}},
                   {"id": "groceries", "title": "Buy groceries", "place": {"name": "Trader Joe's", "lat": 40.73, "lon": -73.98},
                    "offer": {"trigger": "arrive", "delay_s": 0, "repeating": false}},
                   {"id": "library", "title": "Return books", "place": {"name": "Library", "lat": 40.75, "lon": -73.98},
                    "offer": {"trigger": "arrive", "delay_s": 0, "repeating": false}}],
         "events": [
           {"at": "2026-01-05T07:00:00-05:00", "type": "exit", "task": "gym"},
           {"at": "2026-01-05T07:06:00-05:00", "type": "action", "task": "gym", "action": "snooze_1h"},
           {"at": "2026-01-05T13:10:00-05:00", "type": "enter", "task": "groceries"},
           {"at": "2026-01-05T20:00:00-05:00", "type": "enter", "task": "library"}],
         "until": "2026-01-05T23:59:00-05:00"}
        """#

    /// Kwilt PRD: "Snooze schedules another one-shot notification" at the snooze end; the return is not counted, so the 13:10 offer passes the 6 h spacing (07:05 + 6 h) and the cap of 2 stops the third one.
    @Test func kwiltSnoozeReturnsWithoutCountingAgainstTheRails() throws {
        let out = try ReminderReplayTests.replay(Self.s4)
        #expect(
            Self.lines(out) == [
                "01-05T07:05 gym completion_offer deliver notification",
                "01-05T08:06 gym completion_offer deliver notification",
                "01-05T13:10 groceries completion_offer deliver notification",
                "01-05T20:00 library completion_offer suppress daily_cap"
            ])
        var converter = LocalTimeConverter(timeZone: out.timeZone)
        #expect(
            out.lines.prefix(2).map { ReminderReplay.isoString($0.at, converter: &converter) } == [
                "2026-01-05T07:05:00-05:00", "2026-01-05T08:06:00-05:00"
            ])
        #expect(out.lines[0].title == "Mark done?" && out.lines[0].body == "Did you finish ‘Gym workout’?")
        #expect(out.lines[0].actions == ["MARK_DONE", "SNOOZE_15M", "SNOOZE_1H", "DISABLE_ACTIVITY"])
        #expect(out.analytics.filter { $0.name == "LocationOfferEligible" }.map { $0.properties["activity_id"] } == ["gym", "groceries"])
        #expect(out.analytics.filter { $0.name == "LocationOfferShown" }.count == 3)
        #expect(
            out.analytics.contains { $0.name == "LocationOfferAction" && $0.properties["action"] == "snooze" && $0.properties["duration"] == "1h" })
    }

    static let s5 = #"""
        {"product": "kwilt", "time_zone": "America/New_York",
         "tasks": [{"id": "gym", "title": "Gym workout", "place": {"name": "Gym", "lat": 40.741, "lon": -73.99},
                    "offer": {"trigger": "leave", "delay_s": 300, "repeating": true}},
                   {"id": "groceries", "title": "Buy groceries", "place": {"name": "Trader Joe's", "lat": 40.73, "lon": -73.98},
                    "offer": {"trigger": "arrive", "delay_s": 120, "repeating": false}}],
         "events": [
           {"at": "2026-01-05T09:00:00-05:00", "type": "exit", "task": "gym", "received_at": "2026-01-05T09:40:00-05:00"},
           {"at": "2026-01-05T09:00:00-05:00", "type": "exit", "task": "gym", "received_at": "2026-01-05T09:50:00-05:00"},
           {"at": "2026-01-05T15:59:00-05:00", "type": "app", "state": "foreground"},
           {"at": "2026-01-05T16:00:00-05:00", "type": "enter", "task": "groceries"}],
         "until": "2026-01-05T23:59:00-05:00"}
        """#

    /// Kwilt PRD: the OS "may delay" events; a late one still yields its offer (on receipt, its delay long passed) and the ledger avoids "double-firing if the OS delivers late"; foreground: "in-app offer immediately (or after delay)".
    @Test func kwiltLateEventsAndForegroundOffers() throws {
        let out = try ReminderReplayTests.replay(Self.s5)
        #expect(
            Self.lines(out) == [
                "01-05T09:40 gym completion_offer deliver notification",
                "01-05T09:50 gym completion_offer suppress duplicate_event",
                "01-05T16:02 groceries completion_offer deliver in_app"
            ])
        #expect(out.analytics.filter { $0.name == "LocationOfferEligible" && $0.properties["activity_id"] == "gym" }.count == 1)
        #expect(out.analytics.filter { $0.name == "LocationOfferShown" }.map { $0.properties["channel"] } == ["notification", "in_app"])
    }

    static let s6 = #"""
        {"product": "kwilt", "time_zone": "America/New_York",
         "tasks": [{"id": "gym", "title": "Gym workout", "place": {"name": "Gym", "lat": 40.741, "lon": -73.99},
                    "offer": {"trigger": "leave", "delay_s": 600, "repeating": false}},
                   {"id": "run", "title": "Evening run", "place": {"name": "Park", "lat": 40.78, "lon": -73.96},
                    "offer": {"trigger": "leave", "delay_s": 0, "repeating": true}},
                   {"id": "bank", "title": "Deposit check", "place": {"name": "Bank", "lat": 40.72, "lon": -73.99},
                    "offer": {"trigger": "arrive", "delay_s": 0, "repeating": false}}],
         "events": [
           {"at": "2026-01-05T08:00:00-05:00", "type": "exit", "task": "gym"},
           {"at": "2026-01-05T08:04:00-05:00", "type": "action", "task": "gym", "action": "complete"},
           {"at": "2026-01-05T09:00:00-05:00", "type": "exit", "task": "run"},
           {"at": "2026-01-05T09:01:00-05:00", "type": "action", "task": "run", "action": "disable"},
           {"at": "2026-01-05T09:30:00-05:00", "type": "delete", "task": "bank"},
           {"at": "2026-01-05T18:00:00-05:00", "type": "exit", "task": "run"},
           {"at": "2026-01-05T18:30:00-05:00", "type": "enter", "task": "bank"}],
         "until": "2026-01-05T23:59:00-05:00"}
        """#

    /// Kwilt QA plan: "Activity marked done before delayed offer fires" (no offer, and the never-shown offer takes no spacing); "Disable turns off the Activity's location rule (and updates geofence registrations)"; "Activity deleted while geofence registered".
    @Test func kwiltDoneBeforeTheDelayedOfferDisableAndDelete() throws {
        let out = try ReminderReplayTests.replay(Self.s6)
        #expect(
            Self.lines(out) == [
                "01-05T08:04 gym completion_offer suppress already_done",
                "01-05T09:00 run completion_offer deliver notification",
                "01-05T18:00 run completion_offer suppress not_registered",
                "01-05T18:30 bank completion_offer suppress not_registered"
            ])
        #expect(out.registeredFences.isEmpty)
        #expect(out.analytics.filter { $0.name == "LocationOfferSuppressed" }.map { $0.properties["reason"] } == ["already_done"])
        #expect(out.analytics.contains { $0.name == "LocationOfferAction" && $0.properties["action"] == "disable" })
    }

    static let s7 = #"""
        {"product": "airfit", "time_zone": "America/Los_Angeles",
         "events": [
           {"at": "2026-01-08T06:00:00-08:00", "type": "daily_check", "last_active": "2026-01-05T06:00:00-08:00", "absence": "light_nudge"},
           {"at": "2026-01-08T06:01:00-08:00", "type": "daily_check", "last_active": "2026-01-05T06:00:00-08:00", "absence": "give_me_space"},
           {"at": "2026-01-08T06:02:00-08:00", "type": "daily_check", "last_active": "2026-01-05T06:00:00-08:00", "absence": "check_in_on_me"}],
         "until": "2026-01-09T23:00:00-08:00"}
        """#

    /// AirFit 9.2: lapse "> 3 days": exactly 3 days is none; give_me_space "do nothing"; check_in_on_me / light_nudge schedule one "at a specific time of day (e.g. next day at 9 AM)".
    @Test func airfitLapseIsStrictlyMoreThanThreeDays() throws {
        let out = try ReminderReplayTests.replay(Self.s7)
        #expect(
            Self.lines(out) == [
                "01-08T06:01 None check_in suppress give_me_space",
                "01-08T09:00 None check_in deliver notification"
            ])
        #expect(out.lines[1].category == "GENERAL_CHECK_IN" && out.lines[1].body?.contains("3 days") == true)
    }

    static let s8 = #"""
        {"product": "airfit", "time_zone": "America/Los_Angeles", "preferences": {"check_in_time": "18:30"},
         "events": [
           {"at": "2026-01-08T06:00:00-08:00", "type": "daily_check", "last_active": "2026-01-05T05:00:00-08:00", "absence": "check_in_on_me"}],
         "until": "2026-01-09T23:00:00-08:00"}
        """#

    /// AirFit 9.3: the check-in at the configured local time of day, with the GENERAL_CHECK_IN category and the default sound.
    @Test func airfitCheckInAtTheConfiguredTimeOfDay() throws {
        let out = try ReminderReplayTests.replay(Self.s8)
        #expect(
            Self.lines(out) == [
                "01-08T18:30 None check_in deliver notification"
            ])
        #expect(out.lines[0].category == "GENERAL_CHECK_IN" && out.lines[0].title != nil)
    }

}
