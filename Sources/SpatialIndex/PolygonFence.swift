import GeoCells
import Geodesy

/// A polygon geofence: the points of `polygon` in S2's semi-open model (`Polygon.contains(_:)`:
/// every point of the sphere is in exactly one of two polygons that share an edge).
///
/// Invariant: `id` is in `0...Int32.max`, as a circle ``Fence``'s (indexes that hold both kinds
/// report hits by this id; circle and polygon ids share one space).
public struct PolygonFence: Sendable {
    /// Caller's identifier, in `0...Int32.max`.
    public let id: Int32
    /// The area, with S2's semantics (loops, holes, parts).
    public let polygon: Polygon

    /// The fence `id` over `polygon`.
    /// - Throws: ``FenceError/negativeID(_:)`` for a negative id.
    public init(id: Int32, polygon: Polygon) throws(FenceError) {
        guard id >= 0 else { throw .negativeID(id) }
        self.id = id
        self.polygon = polygon
    }

    /// Whether `p` is in the fence (exact, S2's semi-open model).
    @inlinable
    public func contains(_ p: UnitVector) -> Bool { polygon.contains(p) }

    /// The distance in meters from `p` to the fence's area: 0 inside, else the great-circle
    /// distance to the nearest boundary point (sphere of radius `Earth.meanRadius`).
    /// - Complexity: O(vertices).
    public func distanceMeters(to p: UnitVector) -> Double {
        polygon.contains(p) ? 0 : Earth.meters(fromRadians: polygon.boundaryDistance(to: p))
    }

    /// The signed distance in meters to the boundary: negative inside, positive outside (the
    /// polygon's counterpart of a circle's center distance minus radius).
    /// - Complexity: O(vertices).
    public func signedBoundaryDistanceMeters(to p: UnitVector) -> Double {
        polygon.signedBoundaryDistanceMeters(to: p)
    }
}
