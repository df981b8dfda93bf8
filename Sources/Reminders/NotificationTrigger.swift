/// When a scheduled notification fires: once at an instant, or every day at a local time.
public enum NotificationTrigger: Hashable, Sendable, Codable {
    /// Unix seconds.
    case at(Double)
    /// Minutes since local midnight, `0..<1440`, in the user's zone.
    case daily(minute: Int)
}
