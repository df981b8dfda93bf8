import Foundation

/// One user's reminder settings: what every product shares (the switch, permissions, zone,
/// Do-Not-Disturb, locale) and one policy per product. Times in seconds, distances in meters.
///
/// - ``offers``: completion offers (Kwilt): cap 2 a local day, 6 h spacing, 2 h per activity.
/// - ``proximity``: proximity nudges (Near Me): escalation per trip, bundling, dense areas.
/// - ``checkIns``: lapse check-ins (AirFit): strictly more than 3 days away, shown at 09:00.
///
/// ``validate()`` checks every field and names the bad one.
public struct ReminderPreferences: Hashable, Sendable, Codable {
    /// Master switch; false suppresses everything with `.globallyDisabled`. Default true.
    public var isEnabled = true
    /// When notification permission is missing and the app is in the background: true (default)
    /// suppresses the reminder (`.notificationsOff`); false keeps it for the in-app inbox (channel
    /// `.inApp`, shown when the app next opens). In the foreground an in-app offer is always allowed.
    public var requiresNotifications = true
    /// The user's zone: local dates and quiet hours are read in it. Default UTC.
    public var timeZone = TimeZone(identifier: "UTC")!
    /// All reminders snoozed until this instant (Unix seconds; nil = not snoozed).
    public var snoozedUntil: Double?
    /// Do-Not-Disturb / Focus periods: reminders due inside one are queued until it ends.
    public var doNotDisturb: [DoNotDisturbWindow] = []
    /// Locale identifier (`en_US`, `en-GB`, `fi_FI`...): sets ``distanceUnit``. Default `en_US`.
    public var localeIdentifier = "en_US"
    /// Miles or kilometers, from the locale's region (see ``DistanceUnit/init(localeIdentifier:)``).
    public var distanceUnit: DistanceUnit { DistanceUnit(localeIdentifier: localeIdentifier) }
    /// Completion offers' safety rails.
    public var offers = CompletionOfferPolicy()
    /// Proximity nudges' pacing.
    public var proximity = ProximityNudgePolicy()
    /// Lapse check-ins.
    public var checkIns = LapseCheckInPolicy()

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
        guard offers.dailyCap >= 0 else {
            throw .invalidPreference(field: "offer_daily_cap", message: "must be >= 0, got \(offers.dailyCap)")
        }
        if let cap = proximity.dailyCap, cap < 0 {
            throw .invalidPreference(field: "nudge_daily_cap", message: "must be >= 0, got \(cap)")
        }
        for (name, v) in [
            ("offer_spacing_s", offers.minimumSpacingSeconds), ("offer_cooldown_s", offers.defaultCooldownSeconds),
            ("nudge_spacing_s", proximity.minimumSpacingSeconds), ("nudge_cooldown_s", proximity.defaultCooldownSeconds),
            ("bundle_window_s", proximity.bundleWindowSeconds), ("max_event_age_s", proximity.maxEventAgeSeconds),
            ("dense_area_radius_m", proximity.denseArea.radiusMeters),
            ("dense_area_cooldown_s", proximity.denseArea.cooldownSeconds)
        ]
        where !(v.isFinite && v >= 0) {
            throw .invalidPreference(field: name, message: "must be finite and >= 0, got \(v)")
        }
        guard checkIns.lapseSeconds.isFinite, checkIns.lapseSeconds > 0 else {
            throw .invalidPreference(field: "lapse_s", message: "must be finite and > 0, got \(checkIns.lapseSeconds)")
        }
        guard (0..<1440).contains(checkIns.checkInMinute) else {
            throw .invalidPreference(field: "check_in_time", message: "must be a minute of the day in 0..<1440, got \(checkIns.checkInMinute)")
        }
        if let s = snoozedUntil, s.isNaN { throw .invalidPreference(field: "snoozed_until", message: "is NaN") }
    }
}
