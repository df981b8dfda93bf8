import Foundation

/// One user's reminder settings. Times in seconds, distances in metres.
///
/// Defaults (each stated on its property): enabled, notifications required, 2 nudges a local
/// day, 6 h between any two nudges, 2 h between two nudges of one task, quiet 22:00-07:00, UTC,
/// a 2-minute bundle window, events older than 15 minutes ignored, miles for US/UK locales.
/// ``validate()`` checks every field and names the bad one.
public struct ReminderPreferences: Hashable, Sendable, Codable {
    /// Master switch; false suppresses everything with `.globallyDisabled`. Default true.
    public var isEnabled = true
    /// When notification permission is missing and the app is in the background: true (default)
    /// suppresses the nudge (`.notificationsOff`); false keeps it for the in-app inbox (channel
    /// `.inApp`, shown when the app next opens). In the foreground an in-app offer is always allowed.
    public var requiresNotifications = true
    /// Nudges shown per user-local date, >= 0 (a bundle counts once). Default 2.
    public var dailyCap = 2
    /// Seconds between any two nudges shown, >= 0. Default 21,600 (6 h).
    public var minimumSpacingSeconds = 21_600.0
    /// Seconds between two nudges of one task unless the task sets its own, >= 0. Default 7,200 (2 h).
    public var defaultCooldownSeconds = 7_200.0
    /// Local quiet hours (nil = none). Default 22:00-07:00.
    public var quietHours: QuietHours? = try! QuietHours(start: 22 * 60, end: 7 * 60)
    /// The user's zone: local dates and quiet hours are read in it. Default UTC.
    public var timeZone = TimeZone(identifier: "UTC")!
    /// All nudges snoozed until this instant (Unix seconds; nil = not snoozed).
    public var snoozedUntil: Double?
    /// Do-Not-Disturb / Focus periods: nudges due inside one are queued until it ends.
    public var doNotDisturb: [DoNotDisturbWindow] = []
    /// See ``DenseAreaCooldown``. Default 1,000 m, 30 minutes.
    public var denseArea = DenseAreaCooldown()
    /// Triggers due within this many seconds of the first become one notification. Default 120.
    public var bundleWindowSeconds = 120.0
    /// An OS event reported more than this many seconds after it happened is stale
    /// (`.staleEvent`): an approach nudge an hour late is wrong. Default 900.
    public var maxEventAgeSeconds = 900.0
    /// Locale identifier (`en_US`, `en-GB`, `fi_FI`...): sets ``distanceUnit``. Default `en_US`.
    public var localeIdentifier = "en_US"
    /// Miles or kilometres, from the locale's region (see ``DistanceUnit/init(localeIdentifier:)``).
    public var distanceUnit: DistanceUnit { DistanceUnit(localeIdentifier: localeIdentifier) }
    /// True: only essential operational analytics events are recorded. Default false.
    public var analyticsOptOut = false
    /// What the user wants when they stop using the app. Default `.lightNudge`.
    public var absence = AbsencePreference.lightNudge
    /// Seconds without activity before a lapse check-in, > 0. Default 259,200 (3 days).
    public var lapseSeconds = 259_200.0

    /// The defaults.
    public init() {}

    /// Sets ``timeZone`` from an IANA name (`America/New_York`).
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` naming `time_zone` for a
    ///   name the system's time-zone database does not know.
    public mutating func setTimeZone(identifier: String) throws(ReminderError) {
        guard let zone = TimeZone(identifier: identifier) else {
            throw .invalidPreference(field: "time_zone", message: "unknown IANA time zone '\(identifier)'")
        }
        timeZone = zone
    }

    /// Checks every field.
    /// - Throws: ``ReminderError/invalidPreference(field:message:)`` naming the field.
    public func validate() throws(ReminderError) {
        guard dailyCap >= 0 else { throw .invalidPreference(field: "daily_cap", message: "must be >= 0, got \(dailyCap)") }
        for (name, v) in [("spacing_s", minimumSpacingSeconds), ("cooldown_s", defaultCooldownSeconds),
                          ("bundle_window_s", bundleWindowSeconds), ("max_event_age_s", maxEventAgeSeconds),
                          ("dense_area_radius_m", denseArea.radiusMeters), ("dense_area_cooldown_s", denseArea.cooldownSeconds)]
        where !(v.isFinite && v >= 0) {
            throw .invalidPreference(field: name, message: "must be finite and >= 0, got \(v)")
        }
        guard lapseSeconds.isFinite, lapseSeconds > 0 else {
            throw .invalidPreference(field: "lapse_s", message: "must be finite and > 0, got \(lapseSeconds)")
        }
        if let s = snoozedUntil, s.isNaN { throw .invalidPreference(field: "snoozed_until", message: "is NaN") }
    }
}
