/// The words of a nudge, from the templates:
/// - approach: `You're {distance} from {place_or_category} — {task}?`
/// - arrival: `Arriving at {place} — {task} now?`
/// - post-arrival: `Still need to {task}?`
/// - completion offer: title `Mark done?`, body `Did you finish ‘{activity}’?`, actions Mark done /
///   Snooze / Disable for this activity; its user info also carries the Kwilt PRD's payload,
///   `type` = `locationCompletionOffer`, `activityId` (the rule's id) and `trigger` (`arrive` or
///   `leave`).
/// - bundle: title `{n} reminders`, the items' lines one per line, in trigger order.
/// A single nudge's title is its task's title with the first letter capitalised. Text is built
/// only for delivered decisions, never on the decision path.
public enum ReminderText {
    /// A distance for people: miles (`0.8 mi`, `3 mi`, `12 mi`) or kilometers (`1.2 km`,
    /// `15 km`, `450 m` below 1 km, to the nearest 50 m). One decimal below 10, whole numbers
    /// from 10, a trailing `.0` dropped; never less than `0.1 mi` or `50 m`.
    public static func distance(_ meters: Double, unit: DistanceUnit) -> String {
        func oneDecimal(_ v: Double) -> String {
            let r = (v * 10).rounded() / 10
            return r >= 9.95 ? "\(Int(v.rounded()))" : (r == r.rounded() ? "\(Int(r))" : "\(r)")
        }
        switch unit {
        case .miles:
            return oneDecimal(max(meters / 1609.344, 0.1)) + " mi"
        case .kilometers:
            if meters < 950 { return "\(max(50, Int((meters / 50).rounded()) * 50)) m" }
            return oneDecimal(meters / 1000) + " km"
        }
    }

    /// The one-line text of one item; nil when the slot is not in `book`.
    public static func line(for item: ReminderItem, in book: TaskBook, unit: DistanceUnit) -> String? {
        guard let entry = book.entry(item.slot) else { return nil }
        switch entry.item {
        case .task(let task):
            switch item.kind {
            case .arrival: return "Arriving at \(task.placeLabel) — \(task.title) now?"
            case .postArrival: return "Still need to \(task.title)?"
            default:
                guard item.distanceMeters.isFinite, item.distanceMeters > 0 else { return "You're near \(task.placeLabel) — \(task.title)?" }
                return "You're \(distance(item.distanceMeters, unit: unit)) from \(task.placeLabel) — \(task.title)?"
            }
        case .offer(let rule):
            return "Did you finish ‘\(rule.activity)’?"
        }
    }

    /// The notification for a delivered decision; nil for a suppression or queueing, or when a
    /// slot is not in `book`.
    public static func content(for decision: ReminderDecision, in book: TaskBook, unit: DistanceUnit) -> NotificationContent? {
        guard decision.isDelivered, let first = decision.items.first, let entry = book.entry(first.slot) else { return nil }
        let ids = decision.items.compactMap { book.entry($0.slot)?.item.id }
        let info = ["task_ids": ids.joined(separator: ","), "kind": decision.kind.description]
        if decision.items.count > 1 {
            let lines = decision.items.compactMap { line(for: $0, in: book, unit: unit) }
            return NotificationContent(
                title: "\(decision.items.count) reminders", body: lines.joined(separator: "\n"),
                categoryIdentifier: NotificationCatalog.bundle.identifier, userInfo: info)
        }
        guard let body = line(for: first, in: book, unit: unit) else { return nil }
        switch entry.item {
        case .offer(let rule):
            // The PRD's payload: { type: 'locationCompletionOffer', activityId, trigger }.
            var payload = info
            payload["type"] = NotificationType.locationCompletionOffer.rawValue
            payload["activityId"] = rule.id
            payload["trigger"] = rule.trigger.rawValue
            return NotificationContent(
                title: "Mark done?", body: body,
                categoryIdentifier: NotificationCatalog.completionOffer.identifier, userInfo: payload)
        case .task(let task):
            return NotificationContent(
                title: task.title.prefix(1).uppercased() + task.title.dropFirst(), body: body,
                categoryIdentifier: NotificationCatalog.nudge.identifier, userInfo: info)
        }
    }
}
