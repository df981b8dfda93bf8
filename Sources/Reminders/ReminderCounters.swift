/// What a ``ReminderEngine`` did with its input.
public struct ReminderCounters: Hashable, Sendable, Codable {
    /// Events handed to it.
    public var events = 0
    /// Events whose transition triggers nothing (approach-ring exits, leave-rule entries...).
    public var ignored = 0
    /// Events or calls with a NaN or infinite time (no decision).
    public var invalidTimes = 0
    /// Decisions made, by outcome (a bundle is one delivery).
    public var delivered = 0
    /// Suppressions.
    public var suppressed = 0
    /// Do-Not-Disturb queueings.
    public var queued = 0

    /// All zero.
    public init() {}
}
