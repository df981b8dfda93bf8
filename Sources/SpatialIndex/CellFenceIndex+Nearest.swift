import GeoCells
import Geodesy

/// Distance queries of ``CellFenceIndex``: a scan of the fence slots, polygons pruned by their
/// caps before any exact distance (see the type's comment for what distance means per kind).
extension CellFenceIndex {
    /// The distance in meters from `p` to slot `s` by `measure`.
    func distanceMeters(_ p: UnitVector, slot s: Int, by measure: FenceDistance) -> Double {
        let polygon = polygonOf[s]
        if polygon < 0 {
            let o = s * 4
            let d = meters(forChord2: squaredChord(p.x, p.y, p.z, bounds[o], bounds[o + 1], bounds[o + 2]))
            return measure == .edge ? d - radii[s] : d
        }
        let area = polygons[Int(polygon)]
        let boundary = Earth.meters(fromRadians: area.boundaryDistance(to: p))
        if !area.contains(p) { return boundary }
        return measure == .edge ? -boundary : 0
    }

    /// A lower bound of ``distanceMeters(_:slot:by:)`` from the slot's cap alone.
    func lowerBoundMeters(_ p: UnitVector, slot s: Int, by measure: FenceDistance) -> Double {
        let o = s * 4
        let center = meters(forChord2: squaredChord(p.x, p.y, p.z, bounds[o], bounds[o + 1], bounds[o + 2]))
        let radius = polygonOf[s] < 0 ? radii[s] : meters(forChord2: bounds[o + 3])
        let outside = center - radius
        if polygonOf[s] < 0 { return measure == .edge ? outside : center }
        // A polygon's signed distance is negative inside: below any bound its cap can give.
        if outside <= 0 { return measure == .edge ? -.infinity : 0 }
        return outside
    }

    /// Calls `body` with the id of every circle whose center, and every polygon whose nearest
    /// point (0 inside), lies within `meters` of `p` (great circle, inclusive). A negative or
    /// NaN distance matches nothing.
    /// - Complexity: O(fences), plus O(vertices) for each polygon whose cap is that near.
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        guard meters >= 0 else { return }
        let limit = Fence.chord2(forRadiusMeters: meters)
        for s in 0..<ids.count {
            if polygonOf[s] < 0 {
                let o = s * 4
                if squaredChord(p.x, p.y, p.z, bounds[o], bounds[o + 1], bounds[o + 2]) <= limit { body(ids[s]) }
            } else if lowerBoundMeters(p, slot: s, by: .center) <= meters
                && distanceMeters(p, slot: s, by: .center) <= meters
            {
                body(ids[s])
            }
        }
    }

    /// The `k` fences nearest to `p` by `measure`, within `maxDistanceMeters`, ordered by
    /// (distance, id), into `results`. Circles are measured directly; polygons in the order of
    /// their caps' lower bounds, until that bound passes the k-th distance found.
    /// - Complexity: O(fences log fences) at worst; O(vertices) per polygon measured.
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance,
        maxDistanceMeters: Double, into results: inout [FenceNeighbor]
    ) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        var pending: [(bound: Double, slot: Int)] = []
        for s in 0..<ids.count {
            if polygonOf[s] < 0 {
                let d = distanceMeters(p, slot: s, by: measure)
                if d <= maxDistanceMeters { NearestSelection.offer(FenceNeighbor(id: ids[s], distanceMeters: d), k: k, into: &results) }
            } else {
                let bound = lowerBoundMeters(p, slot: s, by: measure)
                if bound <= maxDistanceMeters { pending.append((bound, s)) }
            }
        }
        pending.sort { $0.bound < $1.bound }
        for (bound, s) in pending {
            // results is a max-heap: results[0] is the k-th nearest once it holds k.
            if results.count == k && bound > results[0].distanceMeters { break }
            let d = distanceMeters(p, slot: s, by: measure)
            if d <= maxDistanceMeters { NearestSelection.offer(FenceNeighbor(id: ids[s], distanceMeters: d), k: k, into: &results) }
        }
        NearestSelection.finish(&results)
    }
}
