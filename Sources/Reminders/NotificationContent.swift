/// What a notification shows: title, body, the category that gives it its action buttons
/// (see ``NotificationCatalog``), a thread for grouping, and string user info that carries the
/// task ids back when an action is tapped.
public struct NotificationContent: Hashable, Sendable, Codable {
    /// The first line.
    public var title: String
    /// The text; a bundle lists one line per task.
    public var body: String
    /// A ``NotificationCategory/identifier``.
    public var categoryIdentifier: String
    /// Groups the app's notifications (default `reminders`).
    public var threadIdentifier: String
    /// `task_ids`: the entries' ids joined by `,`; `kind`: the ``ReminderKind``; a completion
    /// offer adds `type` (`locationCompletionOffer`), `activityId` and `trigger`.
    public var userInfo: [String: String]
    /// The sound it plays (default: the system's default sound).
    public var sound: NotificationSound

    /// A notification's sound.
    public enum NotificationSound: String, Hashable, Sendable, Codable {
        /// The system's default notification sound.
        case `default`
        /// Silent.
        case none
    }

    /// Content with the given fields.
    public init(
        title: String, body: String, categoryIdentifier: String, threadIdentifier: String = "reminders",
        userInfo: [String: String] = [:], sound: NotificationSound = .default
    ) {
        self.title = title
        self.body = body
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.userInfo = userInfo
        self.sound = sound
    }
}
