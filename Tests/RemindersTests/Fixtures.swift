import Foundation
import Geofencing
@testable import Reminders

/// Shared test world: one POI-category task, one home task, one leave rule, a fixed epoch.
enum World {
    /// 2026-01-05T00:00:00Z, a Monday (`date -u -d 2026-01-05 +%s`).
    static let epoch = 1_767_571_200.0
    static let pharmacy = try! Place(id: "pharmacy-1", latitude: 40.7500, longitude: -73.9900)
    static let home = try! Place(id: "home", latitude: 40.7000, longitude: -73.9500)
    static let gym = try! Place(id: "gym", latitude: 40.7300, longitude: -73.9800)

    /// Slots: 0 pharmacy (one-shot, POI rings 5/3/1 mi = fences 0, 1, 2), 1 home (repeating:
    /// approach 2 mi, arrival, dwell = fences 3, 4, 5), 2 gym leave rule (fence 6, 300 s delay).
    static func book(tier: SubscriptionTier = .premium) -> (TaskBook, [Geofence]) {
        var book = TaskBook(tier: tier)
        try! book.add(
            ReminderTask(
                id: "rx", title: "pick up prescription", kind: .poiCategory, places: [pharmacy],
                placeLabel: "a pharmacy"))
        try! book.add(
            ReminderTask(
                id: "plants", title: "water the plants", kind: .home, places: [home],
                placeLabel: "Home", isRepeating: true))
        try! book.add(
            CompletionOfferRule(
                id: "gym-offer", activity: "Gym workout", place: gym, placeLabel: "the gym",
                trigger: .leave, delaySeconds: 300))
        let fences = try! book.geofences()
        return (book, fences)
    }

    static func zone(_ id: String) -> TimeZone { TimeZone(identifier: id)! }

    /// Preferences in `zone` with the same rails (no quiet hours unless given) for offers and
    /// nudges: the chain's checks exercised on both products.
    static func preferences(
        zone: String = "UTC", quiet: QuietHours? = nil, cap: Int = 2,
        spacing: Double = 21_600, cooldown: Double = 7_200
    ) -> ReminderPreferences {
        var p = ReminderPreferences()
        p.timeZone = self.zone(zone)
        p.offers.quietHours = quiet
        p.offers.dailyCap = cap
        p.offers.minimumSpacingSeconds = spacing
        p.offers.defaultCooldownSeconds = cooldown
        p.proximity.quietHours = quiet
        p.proximity.dailyCap = cap
        p.proximity.minimumSpacingSeconds = spacing
        p.proximity.defaultCooldownSeconds = cooldown
        return p
    }

    /// Local date and minute by Foundation's Calendar: the independent oracle.
    static func calendarLocal(_ t: Double, _ zone: TimeZone) -> (date: String, minute: Int) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: t))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return ("\(c.year!)-\(two(c.month!))-\(two(c.day!))", c.hour! * 60 + c.minute!)
    }
}

extension ReminderEngine {
    /// Handles one event, then advances to each wake time within the hour; returns every decision.
    mutating func run(
        _ event: TransitionEvent, _ book: TaskBook, _ context: AppContext = .background,
        now: Double? = nil
    ) -> [ReminderDecision] {
        var out: [ReminderDecision] = []
        handle(event, in: book, context: context, now: now ?? event.time, into: &out)
        while let wake = nextWakeTime, wake <= (now ?? event.time) + 3_600 {
            advance(to: wake, in: book, context: context, into: &out)
        }
        return out
    }
}

func enter(_ fence: Int32, at t: Double) -> TransitionEvent { TransitionEvent(device: 0, fence: fence, kind: .enter, time: t) }
func exit(_ fence: Int32, at t: Double) -> TransitionEvent { TransitionEvent(device: 0, fence: fence, kind: .exit, time: t) }
