import Foundation
import Geofencing
import Testing

@testable import Reminders

/// A scenario with these parts (Near Me, UTC, one grocery task unless told otherwise).
private func scenario(
    product: String = "near_me", zone: String = "UTC", tier: String = "premium", preferences: String = "{}",
    tasks: [String] = [#"{"id": "milk", "title": "buy milk", "type": "poi", "place": {"name": "Corner Grocery", "lat": 40.75, "lon": -73.99}}"#],
    events: [String] = [], until: String = "2026-01-05T23:00:00Z"
) -> String {
    """
    {"product": "\(product)", "time_zone": "\(zone)", "tier": "\(tier)", "preferences": \(preferences),
     "tasks": [\(tasks.joined(separator: ", "))], "events": [\(events.joined(separator: ", "))], "until": "\(until)"}
    """
}

private func event(_ type: String, _ extra: String) -> String {
    #"{"at": "2026-01-05T10:00:00Z", "type": "\#(type)", \#(extra)}"#
}

/// Every malformed scenario names the JSON path of its first problem; well-formed preferences
/// land in the product's own settings; quiet hours print as HH:mm-HH:mm; a task book survives
/// a Codable round trip with its policies.
@Suite struct ReminderScenarioErrorTests {
    @Test(arguments: [
        (scenario(zone: "Mars/Olympus_Mons"), "time_zone", "unknown IANA time zone 'Mars/Olympus_Mons'"),
        (scenario(tier: "gold"), "tier", "expected free or premium, found 'gold'"),
        (
            scenario(tasks: [
                #"{"id": "a", "title": "x", "place": {"lat": 1, "lon": 1}}"#, #"{"id": "a", "title": "y", "place": {"lat": 2, "lon": 2}}"#
            ]), "tasks[1].id", "task id 'a' is used twice"
        ),
        (scenario(events: [event("dnd", #""on": true"#)], until: "2026-01-05T09:00:00Z"), "events[0].at", "is after 'until'"),
        (
            scenario(
                events: [event("enter", #""task": "milk", "fence": "approach_5mi", "received_at": "2026-01-05T10:20:00Z""#)],
                until: "2026-01-05T10:10:00Z"), "events[0].received_at", "is after 'until'"
        ),
        (scenario(preferences: #"{"daily_cap": 2.5}"#), "preferences.daily_cap", "expected a whole number >= 0, found 2.5"),
        // Finite days whose seconds are not (1e305 days is more than Double.greatestFiniteMagnitude seconds).
        (scenario(preferences: #"{"lapse_days": 1e305}"#), "preferences.lapse_days", "expected a number of days > 0"),
        (scenario(preferences: #"{"quiet_start": "22:00"}"#), "preferences.quiet_end", "quiet_start and quiet_end go together"),
        (scenario(preferences: #"{"quiet_start": "25:00", "quiet_end": "07:00"}"#), "preferences.quiet_start", "expected a 24-hour time"),
        (scenario(preferences: #"{"check_in_time": "7pm"}"#), "preferences.check_in_time", "expected a 24-hour time HH:mm, found '7pm'"),
        (scenario(preferences: #"{"absence": "sometimes"}"#), "preferences.absence", "expected give_me_space, light_nudge or check_in_on_me"),
        (
            scenario(tasks: [#"{"id": "a", "title": "x", "type": "shop", "place": {"lat": 1, "lon": 1}}"#]), "tasks[0].type",
            "expected poi, home, work or custom"
        ),
        (
            scenario(product: "kwilt", tasks: [#"{"id": "a", "title": "x", "place": {"lat": 1, "lon": 1}, "offer": {"trigger": "linger"}}"#]),
            "tasks[0].offer.trigger", "expected arrive or leave, found 'linger'"
        ),
        (scenario(events: [event("action", #""task": "milk", "action": "dance""#)]), "events[0].action", "expected one of "),
        (scenario(events: [event("app", #""state": "asleep""#)]), "events[0].state", "expected foreground or background, found 'asleep'"),
        (
            scenario(events: [event("teleport", #""task": "milk""#)]), "events[0].type",
            "expected enter, exit, dwell, action, delete, app, dnd or daily_check"
        ),
        // A field of the wrong JSON type names the type found.
        (scenario(preferences: #"{"locale": null}"#), "preferences.locale", "expected a string, found null"),
        (scenario(preferences: #"{"enabled": [true]}"#), "preferences.enabled", "expected true or false, found an array"),
        (scenario(preferences: #"{"locale": {}}"#), "preferences.locale", "expected a string, found an object"),
        (scenario(preferences: #"{"enabled": 1}"#), "preferences.enabled", "expected true or false, found a number"),
        (scenario(preferences: #"{"locale": false}"#), "preferences.locale", "expected a string, found a boolean"),
        (scenario(preferences: #"{"enabled": "yes"}"#), "preferences.enabled", "expected true or false, found a string")
    ])
    func aMalformedScenarioNamesItsPath(json: String, path: String, message: String) {
        do {
            _ = try ReminderScenario.parse(Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.hasPrefix(message), "\(error)")
            // `PATH: MESSAGE`, then where the value starts when it is present in the text.
            let place = error.line.map { " (line \($0), column \(error.column ?? 0))" } ?? ""
            #expect(error.description == "\(path): \(error.message)" + place)
        }
    }

    /// The same preference keys set Near Me's proximity settings, or Kwilt's offer settings.
    @Test func preferencesLandInTheProductsOwnSettings() throws {
        let prefs = #"{"daily_cap": 4, "spacing_s": 600, "cooldown_s": 3600, "quiet_start": "22:30", "quiet_end": "07:00"}"#
        let nearMe = try ReminderScenario.parse(Data(scenario(preferences: prefs).utf8))
        #expect(nearMe.preferences.proximity.dailyCap == 4)
        #expect(nearMe.preferences.proximity.minimumSpacingSeconds == 600)
        #expect(nearMe.preferences.proximity.defaultCooldownSeconds == 3600)
        #expect(nearMe.preferences.proximity.quietHours?.description == "22:30-07:00")
        let kwiltTask =
            #"{"id": "gym", "title": "Gym workout", "place": {"lat": 40.74, "lon": -73.99}, "offer": {"trigger": "leave", "delay_s": 300}}"#
        let kwilt = try ReminderScenario.parse(Data(scenario(product: "kwilt", preferences: prefs, tasks: [kwiltTask]).utf8))
        #expect(kwilt.preferences.offers.dailyCap == 4)
        #expect(kwilt.preferences.offers.minimumSpacingSeconds == 600)
        #expect(kwilt.preferences.offers.defaultCooldownSeconds == 3600)
        #expect(kwilt.preferences.offers.quietHours == (try QuietHours(from: "22:30", to: "07:00")))
        // The other product's settings keep their defaults.
        #expect(kwilt.preferences.proximity.dailyCap == ReminderPreferences().proximity.dailyCap)
        #expect(nearMe.preferences.offers.dailyCap == ReminderPreferences().offers.dailyCap)
    }

    @Test func quietHoursPrintAndRefuseMinutesOutsideTheDay() throws {
        #expect(try QuietHours(start: 5, end: 13 * 60 + 45).description == "00:05-13:45")
        #expect(try QuietHours(from: "9:00", to: "21:30").description == "09:00-21:30")
        #expect(throws: ReminderError.invalidPreference(field: "quiet_hours", message: "minutes must be in 0..<1440, got 0 and 1440")) {
            try QuietHours(start: 0, end: 1440)
        }
        #expect(throws: ReminderError.self) { try QuietHours(start: -1, end: 10) }
    }

    /// Encoded and decoded, a book keeps its entries, tier, slots and fences, and its policies
    /// are rebuilt (a disabled rule still makes no fence).
    @Test func aTaskBookSurvivesACodableRoundTrip() throws {
        var book = TaskBook(tier: .free)
        try book.add(ReminderTask(id: "gym", title: "t gym", kind: .customPlace, places: [World.gym], placeLabel: "the gym"))
        try book.add(ReminderTask(id: "rx", title: "t rx", kind: .customPlace, places: [World.pharmacy], placeLabel: "the pharmacy"))
        try book.add(CompletionOfferRule(id: "r", activity: "Gym workout", place: World.gym, placeLabel: "the gym", trigger: .leave))
        try book.setRuleEnabled(false, id: "r")
        try book.setStatus(.completed, of: "rx")
        let fences = try book.geofences()
        var copy = try JSONDecoder().decode(TaskBook.self, from: JSONEncoder().encode(book))
        #expect(copy.tier == .free)
        #expect(copy.activeTaskCount == book.activeTaskCount)
        #expect(["gym", "rx", "r"].map { copy.slot(of: $0) } == ["gym", "rx", "r"].map { book.slot(of: $0) })
        let copied = try copy.geofences()
        #expect(copied.map(\.id) == fences.map(\.id) && copied.map(\.place.id) == fences.map(\.place.id))
        // Only the gym task's rings: the completed task and the disabled rule have none.
        #expect(!copied.isEmpty && Set(copied.map(\.place.id)) == [World.gym.id])
        #expect(throws: (any Error).self) { try JSONDecoder().decode(TaskBook.self, from: Data(#"{"tier": "free"}"#.utf8)) }
    }
}
