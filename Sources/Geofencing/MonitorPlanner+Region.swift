import Geodesy

extension MonitorPlanner {
    /// The identity of one OS-monitored region: a fence (by its id) or the planner's refresh
    /// region. ``identifier`` is the string an OS API takes (`"fence:42"`, `"refresh"`);
    /// ``init(identifier:)`` parses it back and returns nil for anything else, so a region the
    /// app finds registered under a foreign identifier is never mistaken for one of ours.
    public enum RegionID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
        case fence(Int32)
        case refresh

        /// The OS identifier: `"fence:<id>"` or `"refresh"`.
        public var identifier: String {
            switch self {
            case .fence(let id): return "fence:\(id)"
            case .refresh: return "refresh"
            }
        }

        /// Parses ``identifier``; nil for an unknown form or a fence id outside `0...Int32.max`.
        public init?(identifier: String) {
            if identifier == "refresh" { self = .refresh; return }
            guard identifier.hasPrefix("fence:"), let id = Int32(identifier.dropFirst(6)), id >= 0 else { return nil }
            self = .fence(id)
        }

        /// Fences by id, then the refresh region.
        public static func < (a: RegionID, b: RegionID) -> Bool {
            switch (a, b) {
            case (.fence(let x), .fence(let y)): return x < y
            case (.fence, .refresh): return true
            case (.refresh, _): return false
            }
        }

        /// The region's identifier (``identifier``).
        public var description: String { identifier }
    }

    /// One circular region as handed to the OS: identity, center (degrees) and radius (meters,
    /// great circle on the sphere of radius 6,371,008.8 m).
    ///
    /// Invariant: `radiusMeters` is finite and at least the planner's minimum region radius
    /// (a fence smaller than the OS minimum is registered enlarged, as iOS would do anyway, so
    /// that the plan says what the OS really watches).
    public struct Region: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Which fence, or the refresh region.
        public var id: RegionID
        /// Latitude in degrees, in [-90, 90].
        public var latitude: Double
        /// Longitude in degrees, in [-180, 180].
        public var longitude: Double
        /// Radius in meters.
        public var radiusMeters: Double

        /// A circular region: `center` in degrees, `radiusMeters` in meters.
        public init(id: RegionID, center: LatLng, radiusMeters: Double) {
            self.id = id
            self.latitude = center.latitude
            self.longitude = center.longitude
            self.radiusMeters = radiusMeters
        }

        /// The center as a `LatLng`.
        public var center: LatLng { LatLng(uncheckedLatitude: latitude, longitude: longitude) }

        /// The id, center and radius, for debugging.
        public var description: String { "\(id)(\(latitude), \(longitude), \(radiusMeters) m)" }
    }
}
