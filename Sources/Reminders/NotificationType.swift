/// What a scheduled notification is for: the `notification_type` property.
public enum NotificationType: String, Hashable, Sendable, Codable, CaseIterable {
    case activityReminder
    case dailyShowUp
    case streak
    case reactivation
    case locationCompletionOffer
    case nudge
}
