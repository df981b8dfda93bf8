/// The safety rails of completion offers (the Kwilt PRD's `LocationOfferPreferences`), checked
/// in the PRD's order after the global switch, the permissions and the activity's state.
///
/// Defaults: 2 offers per user-local date, 6 h between any two offers, 2 h between two offers
/// of one activity, no quiet hours (the PRD's quiet hours are optional and off unless set).
/// An offer is never bundled: in the background it is one one-shot notification at exactly the
/// transition time plus the rule's delay; in the foreground it is shown in-app at that moment.
/// An offer snoozed for 15 minutes or an hour returns at the snooze's end without counting again
/// against cap or spacing; one snoozed for the rest of the day does not return.
public struct CompletionOfferPolicy: Hashable, Sendable, Codable {
    /// Offers shown per user-local date, >= 0. Default 2.
    public var dailyCap = 2
    /// Seconds between any two offers shown, >= 0. Default 21,600 (6 h).
    public var minimumSpacingSeconds = 21_600.0
    /// Seconds between two offers of one activity unless its rule sets its own, >= 0. Default
    /// 7,200 (2 h).
    public var defaultCooldownSeconds = 7_200.0
    /// Local quiet hours (nil = none, the default).
    public var quietHours: QuietHours?

    /// The defaults.
    public init() {}
}
