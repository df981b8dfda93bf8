import Geofencing

/// A reminder: a title (and optional notes) bound to one place or to a POI category.
///
/// Representation: the Geofencing ``PlaceTask`` that makes its fences (kind `.poiCategory`
/// with one set of rings per chosen POI, `.home`, `.work` or `.customPlace`, with that kind's
/// default tiers: POI 5/3/1-mile approach rings; home/work 2-mile approach + 150 m arrival + 5-min
/// post-arrival dwell; custom place 5-mile approach + arrival + post-arrival), and the words the
/// nudge text uses. Arrive/leave triggers are ``CompletionOfferRule``s, not tasks.
///
/// Invariants (checked by ``TaskBook/add(_:)-(ReminderTask)``): non-empty id and title, a
/// place-bound kind, and fences that Geofencing accepts.
public struct ReminderTask: Hashable, Sendable, Codable {
    /// Caller's stable id (a UUID string...). Not shown to the user.
    public var id: String
    /// What to do: the `{task}` of the templates ("pick up prescription").
    public var title: String
    /// Free text for the app; not used in decisions.
    public var notes: String?
    /// The places and tiers (``PlaceTask/id`` equals ``id``).
    public var placeTask: PlaceTask
    /// The `{place}` / `{place_or_category}` of the templates: "Home", "the gym", "a pharmacy".
    public var placeLabel: String
    /// True: a daily habit, done means done today in the user's local date. False: done once,
    /// done for good.
    public var isRepeating: Bool
    /// Seconds between two nudges of this task; nil = the preference's default cooldown.
    public var cooldownSeconds: Double?

    /// A task of `kind` at `places` with that kind's default tiers unless `settings` is given.
    public init(id: String, title: String, notes: String? = nil, kind: TaskKind, places: [Place],
                placeLabel: String, settings: TierSettings? = nil, isRepeating: Bool = false,
                cooldownSeconds: Double? = nil) {
        self.id = id
        self.title = title
        self.notes = notes
        self.placeTask = PlaceTask(id: id, kind: kind, places: places, settings: settings)
        self.placeLabel = placeLabel
        self.isRepeating = isRepeating
        self.cooldownSeconds = cooldownSeconds
    }

    /// A task over an existing Geofencing task (for example `POICategoryTask.task` from a
    /// category search: "a pharmacy" near home or work); the id is `placeTask.id`.
    public init(title: String, notes: String? = nil, placeTask: PlaceTask, placeLabel: String,
                isRepeating: Bool = false, cooldownSeconds: Double? = nil) {
        self.id = placeTask.id
        self.title = title
        self.notes = notes
        self.placeTask = placeTask
        self.placeLabel = placeLabel
        self.isRepeating = isRepeating
        self.cooldownSeconds = cooldownSeconds
    }
}

/// When a completion offer is made: on arriving at or on leaving the rule's place.
public enum OfferTrigger: String, Hashable, Sendable, Codable {
    case arrive
    case leave
}

/// "When I leave the gym, ask me whether I did my workout": a completion offer per activity.
///
/// Representation: the activity's name (the `{activity}` of "Did you finish '{activity}'?"),
/// a place (label, center, radius in metres, default 150), the trigger (arrive or leave) with
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
    /// Radius of the trigger fence, metres (> 0). Default 150.
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
    public init(id: String, activity: String, place: Place, placeLabel: String, radiusMeters: Double = 150,
                trigger: OfferTrigger, delaySeconds: Double = 0, cooldownSeconds: Double? = nil,
                onlyIfIncomplete: Bool = true, isEnabled: Bool = true, isRepeating: Bool = true) {
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
        PlaceTask(id: id, kind: trigger == .arrive ? .arriveTrigger : .leaveTrigger, places: [place],
                  settings: TierSettings(triggerRadiusMeters: radiusMeters, delaySeconds: delaySeconds > 0 ? delaySeconds : nil))
    }
}
