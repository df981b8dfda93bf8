/// A button on a notification: its identifier (what the ``ActionRouter`` receives), its title,
/// and whether tapping it opens the app or is destructive.
public struct NotificationActionSpec: Hashable, Sendable, Codable {
    /// What the OS reports when it is tapped (or the category's identifier).
    public var identifier: String
    /// The button's label.
    public var title: String
    /// Tapping it brings the app to the foreground.
    public var opensApp: Bool
    /// Shown as destructive (red).
    public var isDestructive: Bool

    /// What the OS reports when it is tapped (or the category's identifier).
    public init(identifier: String, title: String, opensApp: Bool = false, isDestructive: Bool = false) {
        self.identifier = identifier
        self.title = title
        self.opensApp = opensApp
        self.isDestructive = isDestructive
    }
}

/// A notification category: an identifier and its buttons, in display order.
public struct NotificationCategory: Hashable, Sendable, Codable {
    /// What the OS reports when it is tapped (or the category's identifier).
    public var identifier: String
    /// Buttons in display order.
    public var actions: [NotificationActionSpec]
}

/// The categories and actions the app registers with the OS, as data (an adapter turns them
/// into `UNNotificationCategory` values).
public enum NotificationCatalog {
    /// Mark the task(s) done.
    public static let markDone = NotificationActionSpec(identifier: "MARK_DONE", title: "Mark done")
    /// Snooze 15 minutes.
    public static let snooze15 = NotificationActionSpec(identifier: "SNOOZE_15M", title: "Snooze 15 min")
    /// Snooze one hour.
    public static let snooze1h = NotificationActionSpec(identifier: "SNOOZE_1H", title: "Snooze 1 hour")
    /// Snooze until local midnight.
    public static let snoozeToday = NotificationActionSpec(identifier: "SNOOZE_TODAY", title: "Not today")
    /// Mute the task until unmuted.
    public static let mute = NotificationActionSpec(identifier: "MUTE", title: "Mute", isDestructive: true)
    /// Disable the activity's rule.
    public static let disable = NotificationActionSpec(identifier: "DISABLE_ACTIVITY", title: "Disable for this activity", isDestructive: true)
    /// Show the place on a map.
    public static let openMap = NotificationActionSpec(identifier: "OPEN_MAP", title: "Open map", opensApp: true)
    /// Start the activity now.
    public static let startWorkout = NotificationActionSpec(identifier: "START_WORKOUT", title: "Start workout", opensApp: true)
    /// Skip the activity today.
    public static let skipToday = NotificationActionSpec(identifier: "SKIP_TODAY", title: "Skip today")
    /// Record how the user feels.
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
