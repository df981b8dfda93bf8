/// One answer of a category search: POI `poi` (its index in the ``POICatalog``) at
/// `distanceMeters` (great circle, sphere of radius 6,371,008.8 m) from the query location
/// numbered `origin` (0 for a single location; the position in the list for several).
public struct POIMatch: Hashable, Sendable, CustomStringConvertible {
    /// Index of the POI in the ``POICatalog``.
    public var poi: Int
    /// Great-circle distance from the query location, meters.
    public var distanceMeters: Double
    /// Which query location (0 for a single one; else its position in the list).
    public var origin: Int

    /// A match of POI `poi` at `distanceMeters` from location `origin`.
    public init(poi: Int, distanceMeters: Double, origin: Int = 0) {
        self.poi = poi
        self.distanceMeters = distanceMeters
        self.origin = origin
    }

    /// Result order: distance, then POI index.
    @inlinable
    public static func precedes(_ a: POIMatch, _ b: POIMatch) -> Bool {
        a.distanceMeters < b.distanceMeters || (a.distanceMeters == b.distanceMeters && a.poi < b.poi)
    }

    /// The POI, distance and origin, for debugging.
    public var description: String { "poi \(poi) @ \(distanceMeters) m from \(origin)" }
}
