/// Broken promises among delivered nudges; every count must be 0. Counted per delivered
/// notification (a bundle is one), except `afterCompletion` and `withinCooldown`, which count
/// per task in it.
public struct NudgeInvariants: Hashable, Sendable {
    /// Deliveries past the device's cap on their local date.
    public var overCap = 0
    /// Deliveries inside the device's quiet hours.
    public var inQuietHours = 0
    /// Tasks delivered after the device completed them.
    public var afterCompletion = 0
    /// Tasks delivered within their cooldown of the same task's previous delivery.
    public var withinCooldown = 0
    /// Deliveries within the global spacing of the device's previous one.
    public var withinSpacing = 0
    /// Rows whose `local_date` is not the device's date at `t` (checker only).
    public var wrongLocalDate = 0

    /// All zero.
    public init() {}

    /// The sum of all counts.
    public var total: Int { overCap + inQuietHours + afterCompletion + withinCooldown + withinSpacing + wrongLocalDate }
}
