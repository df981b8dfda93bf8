/// Where a delivered nudge is shown.
public enum DeliveryChannel: String, Hashable, Sendable, Codable {
    /// A local notification.
    case notification
    /// Inside the app (foreground, or the inbox when notifications are off and not required).
    case inApp = "in_app"
}
