import Geofencing

/// A reminder: a title (and optional notes) bound to one place or to a POI category.
///
/// Representation: the Geofencing `PlaceTask` that makes its fences (kind `.poiCategory`
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
    /// The places and tiers (`PlaceTask/id` equals ``id``).
    public var placeTask: PlaceTask
    /// The `{place}` / `{place_or_category}` of the templates: "Home", "the gym", "a pharmacy".
    public var placeLabel: String
    /// True: a daily habit, done means done today in the user's local date. False: done once,
    /// done for good.
    public var isRepeating: Bool
    /// Seconds between two nudges of this task; nil = the preference's default cooldown.
    public var cooldownSeconds: Double?

    /// A task of `kind` at `places` with that kind's default tiers unless `settings` is given.
    public init(
        id: String, title: String, notes: String? = nil, kind: TaskKind, places: [Place],
        placeLabel: String, settings: TierSettings? = nil, isRepeating: Bool = false,
        cooldownSeconds: Double? = nil
    ) {
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
    public init(
        title: String, notes: String? = nil, placeTask: PlaceTask, placeLabel: String,
        isRepeating: Bool = false, cooldownSeconds: Double? = nil
    ) {
        self.id = placeTask.id
        self.title = title
        self.notes = notes
        self.placeTask = placeTask
        self.placeLabel = placeLabel
        self.isRepeating = isRepeating
        self.cooldownSeconds = cooldownSeconds
    }
}
