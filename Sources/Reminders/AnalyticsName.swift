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
    /// Counted by ``NotificationLedger/reconcile(pendingIDs:now:converter:userID:)``.
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
