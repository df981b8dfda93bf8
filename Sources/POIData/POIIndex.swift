#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import SpatialIndex

/// Category search over a ``POICatalog``: the nearest POIs of a category to one location, or
/// to whichever of several frequent locations (home, work, ...) is closest.
///
/// Representation: one `Layer` per category plus one over every POI. A layer lists its POIs
/// in Z-order (Morton order of quantised latitude/longitude, ties by catalog index) and holds a
/// `PackedRTree` of zero-radius fences whose id is the position in that list, the POIs' unit
/// vectors in the same order, and a starting search radius. Distances are great-circle meters
/// on the sphere of radius 6,371,008.8 m, computed from squared chords exactly as the spatial
/// index does; ties at equal distance go to the smaller catalog index.
///
/// Nearest search for small `k` (<= 64) is a growing-radius search over the tree's
/// allocation-free `forEachWithin`: collect every POI within r keeping the k smallest squared
/// chords in a stack buffer; once at least k are found they are the k nearest (anything
/// outside r is farther), else grow r. No trigonometry per candidate and no heap; the Z-order
/// keeps a leaf's POIs close together in `vectors`, so the exact test reads few cache lines.
/// Larger `k` uses the tree's best-first search.
///
/// ```swift
/// let index = POIIndex(try POICatalog(path: "Data/pois_osm_all.csv"))
/// let near = index.nearest(.pharmacy, to: here, k: 3, maxDistanceMeters: 5_000)
/// ```
public struct POIIndex: Sendable {
    /// The POIs of one category (or all), spatially ordered.
    @usableFromInline
    struct Layer: Sendable {
        @usableFromInline let tree: PackedRTree
        /// Unit vectors by position in the layer.
        @usableFromInline let vectors: [UnitVector]
        /// Catalog index by position in the layer.
        @usableFromInline let pois: [Int32]
        /// Meters: the radius that holds one POI at the layer's mean density over its
        /// bounding box (at least 1 m).
        @usableFromInline let startRadius: Double
    }

    /// The POIs searched.
    public let catalog: POICatalog
    /// Categories by ``POICategory/ordinal``, then the layer of every POI.
    @usableFromInline let layers: [Layer]
    /// Above this `k` the best-first search is used (the growing-radius search keeps its
    /// k best in a sorted stack buffer, O(k) per insertion).
    @usableFromInline static let maxSmallK = 64
    /// The first disc's radius as a fraction of the one expected to hold k POIs at the layer's
    /// mean density: POIs cluster, so most queries are in much denser than average places.
    /// 1/32 and ``emptyGrowth`` 1.5 were the best of {1/8, 1/32, 1/128} x {4, 2, 1.5} over
    /// a million clustered synthetic POIs and over the real extract replicated 378 times
    /// (`geofence-bench poi`, with and without `--pois`).
    @usableFromInline static let startFactor = 1.0 / 32
    /// Radius growth after a round that found nothing.
    @usableFromInline static let emptyGrowth = 1.5

    /// Builds the layers. - Complexity: O(n log n).
    public init(_ catalog: POICatalog) {
        self.catalog = catalog
        let keys = catalog.locations.map(Self.mortonKey)
        var members = Array(repeating: [Int32](), count: POICategory.allCases.count + 1)
        for i in 0..<catalog.count {
            if let c = catalog.category(at: i) { members[c.ordinal].append(Int32(i)) }
        }
        members[POICategory.allCases.count] = (0..<catalog.count).map { Int32($0) }
        layers = members.map { list in
            let sorted = list.sorted { keys[Int($0)] < keys[Int($1)] || (keys[Int($0)] == keys[Int($1)] && $0 < $1) }
            // A zero radius never throws; positions fit Int32 because catalog indexes do.
            let fences = sorted.enumerated().map { try! Fence(id: Int32($0.offset), center: catalog.locations[Int($0.element)], radiusMeters: 0) }
            return Layer(
                tree: PackedRTree(fences), vectors: fences.map(\.centerVector), pois: sorted,
                startRadius: Self.radiusHoldingOne(fences.map(\.center)))
        }
    }

    /// Interleaved bits of latitude and longitude quantised to 2^21 steps each (about 10 m):
    /// nearby points get nearby keys.
    static func mortonKey(_ p: LatLng) -> UInt64 {
        func spread(_ v: UInt64) -> UInt64 {  // bit i -> bit 2i (the classic 32-bit interleave)
            var x = v & 0xFFFF_FFFF
            x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
            x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
            x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
            x = (x | x << 2) & 0x3333_3333_3333_3333
            x = (x | x << 1) & 0x5555_5555_5555_5555
            return x
        }
        let scale = Double(1 << 21 - 1)
        let y = UInt64(((p.latitude + 90) / 180 * scale).rounded(.down))
        let x = UInt64(((p.longitude + 180) / 360 * scale).rounded(.down))
        return spread(y) << 1 | spread(x)
    }

