/// How proximity nudges (Near Me's approach, arrival and post-arrival reminders) are paced:
/// "precision + persistence" without spam.
///
/// Always on: each tier fence nudges once per trip, escalating (a ring nudges only when nearer
/// than the last nudged ring of the trip; arrival and post-arrival follow; leaving the widest
/// ring ends the trip); triggers within ``bundleWindowSeconds`` become one notification; a
/// *different* place within the ``denseArea`` radius waits its cooldown; an OS event more than
/// ``maxEventAgeSeconds`` late is stale. Off unless set (the user's own limits): a daily cap,
/// a global spacing, a per-task cooldown and quiet hours.
public struct ProximityNudgePolicy: Hashable, Sendable, Codable {
    /// Triggers due within this many seconds of the first become one notification, shown at
    /// the window's end. Default 120.
    public var bundleWindowSeconds = 120.0
    /// See ``DenseAreaCooldown``. Default 1,000 m, 30 minutes.
    public var denseArea = DenseAreaCooldown()
    /// An OS event reported more than this many seconds after it happened is stale
    /// (`.staleEvent`): an approach nudge an hour late is wrong. Default 900.
    public var maxEventAgeSeconds = 900.0
    /// Nudges shown per user-local date (a bundle counts once); nil = no cap (default).
    public var dailyCap: Int?
    /// Seconds between any two nudges shown, >= 0. Default 0 (none).
    public var minimumSpacingSeconds = 0.0
    /// Seconds between two nudges of one task unless the task sets its own, >= 0. Default 0
    /// (none: a per-task cooldown would stop the escalation).
    public var defaultCooldownSeconds = 0.0
    /// Local quiet hours (nil = none, the default).
    public var quietHours: QuietHours?

    /// The defaults.
    public init() {}
}
