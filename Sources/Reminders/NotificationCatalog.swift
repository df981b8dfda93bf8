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

/// A notification category: an identifier, its buttons in display order, and whether the app
/// hears of a dismissal (`UNNotificationCategoryOptions.customDismissAction`).
public struct NotificationCategory: Hashable, Sendable, Codable {
    /// What the OS reports when it is tapped (or the category's identifier).
    public var identifier: String
    /// Buttons in display order.
    public var actions: [NotificationActionSpec]
    /// The OS reports a dismissal (``ActionRouter/dismissActionIdentifier``).
    public var customDismissAction: Bool

    /// A category; dismissals reported by default.
    public init(identifier: String, actions: [NotificationActionSpec], customDismissAction: Bool = true) {
        self.identifier = identifier
        self.actions = actions
        self.customDismissAction = customDismissAction
    }

    /// The action identifiers in display order.
    public var actionIdentifiers: [String] { actions.map(\.identifier) }
}

/// The categories and actions the app registers with the OS, as data (an adapter turns them
/// into `UNNotificationCategory` values), one set per product document:
/// - proximity nudges (Near Me): Complete, Snooze 15m / 1h / Today, Open Map, Mute on every
///   nudge and bundle;
/// - completion offers (Kwilt): Mark done, Snooze 15m / 1h, Disable for this Activity;
/// - engagement (AirFit): `WORKOUT_REMINDER` (Start Workout, Skip Today), `ENERGY_LOG_REMINDER`
///   (Log Energy) and `GENERAL_CHECK_IN` (no buttons; a tap opens the Dashboard).
/// Every category reports dismissals.
public enum NotificationCatalog {
    /// Near Me: the task is done.
    public static let complete = NotificationActionSpec(identifier: "COMPLETE", title: "Complete")
    /// Kwilt: mark the activity done.
    public static let markDone = NotificationActionSpec(identifier: "MARK_DONE", title: "Mark done")
    /// Snooze 15 minutes.
    public static let snooze15 = NotificationActionSpec(identifier: "SNOOZE_15M", title: "Snooze 15m")
    /// Snooze one hour.
    public static let snooze1h = NotificationActionSpec(identifier: "SNOOZE_1H", title: "Snooze 1h")
    /// Snooze until local midnight.
    public static let snoozeToday = NotificationActionSpec(identifier: "SNOOZE_TODAY", title: "Snooze Today")
    /// Mute the task until unmuted.
    public static let mute = NotificationActionSpec(identifier: "MUTE", title: "Mute", isDestructive: true)
    /// Disable the activity's rule.
    public static let disable = NotificationActionSpec(
        identifier: "DISABLE_ACTIVITY", title: "Disable for this Activity",
        isDestructive: true)
    /// Show the place on a map.
    public static let openMap = NotificationActionSpec(identifier: "OPEN_MAP", title: "Open Map", opensApp: true)
    /// AirFit: start the planned workout now.
    public static let startWorkout = NotificationActionSpec(identifier: "START_WORKOUT_ACTION", title: "Start Workout", opensApp: true)
    /// AirFit: skip today's workout.
    public static let skipToday = NotificationActionSpec(identifier: "SKIP_TODAY_ACTION", title: "Skip Today")
    /// AirFit: record how the user feels.
    public static let logEnergy = NotificationActionSpec(identifier: "LOG_ENERGY_ACTION", title: "Log Energy", opensApp: true)

    /// Approach, arrival and post-arrival nudges.
    public static let nudge = NotificationCategory(
        identifier: "NUDGE",
        actions: [complete, snooze15, snooze1h, snoozeToday, openMap, mute])
    /// Several nudges in one notification: actions apply to every task listed.
    public static let bundle = NotificationCategory(
        identifier: "NUDGE_BUNDLE",
        actions: [complete, snooze15, snooze1h, snoozeToday, openMap, mute])
    /// "Mark done?": Mark done / Snooze / Disable for this Activity.
    public static let completionOffer = NotificationCategory(
        identifier: "LOCATION_COMPLETION_OFFER",
        actions: [markDone, snooze15, snooze1h, disable])
    /// AirFit: a planned workout.
    public static let workoutReminder = NotificationCategory(identifier: "WORKOUT_REMINDER", actions: [startWorkout, skipToday])
    /// AirFit: log energy.
    public static let energyLogReminder = NotificationCategory(identifier: "ENERGY_LOG_REMINDER", actions: [logEnergy])
    /// AirFit: a lapse check-in.
    public static let checkIn = NotificationCategory(identifier: "GENERAL_CHECK_IN", actions: [])

    /// Every category, to register once at launch.
    public static let all = [nudge, bundle, completionOffer, workoutReminder, energyLogReminder, checkIn]
}
