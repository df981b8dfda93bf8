/// The subscription tier that sets the active-task limit.
public enum SubscriptionTier: String, Hashable, Sendable, Codable {
    /// At most ``activeTaskLimit`` = 3 active tasks.
    case free
    /// No limit.
    case premium

    /// Active tasks allowed (nil = unlimited).
    public var activeTaskLimit: Int? { self == .free ? 3 : nil }
}
