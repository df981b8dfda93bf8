/// What the app should do when an action button is tapped.
public enum AppIntent: Hashable, Sendable {
    case complete(taskIDs: [String])
    case snooze(taskIDs: [String], SnoozeDuration)
    case mute(taskIDs: [String])
    case disable(taskIDs: [String])
    case openMap(taskIDs: [String])
    case startWorkout(taskIDs: [String])
    case skipToday(taskIDs: [String])
    case logEnergy(taskIDs: [String])
    /// The notification itself was tapped.
    case open(taskIDs: [String])
    /// A check-in's body was tapped: open the app's main screen (AirFit's Dashboard).
    case openDashboard
    /// Swiped away.
    case dismiss(taskIDs: [String])
}
