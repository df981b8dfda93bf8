import Geodesy

/// The kinds of place-bound task, each with its default tiers (see ``TierSettings/defaults(for:)``).
public enum TaskKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// "When I'm near a pharmacy": one set of approach rings (5, 3, 1 miles) per chosen POI.
    case poiCategory
    /// Home: approach at 2 miles, arrival 150 m, post-arrival dwell 5 minutes.
    case home
    /// Work: as home.
    case work
    /// Any other place: approach at 5 miles, arrival 150 m, post-arrival dwell 5 minutes.
    case customPlace
    /// "Remind me when I arrive": one arrive trigger (150 m), optional delay.
    case arriveTrigger
    /// "Remind me when I leave": one leave trigger (150 m), optional delay.
    case leaveTrigger
}

/// The tiers a task produces; start from ``defaults(for:)`` and override any field.
/// Distances in miles (approach rings; 1 mile = 1,609.344 m) or meters, times in seconds.
public struct TierSettings: Hashable, Sendable, Codable {
    /// Approach rings in miles, one `.approach` fence each (any order; kept as given).
    public var approachMiles: [Double]
    /// Radius of the `.arrival` fence in meters; nil = no arrival fence (a place with an
    /// outline still gets one: ``PlaceTask/fences(firstID:outlines:)``).
    public var arrivalRadiusMeters: Double?
    /// Post-arrival dwell in seconds: a `.postArrivalDwell` fence with the arrival radius;
    /// nil = none. Ignored without an arrival fence.
    public var dwellSeconds: Double?
    /// Radius of an arrive/leave trigger fence in meters (used by trigger tasks only).
    public var triggerRadiusMeters: Double
    /// Delay of an arrive/leave trigger in seconds; nil = fire at once.
    public var delaySeconds: Double?
    /// Added to every fence's ``GeofenceKind/defaultPriority`` (a user's "important" flag).
    public var priorityBoost: Int

    /// Tier settings; nil or empty values take the defaults of the task's kind
    /// (``defaults(for:)``). Radii in meters, times in seconds, rings in miles.
    public init(
        approachMiles: [Double] = [], arrivalRadiusMeters: Double? = nil, dwellSeconds: Double? = nil,
        triggerRadiusMeters: Double = TierSettings.defaultArrivalRadiusMeters,
        delaySeconds: Double? = nil, priorityBoost: Int = 0
    ) {
        self.approachMiles = approachMiles
        self.arrivalRadiusMeters = arrivalRadiusMeters
        self.dwellSeconds = dwellSeconds
        self.triggerRadiusMeters = triggerRadiusMeters
        self.delaySeconds = delaySeconds
        self.priorityBoost = priorityBoost
    }

    /// Default arrival and trigger radius, meters (above iOS's ~100 m region floor).
    public static let defaultArrivalRadiusMeters = 150.0
    /// Default post-arrival dwell, seconds (5 minutes).
    public static let defaultDwellSeconds = 300.0

    /// The defaults per task kind.
    public static func defaults(for kind: TaskKind) -> TierSettings {
        switch kind {
        case .poiCategory:
            return TierSettings(approachMiles: [5, 3, 1])
        case .home, .work:
            return TierSettings(
                approachMiles: [2], arrivalRadiusMeters: defaultArrivalRadiusMeters,
                dwellSeconds: defaultDwellSeconds)
        case .customPlace:
            return TierSettings(
                approachMiles: [5], arrivalRadiusMeters: defaultArrivalRadiusMeters,
                dwellSeconds: defaultDwellSeconds)
        case .arriveTrigger, .leaveTrigger:
            return TierSettings()
        }
    }
}

/// A place-bound task: its id, kind, places and tier settings. ``fences(firstID:)`` turns it
/// into ``Geofence`` values.
///
/// Invariants (checked by ``fences(firstID:)``): a non-empty id; one place for home, work,
/// custom place and triggers, at least one for a POI-category task (one set of rings per POI).
public struct PlaceTask: Hashable, Sendable, Codable {
    /// The task's id (not empty); fences name it as their task.
    public var id: String
    /// What kind of place the task is about; decides the default tiers.
    public var kind: TaskKind
    /// The places the task's fences surround.
    public var places: [Place]
    /// The rings, arrival radius, dwell and trigger settings of the fences.
    public var settings: TierSettings

    /// A task with the kind's default tiers unless `settings` is given.
    public init(id: String, kind: TaskKind, places: [Place], settings: TierSettings? = nil) {
        self.id = id
        self.kind = kind
        self.places = places
        self.settings = settings ?? .defaults(for: kind)
    }

    /// The fences of this task, numbered `firstID, firstID + 1, ...`: per place, in order, the
    /// approach rings (in `settings.approachMiles` order), then arrival, then post-arrival dwell;
    /// for a trigger task, the single trigger fence. Every fence is a circle; see
    /// ``fences(firstID:outlines:)`` for places with outlines.
    /// - Throws: ``GeofenceError`` for an empty id, a wrong place count, a non-positive or
    ///   non-finite ring, radius, dwell or delay, ids past `Int32.max`, or no fence at all.
    public func fences(firstID: Int32) throws(GeofenceError) -> [Geofence] {
        try fences(firstID: firstID, outlines: Array(repeating: nil, count: places.count)).fences
    }
}
