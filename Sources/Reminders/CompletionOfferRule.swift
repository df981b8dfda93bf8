import Geofencing

/// When a completion offer is made: on arriving at or on leaving the rule's place.
public enum OfferTrigger: String, Hashable, Sendable, Codable {
    case arrive
    case leave
}

/// "When I leave the gym, ask me whether I did my workout": a completion offer per activity.
///
/// Representation: the activity's name (the `{activity}` of "Did you finish ‘{activity}’?"),
/// a place (label, center, radius in meters, default 150), the trigger (arrive or leave) with
/// an optional delay in seconds (leave -> offer 5 minutes later), a cooldown in seconds (nil =
/// the preference's default), `onlyIfIncomplete` (default true: no offer once the activity is
/// done; done means done today in the user's local date when `isRepeating`, the default), and
/// `isEnabled`.
public struct CompletionOfferRule: Hashable, Sendable, Codable {
    /// Caller's stable id.
    public var id: String
    /// The activity: "Gym workout".
    public var activity: String
    /// Where.
    public var place: Place
    /// The place's name for the user: "the gym".
    public var placeLabel: String
    /// Radius of the trigger fence, meters (> 0). Default 150.
    public var radiusMeters: Double
    /// Arrive or leave.
    public var trigger: OfferTrigger
    /// Seconds from the transition to the offer, >= 0. Default 0.
    public var delaySeconds: Double
    /// Seconds between two offers of this activity; nil = the preference's default cooldown.
    public var cooldownSeconds: Double?
    /// No offer once the activity is done (today, when repeating). Default true.
    public var onlyIfIncomplete: Bool
    /// False: the rule makes no offers (and no fence). Default true.
    public var isEnabled: Bool
    /// A daily activity (default true).
    public var isRepeating: Bool

    /// A rule; see the type's comment for the defaults.
    public init(
        id: String, activity: String, place: Place, placeLabel: String, radiusMeters: Double = 150,
        trigger: OfferTrigger, delaySeconds: Double = 0, cooldownSeconds: Double? = nil,
        onlyIfIncomplete: Bool = true, isEnabled: Bool = true, isRepeating: Bool = true
    ) {
        self.id = id
        self.activity = activity
        self.place = place
        self.placeLabel = placeLabel
        self.radiusMeters = radiusMeters
        self.trigger = trigger
        self.delaySeconds = delaySeconds
        self.cooldownSeconds = cooldownSeconds
        self.onlyIfIncomplete = onlyIfIncomplete
        self.isEnabled = isEnabled
        self.isRepeating = isRepeating
    }

    /// The Geofencing task behind the rule's one trigger fence.
    public var placeTask: PlaceTask {
        PlaceTask(
            id: id, kind: trigger == .arrive ? .arriveTrigger : .leaveTrigger, places: [place],
            settings: TierSettings(triggerRadiusMeters: radiusMeters, delaySeconds: delaySeconds > 0 ? delaySeconds : nil))
    }
}
