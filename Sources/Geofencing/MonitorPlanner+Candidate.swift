import Geodesy

extension MonitorPlanner {
    /// A fence the planner may hand to the OS: id, center (degrees), radius (meters) and
    /// priority (larger = more important; it decides who gets a slot when the cap is too small
    /// for the guarantee, and breaks ties in boundary distance).
    ///
    /// Invariant (checked by ``MonitorPlanner/init(candidates:configuration:)``): id in
    /// `0...Int32.max`, unique among the candidates; center a valid `LatLng`; radius finite and
    /// > 0.
    public struct Candidate: Hashable, Sendable, Codable {
        /// Fence id, in `0...Int32.max`, unique among the candidates.
        public var id: Int32
        /// Center latitude, degrees.
        public var latitude: Double
        /// Center longitude, degrees.
        public var longitude: Double
        /// Radius, meters (finite, > 0).
        public var radiusMeters: Double
        /// Priority: larger is more important.
        public var priority: Int

        /// Unvalidated memberwise initializer; the planner validates when it is built.
        public init(id: Int32, latitude: Double, longitude: Double, radiusMeters: Double, priority: Int = 0) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
            self.radiusMeters = radiusMeters
            self.priority = priority
        }
    }
}

extension MonitorPlanner.Candidate {
    /// The candidate for a task's fence: same id, center, radius and priority.
    public init(_ fence: Geofence) {
        self.init(
            id: fence.id, latitude: fence.place.latitude, longitude: fence.place.longitude,
            radiusMeters: fence.radiusMeters, priority: fence.priority)
    }
}

extension MonitorPlanner {
    /// A planner over the fences of the active tasks (all tiers), each with its own priority.
    /// - Throws: ``Error/duplicateCandidateID(_:)`` when two fences share an id, or a bad
    ///   configuration.
    public init(fences: [Geofence], configuration: Configuration) throws(MonitorPlanner.Error) {
        try self.init(candidates: fences.map(Candidate.init), configuration: configuration)
    }
}