    /// sqrt(area / (π n)) over the points' latitude/longitude bounding box (at least 1 m):
    /// the radius of a disc holding one point at their mean density.
    static func radiusHoldingOne(_ points: [LatLng]) -> Double {
        guard !points.isEmpty else { return 1 }
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        for p in points {
            south = Swift.min(south, p.latitude)
            north = Swift.max(north, p.latitude)
            west = Swift.min(west, p.longitude)
            east = Swift.max(east, p.longitude)
        }
        let height = radians(degrees: north - south) * Earth.meanRadius
        let width = radians(degrees: east - west) * Earth.meanRadius * cos(radians(degrees: (north + south) / 2))
        return Swift.max(1, (Swift.max(1, height * width) / (Double.pi * Double(points.count))).squareRoot())
    }

    @inlinable
    func layer(_ category: POICategory?) -> Layer {
        layers[category?.ordinal ?? POICategory.allCases.count]
    }

    /// Number of POIs of `category` (`nil`: all).
    public func count(of category: POICategory?) -> Int { layer(category).pois.count }

    /// Replaces `results` with the (at most) `k` POIs of `category` (`nil`: any) nearest to `p`
    /// within `maxDistanceMeters`, in (distance, catalog index) order; ids are catalog indexes.
    /// The spatial index's own buffer type, so a caller looping over queries reuses one array;
    /// allocation-free once `results` has capacity `k`.
    @inlinable
    public func nearest(
        _ category: POICategory?, to p: UnitVector, k: Int,
        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]
    ) {
        results.removeAll(keepingCapacity: true)
        let layer = self.layer(category)
        guard k > 0, layer.tree.count > 0, maxDistanceMeters >= 0 else { return }
        if k > Self.maxSmallK {
            layer.tree.nearest(to: p, k: k, by: .center, maxDistanceMeters: maxDistanceMeters, into: &results)
            for j in results.indices { results[j].id = layer.pois[Int(results[j].id)] }
            results.sort(by: FenceNeighbor.precedes)
            return
        }
        // A small first disc (see startFactor); where it holds fewer than k, a few growing rounds
        // follow (small discs are cheap).
        var radius = Swift.min(layer.startRadius * Double(k).squareRoot() * Self.startFactor, maxDistanceMeters)
        let halfCircumference = Double.pi * Earth.meanRadius  // beyond it the disc is the sphere
        withUnsafeTemporaryAllocation(of: (chord2: Double, id: Int32).self, capacity: k) { best in
            layer.vectors.withUnsafeBufferPointer { v in
                while true {
                    var n = 0
                    layer.tree.forEachWithin(meters: radius, of: p) { id in
                        let c = v[Int(id)]
                        let dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z  // SpatialIndex's operand order
                        let c2 = dx * dx + dy * dy + dz * dz
                        if n == k {
                            let last = best[k - 1]
                            guard c2 < last.chord2 || (c2 == last.chord2 && id < last.id) else { return }
                            n -= 1
                        }
                        var j = n
                        while j > 0 && (best[j - 1].chord2 > c2 || (best[j - 1].chord2 == c2 && best[j - 1].id > id)) {
                            best[j] = best[j - 1]
                            j -= 1
                        }
                        best[j] = (c2, id)
                        n += 1
                    }
                    if n >= k || radius >= maxDistanceMeters || radius >= halfCircumference {
                        for j in 0..<n {
                            let d = 2 * Earth.meanRadius * asin(Swift.min(1, best[j].chord2.squareRoot() * 0.5))
                            if d <= maxDistanceMeters {
                                results.append(FenceNeighbor(id: layer.pois[Int(best[j].id)], distanceMeters: d))
                            }
                        }
                        return
                    }
                    // Nothing yet: emptyGrowth. Some: the radius expected to hold 2k at the density
                    // just seen, at least 1.25x.
                    let growth = n == 0 ? Self.emptyGrowth : Swift.max(1.25, (Double(2 * k) / Double(n)).squareRoot())
                    radius = Swift.min(radius * growth, maxDistanceMeters)
                }
            }
        }
    }

    /// The (at most) `k` POIs of `category` (`nil`: any) nearest to `location`, within
    /// `maxDistanceMeters`, in (distance, index) order.
    public func nearest(
        _ category: POICategory?, to location: LatLng, k: Int,
        maxDistanceMeters: Double = .infinity
    ) -> [POIMatch] {
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
    public func nearest(
        _ category: POICategory?, toAnyOf locations: [LatLng], k: Int,
        maxDistanceMeters: Double = .infinity
    ) -> [POIMatch] {
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
