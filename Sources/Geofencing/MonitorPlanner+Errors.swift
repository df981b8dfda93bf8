extension MonitorPlanner {
    /// Why the planner or a plan request was rejected. Nothing invalid is dropped silently.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// A configuration field out of range (named, with the reason).
        case invalidConfiguration(String)
        /// A candidate with a NaN, infinite or out-of-range center.
        case invalidCandidateCenter(id: Int32)
        /// A candidate whose radius is NaN, infinite, zero or negative.
        case invalidCandidateRadius(id: Int32, Double)
        /// A candidate id below 0.
        case negativeCandidateID(Int32)
        /// Two candidates with the same id.
        case duplicateCandidateID(Int32)
        /// A plan location with a NaN, infinite or out-of-range coordinate.
        case invalidLocation(latitude: Double, longitude: Double)
        /// A negative, NaN or infinite location uncertainty or speed.
        case invalidMotion(String)

        /// What was rejected and why, naming the fence or setting.
        public var description: String {
            switch self {
            case .invalidConfiguration(let m): return "invalid planner configuration: \(m)"
            case .invalidCandidateCenter(let id): return "fence \(id): center is not a valid latitude/longitude"
            case .invalidCandidateRadius(let id, let r): return "fence \(id): radius must be a finite number of meters > 0, got \(r)"
            case .negativeCandidateID(let id): return "fence id must be in 0...\(Int32.max), got \(id)"
            case .duplicateCandidateID(let id): return "duplicate fence id \(id)"
            case .invalidLocation(let lat, let lon): return "invalid location (\(lat), \(lon))"
            case .invalidMotion(let m): return m
            }
        }
    }
}
