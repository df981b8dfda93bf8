/// Routes a tapped action (identifier plus the notification's user info) to an ``AppIntent``.
public enum ActionRouter {
    /// The OS identifiers for tapping the notification and for dismissing it.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The OS identifier for dismissing the notification.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    /// The intent for `actionIdentifier`, with the task ids from `userInfo["task_ids"]`. A tap
    /// on a notification that names no task (a check-in) opens the Dashboard; AirFit's buttons
    /// and a dismissal need no task.
    /// - Throws: ``ReminderError/unknownAction(_:)`` for an identifier not in the catalog;
    ///   ``ReminderError/missingTaskID(action:)`` when a task action's user info names no task.
    public static func route(actionIdentifier: String, userInfo: [String: String]) throws(ReminderError) -> AppIntent {
        let ids = (userInfo["task_ids"] ?? "").split(separator: ",").map(String.init)
        switch actionIdentifier {
        case defaultActionIdentifier where ids.isEmpty: return .openDashboard
        case dismissActionIdentifier, NotificationCatalog.startWorkout.identifier, NotificationCatalog.skipToday.identifier,
            NotificationCatalog.logEnergy.identifier:
            break
        default:
            guard !ids.isEmpty else {
                let known = NotificationCatalog.all.contains { $0.actionIdentifiers.contains(actionIdentifier) }
                if !known && actionIdentifier != defaultActionIdentifier { throw .unknownAction(actionIdentifier) }
                throw .missingTaskID(action: actionIdentifier)
            }
        }
        switch actionIdentifier {
        case NotificationCatalog.complete.identifier, NotificationCatalog.markDone.identifier: return .complete(taskIDs: ids)
        case NotificationCatalog.snooze15.identifier: return .snooze(taskIDs: ids, .fifteenMinutes)
        case NotificationCatalog.snooze1h.identifier: return .snooze(taskIDs: ids, .oneHour)
        case NotificationCatalog.snoozeToday.identifier: return .snooze(taskIDs: ids, .restOfDay)
        case NotificationCatalog.mute.identifier: return .mute(taskIDs: ids)
        case NotificationCatalog.disable.identifier: return .disable(taskIDs: ids)
        case NotificationCatalog.openMap.identifier: return .openMap(taskIDs: ids)
        case NotificationCatalog.startWorkout.identifier: return .startWorkout(taskIDs: ids)
        case NotificationCatalog.skipToday.identifier: return .skipToday(taskIDs: ids)
        case NotificationCatalog.logEnergy.identifier: return .logEnergy(taskIDs: ids)
        case defaultActionIdentifier: return .open(taskIDs: ids)
        case dismissActionIdentifier: return .dismiss(taskIDs: ids)
        default: throw .unknownAction(actionIdentifier)
        }
    }
}
