/// The user's answer to "if you stop using the app for a while...".
public enum AbsencePreference: String, Hashable, Sendable, Codable, CaseIterable {
    /// No check-in at all.
    case giveMeSpace = "give_me_space"
    /// One short check-in per lapse.
    case lightNudge = "light_nudge"
    /// One warmer, personal check-in per lapse.
    case checkInOnMe = "check_in_on_me"
}
