/// A button on a notification: its identifier (what the ``ActionRouter`` receives), its title,
/// and whether tapping it opens the app or is destructive.
public struct NotificationActionSpec: Hashable, Sendable, Codable {
    public var identifier: String
    public var title: String
    public var opensApp: Bool
    public var isDestructive: Bool

    public init(identifier: String, title: String, opensApp: Bool = false, isDestructive: Bool = false) {
        self.identifier = identifier
        self.title = title
        self.opensApp = opensApp
        self.isDestructive = isDestructive
    }
}

/// A notification category: an identifier and its buttons, in display order.
public struct NotificationCategory: Hashable, Sendable, Codable {
    public var identifier: String
    public var actions: [NotificationActionSpec]
}

/// The categories and actions the app registers with the OS, as data (an adapter turns them
/// into `UNNotificationCategory` values).
public enum NotificationCatalog {
    public static let markDone = NotificationActionSpec(identifier: "MARK_DONE", title: "Mark done")
    public static let snooze15 = NotificationActionSpec(identifier: "SNOOZE_15M", title: "Snooze 15 min")
    public static let snooze1h = NotificationActionSpec(identifier: "SNOOZE_1H", title: "Snooze 1 hour")
    public static let snoozeToday = NotificationActionSpec(identifier: "SNOOZE_TODAY", title: "Not today")
    public static let mute = NotificationActionSpec(identifier: "MUTE", title: "Mute", isDestructive: true)
    public static let disable = NotificationActionSpec(identifier: "DISABLE_ACTIVITY", title: "Disable for this activity", isDestructive: true)
    public static let openMap = NotificationActionSpec(identifier: "OPEN_MAP", title: "Open map", opensApp: true)
    public static let startWorkout = NotificationActionSpec(identifier: "START_WORKOUT", title: "Start workout", opensApp: true)
    public static let skipToday = NotificationActionSpec(identifier: "SKIP_TODAY", title: "Skip today")
    public static let logEnergy = NotificationActionSpec(identifier: "LOG_ENERGY", title: "Log energy", opensApp: true)

    /// Approach, arrival and post-arrival nudges.
    public static let nudge = NotificationCategory(identifier: "NUDGE", actions: [markDone, snooze1h, openMap, mute])
    /// "Mark done?": Mark done / Snooze / Disable for this activity.
    public static let completionOffer = NotificationCategory(identifier: "LOCATION_COMPLETION_OFFER",
                                                             actions: [markDone, snooze15, disable])
    /// Several nudges in one notification: actions apply to every task listed.
    public static let bundle = NotificationCategory(identifier: "NUDGE_BUNDLE", actions: [markDone, snoozeToday])
    /// A daily activity reminder.
    public static let activityReminder = NotificationCategory(identifier: "ACTIVITY_REMINDER",
                                                              actions: [startWorkout, skipToday, logEnergy])
    /// A lapse check-in.
    public static let checkIn = NotificationCategory(identifier: "CHECK_IN", actions: [openMap])

    /// Every category, to register once at launch.
    public static let all = [nudge, completionOffer, bundle, activityReminder, checkIn]
}
