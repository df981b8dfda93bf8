import Geofencing
import Reminders
import Testing

/// The Reminders example of README.md, kept verbatim so it cannot rot; the printed lines are
/// checked below.
@Suite struct ReadmeRemindersExampleTests {
    @Test func readmeRemindersExample() throws {
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        // --- README example begins ---
        var book = TaskBook(tier: .free)  // 3 active tasks at most
        let pharmacy = try Place(id: "pharmacy", latitude: 40.7527, longitude: -73.9772)
        let gym = try Place(id: "gym", latitude: 40.7410, longitude: -73.9897)
        try book.add(
            ReminderTask(
                id: "rx", title: "pick up prescription", kind: .poiCategory,
                places: [pharmacy], placeLabel: "a pharmacy"))
        try book.add(
            CompletionOfferRule(
                id: "workout", activity: "Gym workout", place: gym,
                placeLabel: "the gym", trigger: .leave, delaySeconds: 300))
        let fences = try book.geofences()  // rx: 5, 3, 1-mile rings (ids 0-2); gym: leave fence (3)

        var preferences = ReminderPreferences()  // offers: 2 a day, 6 h apart, 2 h per activity
        try preferences.setTimeZone(identifier: "America/New_York")
        preferences.proximity.dailyCap = 3  // the user's own limit: three nudges a local day
        preferences.proximity.quietHours = try QuietHours(from: "22:00", to: "07:00")
        var engine = try ReminderEngine(preferences: preferences)

        let nineAM = 1_767_621_600.0  // Mon 2026-01-05 09:00 in New York, Unix seconds
        let events = [  // (fence, transition, minutes after 09:00)
            (1, TransitionKind.enter, 0.0),  // the 3-mile ring of the pharmacy
            (2, .enter, 1),  // the 1-mile ring, same approach
            (3, .exit, 540),  // leaving the gym at 18:00
            (3, .exit, 540),  // the same OS event, delivered again
            (0, .exit, 600), (0, .enter, 790)  // a second approach, at 22:10: quiet hours
        ]
        var decisions: [ReminderDecision] = []
        for (fence, kind, minutes) in events {
            let t = nineAM + minutes * 60
            let event = TransitionEvent(device: 0, fence: Int32(fence), kind: kind, time: t)
            engine.handle(event, in: book, context: .background, now: t, into: &decisions)
        }
        engine.advance(to: nineAM + 86_400, in: book, context: .background, into: &decisions)
        for d in decisions.sorted(by: { $0.time < $1.time }) {
            print(d.explanation(in: book))
            if let text = ReminderText.content(for: d, in: book, unit: preferences.distanceUnit) {
                print("  \(text.title) | \(text.body)")
            }
        }
        // suppressed (already_nudged): approach for 'rx' via fence 2 at 2026-01-05
        // delivered by notification at 2026-01-05: approach for 'rx' via fence 2
        //   Pick up prescription | You're 1 mi from a pharmacy — pick up prescription?
        // suppressed (duplicate_event): offer for 'workout' via fence 3 at 2026-01-05
        // delivered by notification at 2026-01-05: offer for 'workout' via fence 3
        //   Mark done? | Did you finish ‘Gym workout’?
        // suppressed (quiet_hours): approach for 'rx' via fence 0 at 2026-01-05
        // --- README example ends ---

        #expect(fences.count == 4)
        #expect(
            printed == [
                "suppressed (already_nudged): approach for 'rx' via fence 2 at 2026-01-05",
                "delivered by notification at 2026-01-05: approach for 'rx' via fence 2",
                "  Pick up prescription | You're 1 mi from a pharmacy — pick up prescription?",
                "suppressed (duplicate_event): offer for 'workout' via fence 3 at 2026-01-05",
                "delivered by notification at 2026-01-05: offer for 'workout' via fence 3",
                "  Mark done? | Did you finish ‘Gym workout’?",
                "suppressed (quiet_hours): approach for 'rx' via fence 0 at 2026-01-05"
            ])
        // When: the pharmacy nudge at the end of its 2-minute bundle window, the offer exactly 5
        // minutes after leaving the gym.
        #expect(decisions.filter(\.isDelivered).map(\.time) == [nineAM + 120, nineAM + 540 * 60 + 300])
    }
}
