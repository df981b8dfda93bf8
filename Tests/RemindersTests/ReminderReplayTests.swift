import Foundation
import Reminders
import Testing

/// The product documents' promises, one scenario each, through ``ReminderReplay`` (what
/// `geofence reminders replay` prints). Times are UTC unless a test says otherwise.
@Suite struct ReminderReplayTests {
    static func replay(_ json: String) throws -> ReminderReplay.Output {
        try ReminderReplay.run(try ReminderScenario.parse(Data(json.utf8)))
    }

    static func iso(_ t: Double, _ zone: String = "UTC") -> String {
        var c = LocalTimeConverter(timeZone: TimeZone(identifier: zone)!)
        return ReminderReplay.isoString(t, converter: &c)
    }

    static func at(_ hhmmss: String, day: Int = 5) -> String { "2026-01-\(day < 10 ? "0" : "")\(day)T\(hhmmss)Z" }

    static let milk = #"{"id": "milk", "title": "buy milk", "type": "poi", "place": {"name": "Corner Grocery", "lat": 40.75, "lon": -73.99}}"#
    static let plants = #"{"id": "plants", "title": "water the plants", "type": "home", "place": {"name": "Home", "lat": 40.70, "lon": -73.95}}"#
    static let gym =
        #"{"id": "gym", "title": "Gym workout", "place": {"name": "the gym", "lat": 40.741, "lon": -73.99}, "offer": {"trigger": "leave", "delay_s": 300}}"#

    static func scenario(
        _ product: String, tasks: [String], events: [String], until: String = at("23:00:00"),
        preferences: String = "{}", tier: String = "premium"
    ) -> String {
        """
        {"product": "\(product)", "time_zone": "UTC", "tier": "\(tier)", "preferences": \(preferences),
         "tasks": [\(tasks.joined(separator: ", "))], "events": [\(events.joined(separator: ", "))], "until": "\(until)"}
        """
    }

    static func ev(_ at: String, _ type: String, _ task: String, _ extra: String = "") -> String {
        #"{"at": "\#(at)", "type": "\#(type)", "task": "\#(task)"\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    // MARK: Near Me (003)

    /// 4.1-4.4, 5.1-5.4: each tier fence gives its own nudge, escalating in one trip, with the
    /// templates and the six actions on every nudge.
    @Test func nearMeEscalatesInOneTrip() throws {
        let out = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk, Self.plants],
                events: [
                    Self.ev(Self.at("17:00:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("17:06:00"), "enter", "milk", #""fence": "approach_3mi""#),
                    Self.ev(Self.at("17:12:00"), "enter", "milk", #""fence": "approach_1mi""#),
                    Self.ev(Self.at("18:00:00"), "enter", "plants", #""fence": "approach_2mi""#),
                    Self.ev(Self.at("18:06:00"), "enter", "plants", #""fence": "arrival""#),
                    Self.ev(Self.at("18:11:00"), "dwell", "plants", #""fence": "arrival""#)
                ]))
        #expect(out.lines.map(\.decision) == Array(repeating: "deliver", count: 6))
        #expect(out.lines.map(\.kind) == ["approach", "approach", "approach", "approach", "arrival", "post_arrival"])
        #expect(
            out.lines.map { $0.body ?? "" } == [
                "You're 5 mi from Corner Grocery — buy milk?", "You're 3 mi from Corner Grocery — buy milk?",
                "You're 1 mi from Corner Grocery — buy milk?", "You're 2 mi from Home — water the plants?",
                "Arriving at Home — water the plants now?", "Still need to water the plants?"
            ])
        for line in out.lines {
            #expect(line.category == "NUDGE")
            #expect(line.actions == ["COMPLETE", "SNOOZE_15M", "SNOOZE_1H", "SNOOZE_TODAY", "OPEN_MAP", "MUTE"])
        }
        #expect(Self.iso(out.lines[0].at) == Self.at("17:02:00"))  // the end of its 2-minute bundle window
        #expect(
            out.registeredFences.sorted() == [
                "milk/approach_1mi", "milk/approach_3mi", "milk/approach_5mi",
                "plants/approach_2mi", "plants/arrival", "plants/post_arrival"
            ])
    }

    /// 4.5: triggers within 2 minutes are one notification; 4.6: a different place nearby waits
    /// the dense-area cooldown.
    @Test func nearMeBundlesAndDenseAreas() throws {
        let near = #"{"id": "bank", "title": "deposit a cheque", "type": "poi", "place": {"name": "Bank", "lat": 40.7520, "lon": -73.99}}"#
        let out = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk, Self.plants, near],
                events: [
                    Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("10:01:00"), "enter", "plants", #""fence": "approach_2mi""#),
                    Self.ev(Self.at("10:20:00"), "enter", "bank", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("11:00:00"), "enter", "bank", #""fence": "approach_3mi""#)
                ]))
        #expect(out.lines.map(\.decision) == ["deliver", "suppress", "deliver"])
        #expect(out.lines[0].task == "milk+plants" && out.lines[0].items == 2 && out.lines[0].title == "2 reminders")
        #expect(out.lines[1].reason == "dense_area_cooldown")  // 220 m from the grocery, 20 min later
        #expect(out.lines[2].task == "bank")
    }

