/// One analytics or operational event: an exact name, when (Unix seconds), the user's
/// pseudonymous id, string properties, and whether it is essential (kept when the user opts out
/// of analytics).
public struct AnalyticsEvent: Hashable, Sendable, Codable {
    /// One of ``AnalyticsName``.
    public var name: String
    /// Unix seconds.
    public var time: Double
    /// A ``PseudonymousID`` value, never a raw account id.
    public var userID: String
    /// String properties (`reason`, `channel`, `notification_type`...).
    public var properties: [String: String]

    /// An event; `userID` should be a ``PseudonymousID`` value.
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
    /// A request handed to the OS.
    public static let notificationScheduled = "notification_scheduled"
    /// A request withdrawn.
    public static let notificationCancelled = "notification_cancelled"
    /// Foreground only: the OS tells the app only while it is on screen.
    public static let notificationReceived = "notification_received"
    /// The user opened a notification or tapped one of its actions.
    public static let notificationOpened = "notification_opened"
    /// Counted by ``NotificationLedger/reconcile(pendingIDs:now:clock:userID:)``.
    public static let notificationFiredEstimated = "notification_fired_estimated"
    /// A completion offer passed the eligibility chain.
    public static let locationOfferEligible = "LocationOfferEligible"
    /// Property `reason`: a ``SuppressionReason`` raw value.
    public static let locationOfferSuppressed = "LocationOfferSuppressed"
    /// Property `channel`: a ``DeliveryChannel`` raw value.
    public static let locationOfferShown = "LocationOfferShown"
    /// Property `action`: a notification action identifier.
    public static let locationOfferAction = "LocationOfferAction"
    /// A task was added.
    public static let taskCreated = "task_created"
    /// A place was added.
    public static let placeAdded = "place_added"
    /// A region was handed to the OS.
    public static let geofenceRegistered = "geofence_registered"
    /// A nudge or bundle was shown (properties `kind`, `tasks`, `channel`).
    public static let nudgeShown = "nudge_shown"
    /// A task was marked done.
    public static let taskCompleted = "task_completed"
    /// A snooze was chosen.
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
    /// `u_` and 16 lower-case hex digits.
    public let value: String

    /// The pseudonym of `accountID` under `salt`.
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
    /// True: only essential events are kept.
    public var optOut: Bool
    /// The events kept, in order.
    public private(set) var events: [AnalyticsEvent] = []
    /// Non-essential events withheld because of the opt-out.
    public private(set) var withheld = 0

    /// An empty log.
    public init(optOut: Bool) { self.optOut = optOut }

    /// Keeps `event`, or counts it as withheld.
    public mutating func record(_ event: AnalyticsEvent) {
        if optOut && !event.isEssential { withheld += 1 } else { events.append(event) }
    }

    /// Records each of `events`.
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
