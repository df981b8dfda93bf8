/// Why a trigger produced no nudge. The raw value is the `reason` column of the decisions file.
///
/// The first three are event filters, applied before the chain: they say the trigger is not a
/// new occasion. The rest are the eligibility chain, checked in declaration order; the first
/// that fails is the reason. Do-Not-Disturb is not a suppression: the nudge is queued (see
/// ``ReminderDecision/Outcome/queue(until:)``).
public enum SuppressionReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The same OS event again (same fence, transition and time), or one older than the task's
    /// last event (unless the caller's clock was set back).
    case duplicateEvent = "duplicate_event"
    /// Reported more than ``ProximityNudgePolicy/maxEventAgeSeconds`` after it happened.
    case staleEvent = "stale_event"
    /// The task already has a nudge in this approach (until its widest ring is left) or in the
    /// open bundle (the more specific or nearer trigger replaces it there).
    case alreadyNudged = "already_nudged"
    /// ``ReminderPreferences/isEnabled`` is false.
    case globallyDisabled = "globally_disabled"
    /// No location permission.
    case locationPermissionMissing = "location_permission_missing"
    /// Notifications not allowed and the app is not in the foreground.
    case notificationsOff = "notifications_off"
    /// The fence is bound to no task.
    case taskMissing = "task_missing"
    /// The task was deleted.
    case taskDeleted = "task_deleted"
    /// The user muted the task.
    case taskMuted = "task_muted"
    /// The rule is disabled (in the book, or by the "disable" action).
    case taskDisabled = "task_disabled"
    /// Done (today, for a repeating task or rule).
    case alreadyDone = "already_done"
    /// The task, or all nudges, snoozed.
    case snoozed
    /// Within the task's cooldown since its last nudge.
    case taskCooldown = "task_cooldown"
    /// The local date's cap is reached.
    case dailyCap = "daily_cap"
    /// Within the global spacing since the last nudge.
    case globalSpacing = "global_spacing"
    /// Within the dense-area cooldown of a nearby place's nudge.
    case denseAreaCooldown = "dense_area_cooldown"
    /// Inside local quiet hours.
    case quietHours = "quiet_hours"
    /// A lapse check-in for a user who chose `give_me_space` (logged, not shown).
    case userPrefersSpace = "give_me_space"
    /// A lapse check-in withdrawn because the user came back to the app after it was decided
    /// and before it was shown (``ReminderEngine/markActive(at:)``).
    case userReturned = "user_returned"
}