    /// 5.5: a snooze holds every nudge of the task until its end; 5.6: mute until unmuted;
    /// 2.5/2.6: complete and delete stop them and take the fences away.
    @Test func nearMeSnoozeMuteCompleteDelete() throws {
        let out = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk, Self.plants],
                events: [
                    Self.ev(Self.at("08:00:00"), "action", "plants", #""action": "snooze_1h""#),
                    Self.ev(Self.at("08:10:00"), "enter", "plants", #""fence": "approach_2mi""#),
                    Self.ev(Self.at("08:20:00"), "enter", "plants", #""fence": "arrival""#),
                    Self.ev(Self.at("09:05:00"), "dwell", "plants", #""fence": "arrival""#),
                    Self.ev(Self.at("10:00:00"), "action", "milk", #""action": "mute""#),
                    Self.ev(Self.at("10:05:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("10:30:00"), "action", "milk", #""action": "unmute""#),
                    Self.ev(Self.at("10:35:00"), "enter", "milk", #""fence": "approach_3mi""#),
                    Self.ev(Self.at("11:00:00"), "action", "plants", #""action": "complete""#),
                    Self.ev(Self.at("11:05:00"), "delete", "milk"),
                    Self.ev(Self.at("11:10:00"), "enter", "milk", #""fence": "approach_1mi""#)
                ]))
        // The deleted task's fence is no longer registered: the OS reports nothing, the engine
        // sees nothing, and the line says so.
        #expect(out.lines.map { $0.reason ?? $0.decision } == ["snoozed", "snoozed", "deliver", "task_muted", "deliver", "not_registered"])
        #expect(out.lines[2].kind == "post_arrival")
        #expect(out.lines[5].task == "milk" && out.lines[5].kind == "approach")
        #expect(out.registeredFences.isEmpty)
    }

    /// 5.7: Do Not Disturb queues the nudge and releases it when it ends.
    @Test func nearMeDoNotDisturbQueues() throws {
        let out = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk],
                events: [
                    #"{"at": "\#(Self.at("09:00:00"))", "type": "dnd", "on": true}"#,
                    Self.ev(Self.at("09:10:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    #"{"at": "\#(Self.at("10:00:00"))", "type": "dnd", "on": false}"#
                ]))
        #expect(out.lines.map(\.decision) == ["queue", "deliver"])
        #expect(out.lines[0].reason == "do_not_disturb")
        #expect(Self.iso(out.lines[1].at) == Self.at("10:02:00"))
    }

    /// 9.1: the six events with properties; 9.5: opting out keeps only essential events.
    @Test func nearMeAnalyticsAndOptOut() throws {
        let events = [
            Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_5mi""#),
            Self.ev(Self.at("10:05:00"), "action", "milk", #""action": "snooze_15m""#),
            Self.ev(Self.at("10:30:00"), "action", "milk", #""action": "complete""#)
        ]
        let out = try Self.replay(Self.scenario("near_me", tasks: [Self.milk], events: events))
        #expect(
            out.analytics.map(\.name) == [
                "task_created", "place_added", "geofence_registered", "geofence_registered",
                "geofence_registered", "nudge_shown", "snooze_selected", "task_completed"
            ])
        #expect(out.analytics[0].properties == ["task_id": "milk", "type": "poiCategory"])
        #expect(out.analytics[6].properties == ["task_id": "milk", "duration": "15m"])
        let quiet = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk], events: events,
                preferences: #"{"analytics_opt_out": true}"#))
        #expect(quiet.analytics.map(\.name) == ["geofence_registered", "geofence_registered", "geofence_registered"])
    }

    /// 7.3: the free tier has 3 active tasks; a fourth is refused, naming the task.
    @Test func freeTierLimit() throws {
        let tasks = (0..<4).map { #"{"id": "t\#($0)", "title": "task \#($0)", "type": "custom", "place": {"lat": 40.7, "lon": -73.9}}"# }
        #expect(throws: ReminderScenario.Error.self) { try Self.replay(Self.scenario("near_me", tasks: tasks, events: [], tier: "free")) }
        do {
            _ = try Self.replay(Self.scenario("near_me", tasks: tasks, events: [], tier: "free"))
        } catch let error as ReminderScenario.Error {
            #expect(error.path == "tasks[3]")
        }
    }

    // MARK: Kwilt (000)

    /// Background: one notification at exactly now + delay; foreground: in-app at once.
    @Test func kwiltExactDelayAndForeground() throws {
        let groceries =
            #"{"id": "groceries", "title": "Buy groceries", "place": {"name": "TJ", "lat": 40.73, "lon": -73.98}, "offer": {"trigger": "arrive"}}"#
        let out = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym, groceries],
                events: [
                    Self.ev(Self.at("07:30:00"), "exit", "gym"),
                    #"{"at": "\#(Self.at("14:00:00"))", "type": "app", "state": "foreground"}"#,
                    Self.ev(Self.at("14:01:00"), "enter", "groceries")
                ]))
        #expect(out.lines.map(\.channel) == ["notification", "in_app"])
        #expect(Self.iso(out.lines[0].at) == Self.at("07:35:00"))
        #expect(Self.iso(out.lines[1].at) == Self.at("14:01:00"))
        #expect(out.lines[0].title == "Mark done?" && out.lines[0].body == "Did you finish ‘Gym workout’?")
        #expect(out.lines[0].actions == ["MARK_DONE", "SNOOZE_15M", "SNOOZE_1H", "DISABLE_ACTIVITY"])
        #expect(out.lines[0].kind == "completion_offer")
    }

    /// A late event still yields its offer, never twice for one event.
    @Test func kwiltLateEventOnce() throws {
        let late = Self.ev(Self.at("07:30:00"), "exit", "gym", #""received_at": "\#(Self.at("08:10:00"))""#)
        let out = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym],
                events: [
                    late, Self.ev(Self.at("07:30:00"), "exit", "gym", #""received_at": "\#(Self.at("08:20:00"))""#)
                ]))
        #expect(out.lines.map { $0.reason ?? $0.decision } == ["deliver", "duplicate_event"])
        #expect(Self.iso(out.lines[0].at) == Self.at("08:10:00"))
        #expect(out.analytics.filter { $0.name == "LocationOfferShown" }.count == 1)
    }

    /// Snooze schedules the offer again at its end, not counted against the cap or spacing; the
    /// cap (2 a local day), the spacing (6 h) and the cooldown (2 h per activity) in the PRD's
    /// order; quiet hours off unless set.
    @Test func kwiltSnoozeReturnsAndRails() throws {
        let other = #"{"id": "read", "title": "Read", "place": {"name": "Library", "lat": 40.6, "lon": -73.9}, "offer": {"trigger": "arrive"}}"#
        let out = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym, other],
                events: [
                    Self.ev(Self.at("01:00:00"), "exit", "gym"),  // 01:05, night: no quiet hours
                    Self.ev(Self.at("01:06:00"), "action", "gym", #""action": "snooze_1h""#),  // returns 02:06
                    Self.ev(Self.at("03:00:00"), "enter", "read"),  // spacing from 01:05
                    Self.ev(Self.at("07:10:00"), "enter", "read"),  // second offer of the day
                    Self.ev(Self.at("08:00:00"), "exit", "gym")  // cooldown: 2 h after 02:06? no: cap
                ]))
        #expect(out.lines.map { $0.reason ?? $0.decision } == ["deliver", "deliver", "global_spacing", "deliver", "daily_cap"])
        #expect(Self.iso(out.lines[1].at) == Self.at("02:06:00"))
        let rails = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym],
                events: [
                    Self.ev(Self.at("12:00:00"), "exit", "gym"), Self.ev(Self.at("13:00:00"), "exit", "gym"),
                    Self.ev(Self.at("22:30:00"), "exit", "gym")
                ],
                preferences: #"{"spacing_s": 0, "quiet_start": "22:00", "quiet_end": "07:00"}"#))
        #expect(rails.lines.map { $0.reason ?? $0.decision } == ["deliver", "task_cooldown", "quiet_hours"])
    }

