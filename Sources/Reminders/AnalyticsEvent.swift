/// One analytics or operational event: an exact name, when (Unix seconds), the user's
/// pseudonymous id, string properties, and whether it is essential (kept when the user opts out
/// of analytics).
public struct AnalyticsEvent: Hashable, Sendable, Codable {
    public var name: String
    public var time: Double
    /// A ``PseudonymousID`` value, never a raw account id.
    public var userID: String
    public var properties: [String: String]

    public init(name: String, time: Double, userID: String, properties: [String: String] = [:]) {
        self.name = name
        self.time = time
        self.userID = userID
        self.properties = properties
    }

    /// Operational events the product needs to run (notification bookkeeping and fence
    /// registration): `notification_scheduled`, `notification_cancelled`,
    /// `notification_fired_estimated`, `geofence_registered`. Everything else is analytics.
    public var isEssential: Bool { AnalyticsName.essential.contains(name) }
}

/// The exact event names and the `notification_type` values.
public enum AnalyticsName {
    public static let notificationScheduled = "notification_scheduled"
    public static let notificationCancelled = "notification_cancelled"
    /// Foreground only: the OS tells the app only while it is on screen.
    public static let notificationReceived = "notification_received"
    public static let notificationOpened = "notification_opened"
    /// Counted by ``NotificationLedger/reconcile(pendingIDs:now:clock:userID:)``.
    public static let notificationFiredEstimated = "notification_fired_estimated"
    public static let locationOfferEligible = "LocationOfferEligible"
    /// Property `reason`: a ``SuppressionReason`` raw value.
    public static let locationOfferSuppressed = "LocationOfferSuppressed"
    /// Property `channel`: a ``DeliveryChannel`` raw value.
    public static let locationOfferShown = "LocationOfferShown"
    /// Property `action`: a notification action identifier.
    public static let locationOfferAction = "LocationOfferAction"
    public static let taskCreated = "task_created"
    public static let placeAdded = "place_added"
    public static let geofenceRegistered = "geofence_registered"
    public static let nudgeShown = "nudge_shown"
    public static let taskCompleted = "task_completed"
    public static let snoozeSelected = "snooze_selected"

    static let essential: Set<String> = [notificationScheduled, notificationCancelled, notificationFiredEstimated, geofenceRegistered]
}

/// What a scheduled notification is for: the `notification_type` property.
public enum NotificationType: String, Hashable, Sendable, Codable, CaseIterable {
    case activityReminder
    case dailyShowUp
    case streak
    case reactivation
    case locationCompletionOffer
    case nudge
}

/// A stable pseudonym for a user: `u_` and 16 hex digits of FNV-1a 64 over salt, a 0 byte and
/// the account id. The same (salt, id) always gives the same pseudonym; without the salt it
/// cannot be tied back to the account. Analytics carry only this.
public struct PseudonymousID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let value: String

    public init(accountID: String, salt: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(salt.utf8) + [0] + Array(accountID.utf8) {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        value = "u_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    public var description: String { value }
}

/// The events to send, after the user's choice: with analytics opted out, only essential
/// events are kept and the rest are counted, not sent.
public struct AnalyticsLog: Hashable, Sendable, Codable {
    public var optOut: Bool
    public private(set) var events: [AnalyticsEvent] = []
    /// Non-essential events withheld because of the opt-out.
    public private(set) var withheld = 0

    public init(optOut: Bool) { self.optOut = optOut }

    public mutating func record(_ event: AnalyticsEvent) {
        if optOut && !event.isEssential { withheld += 1 } else { events.append(event) }
    }

    public mutating func record(_ events: [AnalyticsEvent]) { for e in events { record(e) } }

    /// The events of a decision: for a completion offer `LocationOfferEligible` then
    /// `LocationOfferShown` (delivered), `LocationOfferEligible` (queued) or
    /// `LocationOfferSuppressed` with its reason; for a delivered nudge or bundle `nudge_shown`
    /// with its kind and task count. Suppressed nudges are counted by the engine, not sent.
    public static func events(for decision: NudgeDecision, userID: PseudonymousID) -> [AnalyticsEvent] {
        let id = userID.value
        func e(_ name: String, _ p: [String: String]) -> AnalyticsEvent { AnalyticsEvent(name: name, time: decision.time, userID: id, properties: p) }
        switch (decision.outcome, decision.kind) {
        case (.deliver(let channel), .offer):
            return [e(AnalyticsName.locationOfferEligible, [:]), e(AnalyticsName.locationOfferShown, ["channel": channel.rawValue])]
        case (.deliver(let channel), _):
            return [e(AnalyticsName.nudgeShown, ["kind": decision.kind.description, "tasks": "\(decision.items.count)", "channel": channel.rawValue])]
        case (.suppress(let reason), .offer):
            return [e(AnalyticsName.locationOfferSuppressed, ["reason": reason.rawValue])]
        case (.queue, .offer):
            return [e(AnalyticsName.locationOfferEligible, ["queued": "do_not_disturb"])]
        default:
            return []
        }
    }
}
