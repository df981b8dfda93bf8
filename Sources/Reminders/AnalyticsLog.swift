/// The events to send, after the user's choice: with analytics opted out, only essential
/// events are kept and the rest are counted, not sent.
public struct AnalyticsLog: Hashable, Sendable, Codable {
    /// True: only essential events are kept.
    public var optOut: Bool
    /// The events kept, in order.
    public private(set) var events: [AnalyticsEvent] = []
    /// Non-essential events withheld because of the opt-out.
    public private(set) var withheld = 0

    /// An empty log.
    public init(optOut: Bool) { self.optOut = optOut }

    /// Keeps `event`, or counts it as withheld.
    public mutating func record(_ event: AnalyticsEvent) {
        if optOut && !event.isEssential { withheld += 1 } else { events.append(event) }
    }

    /// Records each of `events`.
    public mutating func record(_ events: [AnalyticsEvent]) { for e in events { record(e) } }

    /// The events of a decision, each logged once:
    /// - a completion offer: `LocationOfferEligible` (properties `trigger`, `activity_id`,
    ///   `radius_m`, `delay_s`) when it passes the checks, at its first decision (delivered or
    ///   queued, or withdrawn by an action during its delay; not again at a queue release or a
    ///   snooze's return); `LocationOfferShown` (`channel`) when delivered;
    ///   `LocationOfferSuppressed` (`reason`) when suppressed;
    /// - a delivered nudge or bundle: `nudge_shown` (`kind`, `task_ids`, `tasks`, `channel`);
    /// - a check-in: nothing (AirFit's document names no event).
    /// Suppressed nudges are counted by the engine, not sent.
    public static func events(for decision: ReminderDecision, book: TaskBook, userID: PseudonymousID) -> [AnalyticsEvent] {
        let id = userID.value
        func e(_ name: String, _ p: [String: String]) -> AnalyticsEvent { AnalyticsEvent(name: name, time: decision.time, userID: id, properties: p) }
        func eligible() -> [AnalyticsEvent] {
            guard decision.origin == .trigger || decision.origin == .withdrawn, let entry = book.entry(decision.item.slot),
                case .offer(let rule) = entry.item
            else { return [] }
            return [
                e(
                    AnalyticsName.locationOfferEligible,
                    [
                        "trigger": rule.trigger.rawValue, "activity_id": rule.id,
                        "radius_m": "\(rule.radiusMeters)", "delay_s": "\(rule.delaySeconds)"
                    ])
            ]
        }
        switch (decision.outcome, decision.kind) {
        case (.deliver(let channel), .offer):
            return eligible() + [
                e(AnalyticsName.locationOfferShown, ["channel": channel.rawValue, "activity_id": book.entry(decision.item.slot)?.item.id ?? ""])
            ]
        case (.deliver, .checkIn):
            return []
        case (.deliver(let channel), _):
            let ids = decision.items.compactMap { book.entry($0.slot)?.item.id }
            return [
                e(
                    AnalyticsName.nudgeShown,
                    [
                        "kind": decision.kind.description, "task_ids": ids.joined(separator: ","),
                        "tasks": "\(decision.items.count)", "channel": channel.rawValue
                    ])
            ]
        case (.suppress(let reason), .offer):
            return (decision.origin == .withdrawn ? eligible() : []) + [
                e(AnalyticsName.locationOfferSuppressed, ["reason": reason.rawValue, "activity_id": book.entry(decision.item.slot)?.item.id ?? ""])
            ]
        case (.queue, .offer):
            return eligible()
        default:
            return []
        }
    }

    /// The events of a user's action at `time`: on a completion offer `LocationOfferAction`
    /// (`action`: `mark_done`, `snooze`, `disable` or `dismiss`; `duration` for a snooze); on a
    /// task `task_completed` or `snooze_selected` (`duration`: `15m`, `1h` or `today`).
    public static func events(for action: ReminderAction, book: TaskBook, userID: PseudonymousID, time: Double) -> [AnalyticsEvent] {
        let slot: Int32, name: String, duration: SnoozeDuration?
        switch action {
        case .complete(let s): (slot, name, duration) = (s, "mark_done", nil)
        case .snooze(let s, let d): (slot, name, duration) = (s, "snooze", d)
        case .disable(let s): (slot, name, duration) = (s, "disable", nil)
        case .dismiss(let s): (slot, name, duration) = (s, "dismiss", nil)
        default: return []
        }
        guard let entry = book.entry(slot) else { return [] }
        var p = ["task_id": entry.item.id]
        if let duration { p["duration"] = duration.rawValue }
        switch entry.item {
        case .offer(let rule):
            p = ["activity_id": rule.id, "action": name].merging(duration.map { ["duration": $0.rawValue] } ?? [:]) { a, _ in a }
            return [AnalyticsEvent(name: AnalyticsName.locationOfferAction, time: time, userID: userID.value, properties: p)]
        case .task:
            switch name {
            case "mark_done": return [AnalyticsEvent(name: AnalyticsName.taskCompleted, time: time, userID: userID.value, properties: p)]
            case "snooze": return [AnalyticsEvent(name: AnalyticsName.snoozeSelected, time: time, userID: userID.value, properties: p)]
            default: return []
            }
        }
    }

    /// `task_created` (`task_id`, `type`) for a new task, then `place_added` (`place_id`) for
    /// each of its places not in `knownPlaceIDs` (which it extends).
    public static func events(
        forNewTask task: ReminderTask, knownPlaceIDs: inout Set<String>, userID: PseudonymousID,
        time: Double
    ) -> [AnalyticsEvent] {
        var out = [
            AnalyticsEvent(
                name: AnalyticsName.taskCreated, time: time, userID: userID.value,
                properties: ["task_id": task.id, "type": task.placeTask.kind.rawValue])
        ]
        for place in task.placeTask.places where knownPlaceIDs.insert(place.id).inserted {
            out.append(AnalyticsEvent(name: AnalyticsName.placeAdded, time: time, userID: userID.value, properties: ["place_id": place.id]))
        }
        return out
    }

    /// `geofence_registered` (`task_id`, `fence`: the tier name, `radius_m`) for a fence handed to
    /// the OS (essential: kept when the user opts out).
    public static func geofenceRegistered(
        taskID: String, tier: String, radiusMeters: Double, userID: PseudonymousID,
        time: Double
    ) -> AnalyticsEvent {
        AnalyticsEvent(
            name: AnalyticsName.geofenceRegistered, time: time, userID: userID.value,
            properties: ["task_id": taskID, "fence": tier, "radius_m": "\(radiusMeters)"])
    }
}