    /// A trigger an action takes out of a bundle not yet shown, out of the Do-Not-Disturb queue
    /// or out of a delayed offer's wait still gets a line: suppressed, for the action's reason,
    /// at the action's instant; the bundle goes out with what is left.
    @Test func droppedTriggersAreNeverSilent() throws {
        let bundle = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk, Self.plants],
                events: [
                    Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("10:01:00"), "enter", "plants", #""fence": "approach_2mi""#),
                    Self.ev(Self.at("10:01:30"), "action", "milk", #""action": "snooze_1h""#)
                ]))
        #expect(bundle.lines.map { $0.reason ?? $0.decision } == ["snoozed", "deliver"])
        #expect(bundle.lines[0].task == "milk" && Self.iso(bundle.lines[0].at) == Self.at("10:01:30"))
        #expect(bundle.lines[1].task == "plants" && bundle.lines[1].items == 1)
        let queued = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk],
                events: [
                    #"{"at": "\#(Self.at("09:00:00"))", "type": "dnd", "on": true}"#,
                    Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_1mi""#),
                    Self.ev(Self.at("10:30:00"), "action", "milk", #""action": "complete""#),
                    #"{"at": "\#(Self.at("11:00:00"))", "type": "dnd", "on": false}"#
                ]))
        #expect(queued.lines.map { $0.reason ?? $0.decision } == ["do_not_disturb", "already_done"])
        #expect(queued.lines.map(\.decision) == ["queue", "suppress"])
        let delayed = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym],
                events: [
                    Self.ev(Self.at("07:30:00"), "exit", "gym"),
                    Self.ev(Self.at("07:32:00"), "action", "gym", #""action": "disable""#)
                ]))
        // A Near Me bundle emptied by a snooze is never shown: no dense-area cooldown starts, so
        // the bank 220 m away nudges five minutes later.
        let bank = #"{"id": "bank", "title": "deposit check", "type": "poi", "place": {"name": "Bank", "lat": 40.752, "lon": -73.99}}"#
        let emptied = try Self.replay(
            Self.scenario(
                "near_me", tasks: [Self.milk, bank],
                events: [
                    Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_5mi""#),
                    Self.ev(Self.at("10:01:00"), "action", "milk", #""action": "snooze_1h""#),
                    Self.ev(Self.at("10:05:00"), "enter", "bank", #""fence": "approach_5mi""#)
                ]))
        #expect(emptied.lines.map { $0.reason ?? $0.decision } == ["snoozed", "deliver"])
        #expect(delayed.lines.map { $0.reason ?? $0.decision } == ["task_disabled"])
        #expect(delayed.analytics.filter { $0.name == "LocationOfferEligible" }.count == 1)
        #expect(delayed.analytics.contains { $0.name == "LocationOfferSuppressed" && $0.properties["reason"] == "task_disabled" })
    }

    /// Disable turns the rule off and removes its fence from what the app registers.
    @Test func kwiltDisableUnregisters() throws {
        let out = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym],
                events: [
                    Self.ev(Self.at("07:30:00"), "exit", "gym"),
                    Self.ev(Self.at("07:40:00"), "action", "gym", #""action": "disable""#),
                    Self.ev(Self.at("20:00:00"), "exit", "gym")
                ]))
        #expect(out.registeredFences.isEmpty)
        #expect(out.lines.last?.reason == "not_registered" && out.lines.last?.kind == "completion_offer")
        // Not a decision of the engine: no LocationOfferSuppressed for it.
        #expect(!out.analytics.contains { $0.name == "LocationOfferSuppressed" })
        #expect(out.analytics.contains { $0.name == "LocationOfferAction" && $0.properties["action"] == "disable" })
    }

    /// Eligible (trigger, activity id, radius, delay) logged once for an offer queued behind
    /// Do Not Disturb and shown at its end.
    @Test func kwiltEligibleOnceWhenQueued() throws {
        let out = try Self.replay(
            Self.scenario(
                "kwilt", tasks: [Self.gym],
                events: [
                    #"{"at": "\#(Self.at("07:00:00"))", "type": "dnd", "on": true}"#,
                    Self.ev(Self.at("07:30:00"), "exit", "gym"),
                    #"{"at": "\#(Self.at("08:00:00"))", "type": "dnd", "on": false}"#
                ]))
        #expect(out.lines.map(\.decision) == ["queue", "deliver"])
        let eligible = out.analytics.filter { $0.name == "LocationOfferEligible" }
        #expect(eligible.count == 1)
        #expect(eligible.first?.properties == ["trigger": "leave", "activity_id": "gym", "radius_m": "150.0", "delay_s": "300.0"])
        #expect(out.analytics.filter { $0.name == "LocationOfferShown" }.count == 1)
    }

    // MARK: AirFit (004)

    /// A lapse of strictly more than 3 days; one check-in per lapse at the configured local time;
    /// give_me_space gets none.
    @Test func airfitLapseCheckIns() throws {
        func check(_ day: Int, _ absence: String = "light_nudge") -> String {
            #"{"at": "2026-01-\#(day < 10 ? "0" : "")\#(day)T02:00:00Z", "type": "daily_check", "last_active": "2026-01-05T02:00:00Z", "absence": "\#(absence)"}"#
        }
        let out = try Self.replay(
            Self.scenario(
                "airfit", tasks: [], events: [check(8), check(9), check(10)],
                until: "2026-01-12T00:00:00Z", preferences: #"{"check_in_time": "08:30"}"#))
        #expect(out.lines.count == 1)
        #expect(Self.iso(out.lines[0].at) == "2026-01-09T08:30:00Z")
        #expect(out.lines[0].category == "GENERAL_CHECK_IN" && out.lines[0].kind == "check_in" && out.lines[0].task == nil)
        let space = try Self.replay(Self.scenario("airfit", tasks: [], events: [check(9, "give_me_space")], until: "2026-01-12T00:00:00Z"))
        #expect(space.lines.map(\.reason) == ["give_me_space"])
        let configured = try Self.replay(
            Self.scenario(
                "airfit", tasks: [], events: [check(7)], until: "2026-01-12T00:00:00Z",
                preferences: #"{"lapse_days": 1.5}"#))
        #expect(configured.lines.map(\.decision) == ["deliver"])
    }

    // MARK: Errors

    @Test func malformedScenariosNameTheJSONPath() {
        func path(_ json: String) -> String? {
            do { _ = try Self.replay(json); return nil } catch let e as ReminderScenario.Error { return e.path } catch { return "?" }
        }
        let good = Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_5mi""#)
        #expect(
            path(Self.scenario("near_me", tasks: [Self.milk], events: [good, good, good, #"{"at": "10:00", "type": "enter", "task": "milk"}"#]))
                == "events[3].at")
        #expect(path(Self.scenario("near_me", tasks: [Self.milk], events: [Self.ev(Self.at("10:00:00"), "enter", "bread")])) == "events[0].task")
        #expect(
            path(Self.scenario("near_me", tasks: [Self.milk], events: [Self.ev(Self.at("10:00:00"), "enter", "milk", #""fence": "approach_2mi""#)]))
                == "events[0].fence")
        #expect(path(Self.scenario("near_me", tasks: [Self.milk], events: [], preferences: #"{"dailycap": 2}"#)) == "preferences.dailycap")
        #expect(path(Self.scenario("mars", tasks: [], events: [])) == "product")
        #expect(path(Self.scenario("kwilt", tasks: [Self.milk], events: [])) == "tasks[0].offer")
        #expect(
            path(
                #"{"product": "near_me", "events": [], "until": "2026-01-05T00:00:00Z", "tasks": [{"id": "x", "title": "y", "place": {"lat": 91, "lon": 0}}]}"#
            ) == "tasks[0].place.lat")
        #expect(path("{") == "")
    }
}
