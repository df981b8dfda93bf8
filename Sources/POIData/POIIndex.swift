import Geodesy
import SpatialIndex

/// Category search over a ``POICatalog``: the nearest POIs of a category to one location, or
/// to whichever of several frequent locations (home, work, ...) is closest.
///
/// Representation: one ``PackedRTree`` per category present plus one over every POI, each
/// holding zero-radius fences whose id is the POI's catalog index. Distances are great-circle
/// metres on the sphere of radius 6,371,008.8 m, computed from squared chords as the spatial
/// index does, so ties between equal distances resolve by POI index.
///
/// ```swift
/// let index = POIIndex(try POICatalog(path: "Data/pois_osm_all.csv"))
/// let near = index.nearest(.pharmacy, to: here, k: 3, maxDistanceMeters: 5_000)
/// ```
public struct POIIndex: Sendable {
    /// The POIs searched.
    public let catalog: POICatalog
    @usableFromInline let all: PackedRTree
    /// Indexed by ``POICategory/ordinal``; empty trees for absent categories.
    @usableFromInline let byCategory: [PackedRTree]

    /// Builds the trees. - Complexity: O(n log n).
    public init(_ catalog: POICatalog) {
        self.catalog = catalog
        var buckets = Array(repeating: [Fence](), count: POICategory.allCases.count)
        var everything: [Fence] = []
        everything.reserveCapacity(catalog.count)
        for i in 0..<catalog.count {
            // A zero radius never throws and ids are below Int32.max (checked by the precondition).
            let fence = try! Fence(id: Int32(i), centre: catalog.locations[i], radiusMeters: 0)
            everything.append(fence)
            if let c = catalog.category(at: i) { buckets[c.ordinal].append(fence) }
        }
        all = PackedRTree(everything)
        byCategory = buckets.map { PackedRTree($0) }
    }

    /// Number of POIs of `category` (`nil`: all).
    public func count(of category: POICategory?) -> Int { tree(category).count }

    @inlinable
    func tree(_ category: POICategory?) -> PackedRTree {
        guard let category else { return all }
        return byCategory[category.ordinal]
    }

    /// Replaces `results` with the (at most) `k` POIs of `category` (`nil`: any) nearest to `p`
    /// within `maxDistanceMeters`, in (distance, index) order; ids are catalog indexes. The
    /// spatial index's own buffer type, so a caller looping over queries reuses one array.
    @inlinable
    public func nearest(_ category: POICategory?, to p: UnitVector, k: Int,
                        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]) {
        tree(category).nearest(to: p, k: k, by: .centre, maxDistanceMeters: maxDistanceMeters, into: &results)
    }

    /// The (at most) `k` POIs of `category` (`nil`: any) nearest to `location`, within
    /// `maxDistanceMeters`, in (distance, index) order.
    public func nearest(_ category: POICategory?, to location: LatLng, k: Int,
                        maxDistanceMeters: Double = .infinity) -> [POIMatch] {
        var found: [FenceNeighbor] = []
        nearest(category, to: location.unitVector, k: k, maxDistanceMeters: maxDistanceMeters, into: &found)
        return found.map { POIMatch(poi: Int($0.id), distanceMeters: $0.distanceMeters) }
    }

    /// The (at most) `k` POIs of `category` whose distance to the nearest of `locations` is
    /// smallest, within `maxDistanceMeters`, in (distance, index) order; each match names the
    /// location (its position in `locations`) it is nearest to (the first on a tie).
    ///
    /// Exact: a POI among the overall `k` best is among the `k` best of its own nearest
    /// location (anything nearer to that location is nearer overall), so the union of the
    /// per-location answers holds the result. - Complexity: `locations.count` k-nearest queries.
    public func nearest(_ category: POICategory?, toAnyOf locations: [LatLng], k: Int,
                        maxDistanceMeters: Double = .infinity) -> [POIMatch] {
        guard k > 0 else { return [] }
        var best: [Int: POIMatch] = [:]
        var found: [FenceNeighbor] = []
        for (origin, location) in locations.enumerated() {
            nearest(category, to: location.unitVector, k: k, maxDistanceMeters: maxDistanceMeters, into: &found)
            for n in found {
                let match = POIMatch(poi: Int(n.id), distanceMeters: n.distanceMeters, origin: origin)
                if let old = best[match.poi], old.distanceMeters <= match.distanceMeters { continue }
                best[match.poi] = match
            }
        }
        return Array(best.values.sorted(by: POIMatch.precedes).prefix(k))
    }
}
