import GeoCells
import Geodesy
import SpatialIndex

/// The exact shapes of polygon fences, by fence id. A fence with an outline is its polygon
/// (S2's containment, `GeoCells.Polygon`); its `SpatialIndex.Fence` is a circle containing
/// the polygon (normally its minimum enclosing circle, ``enclosingFence(id:polygon:)``), which
/// indexes key it by and the OS monitors. A fence without an outline is its circle.
///
/// Invariant: at most one outline per id.
public struct FenceOutlines: Sendable {
    /// The polygons, in the order given.
    public let polygons: [Polygon]
    /// The fence id of each polygon.
    public let ids: [Int32]
    let indexOfID: [Int32: Int]

    /// No outlines: every fence is a circle.
    public init() {
        polygons = []
        ids = []
        indexOfID = [:]
    }

    /// The outlines of the fences `outlines` names.
    /// - Throws: ``GeofenceError/negativeFenceID(_:)``, ``GeofenceError/duplicateFenceID(_:)``.
    public init(_ outlines: [(id: Int32, polygon: Polygon)]) throws(GeofenceError) {
        var index: [Int32: Int] = [:]
        for (k, o) in outlines.enumerated() {
            guard o.id >= 0 else { throw .negativeFenceID(o.id) }
            guard index.updateValue(k, forKey: o.id) == nil else { throw .duplicateFenceID(o.id) }
        }
        polygons = outlines.map(\.polygon)
        ids = outlines.map(\.id)
        indexOfID = index
    }

    /// Number of outlines.
    public var count: Int { polygons.count }

    /// Whether there are none.
    public var isEmpty: Bool { polygons.isEmpty }

    /// The polygon of fence `id`, or nil for a circle.
    public func polygon(forID id: Int32) -> Polygon? { indexOfID[id].map { polygons[$0] } }

    /// Whether fence `id`, given its circle `fence`, contains `p`: the polygon's S2 containment
    /// for a polygon fence, the circle's otherwise.
    public func contains(_ fence: Fence, _ p: UnitVector) -> Bool {
        guard let k = indexOfID[fence.id] else { return fence.contains(p) }
        return polygons[k].contains(p)
    }

    /// The fence with `id` whose circle is `polygon`'s minimum enclosing cap (GeoCells'
    /// `Polygon.enclosingCap`), its radius rounded up to the millimeter so it contains every vertex.
    /// - Throws: ``GeofenceError/invalidRadius(_:)`` for a polygon wider than a hemisphere
    ///   (its enclosing cap is the whole sphere), ``GeofenceError/negativeFenceID(_:)``.
    public static func enclosingFence(id: Int32, polygon: Polygon) throws(GeofenceError) -> Fence {
        let cap = polygon.enclosingCap
        guard !cap.isFull else { throw .invalidRadius(.infinity) }
        let radius = (cap.radius.meters * 1000 + 1).rounded(.up) / 1000
        do {
            return try Fence(id: id, center: cap.center.latLng, radiusMeters: radius)
        } catch {
            throw .negativeFenceID(id)
        }
    }

    /// The first vertex of fence `fence.id`'s outline outside the fence's circle, if any.
    func vertexOutside(_ fence: Fence) -> Int? {
        guard let polygon = polygon(forID: fence.id) else { return nil }
        return polygon.vertices.firstIndex { !fence.contains($0) }
    }
}
