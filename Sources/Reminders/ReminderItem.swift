/// One task's part of a delivered nudge.
public struct ReminderItem: Hashable, Sendable, Codable {
    /// The entry's slot in the ``TaskBook``.
    public var slot: Int32
    /// Approach, arrival, post-arrival or offer.
    public var kind: ReminderKind
    /// The triggering fence (-1 for a check-in).
    public var fence: Int32
    /// Distance the text names, meters (the ring's radius for an approach).
    public var distanceMeters: Double
    /// When the triggering transition happened, Unix seconds.
    public var eventTime: Double
}
