/// A notification handed to the OS.
public struct NotificationRequest: Hashable, Sendable, Codable {
    /// Unique per request; cancel by it.
    public var id: String
    /// The `notification_type`.
    public var type: NotificationType
    /// What it shows.
    public var content: NotificationContent
    /// When it fires.
    public var trigger: NotificationTrigger

    /// A request.
    public init(id: String, type: NotificationType, content: NotificationContent, trigger: NotificationTrigger) {
        self.id = id
        self.type = type
        self.content = content
        self.trigger = trigger
    }
}
