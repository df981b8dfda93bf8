import Geodesy

extension MonitorPlanner {
    /// A fence the planner may hand to the OS: id, centre (degrees), radius (metres) and
    /// priority (larger = more important; it decides who gets a slot when the cap is too small
    /// for the guarantee, and breaks ties in boundary distance).
    ///
    /// Invariant (checked by ``MonitorPlanner/init(candidates:configuration:)``): id in
    /// `0...Int32.max`, unique among the candidates; centre a valid ``LatLng``; radius finite and
    /// > 0.
    public struct Candidate: Hashable, Sendable, Codable {
        public var id: Int32
        public var latitude: Double
        public var longitude: Double
        public var radiusMeters: Double
        public var priority: Int

        /// Unvalidated memberwise initialiser; the planner validates when it is built.
        public init(id: Int32, latitude: Double, longitude: Double, radiusMeters: Double, priority: Int = 0) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
            self.radiusMeters = radiusMeters
            self.priority = priority
        }
    }
}
