import Geodesy

extension PackedRTree {
    // MARK: Within a distance

    /// Calls `body` with the id of every fence whose center is within `meters` of `p`
    /// (great circle, inclusive), in tree order. A negative or NaN distance matches nothing.
    /// Descends into the nodes whose box meets the box of the query's cap.
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        guard height > 0, limit >= 0 else { return }
        let query = LatLngBox.bounding(center: p.latLng, radius: meters + DegreeBox.capPadMeters)
        let root = Int32(nodeCount - 1)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: height * lanes + 1) { stack in
            childBoxes.withUnsafeBufferPointer { boxes in
                itemData.withUnsafeBufferPointer { d in
                    stack[0] = root
                    var sp = 1
                    while sp > 0 {
                        sp &-= 1
                        let node = Int(stack[sp])
                        let range = children(of: node)
                        if node < leafNodeCount {
                            let m = range.count, base = range.lowerBound &* 4
                            for k in 0..<m {
                                let o = base &+ k
                                if squaredChord(p.x, p.y, p.z, d[o], d[o &+ m], d[o &+ 2 &* m]) <= limit {
                                    body(ids[range.lowerBound &+ k])
                                }
                            }
                        } else {
                            for c in range
                            where PackedRTree.meets(childBox(boxes, node: node, slot: c &- range.lowerBound), query) {
                                stack[sp] = Int32(truncatingIfNeeded: c)
                                sp &+= 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether node box `b` (unwrapped longitudes) meets `query` (`west > east` when it crosses
    /// the antimeridian): each longitude range of the query is tried as it is and shifted by 360.
    @usableFromInline
    static func meets(_ b: DegreeBox, _ query: LatLngBox) -> Bool {
        guard !query.isEmpty, Double(b.south) <= query.north, query.south <= Double(b.north) else { return false }
        let west = Double(b.west), east = Double(b.east)
        func overlaps(_ lo: Double, _ hi: Double) -> Bool {
            (lo <= east && west <= hi) || (lo + 360 <= east && west <= hi + 360)
        }
        if query.west <= query.east { return overlaps(query.west, query.east) }
        return overlaps(query.west, 180) || overlaps(-180, query.east)
    }

    // MARK: Nearest

    /// Replaces `results` with the `k` fences nearest to `p` by `measure` (center distance, or
    /// edge distance = center distance - radius, negative inside), within `maxDistanceMeters`,
    /// in (distance, id) order. Best-first search; a node's key is the least distance from `p`
    /// to its box (`CellGeometry/nearChord2(from:center:cell:)`), a lower bound for the
    /// centers and, outside the box, for the edges of the fences below.
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance = .center,
        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]
    ) {
        guard height > 0, !(maxDistanceMeters < -maxRadius - 1) else {
            results.removeAll(keepingCapacity: true)
            return
        }
        let ll = p.latLng
        childBoxes.withUnsafeBufferPointer { boxes in
            NearestQueue.search(
                root: Int32(nodeCount - 1), k: k, maxDistanceMeters: maxDistanceMeters,
                into: &results
            ) { node, queue in
                let range = children(of: node)
                if node < leafNodeCount {
                    for i in range {
                        let f = fenceData(i)
                        var d = meters(forChord2: squaredChord(p.x, p.y, p.z, f.x, f.y, f.z))
                        if measure == .edge { d -= radii[i] }
                        queue.pushFence(d, id: ids[i], ref: Int32(i), within: maxDistanceMeters)
                    }
                } else {
                    for c in range {
                        let b = childBox(boxes, node: node, slot: c &- range.lowerBound)
                        let near = CellGeometry.nearChord2(
                            from: p, center: ll,
                            cell: (Double(b.south), Double(b.north), Double(b.west), Double(b.east)))
                        queue.pushNode(
                            Int32(c),
                            bound: lowerBoundMeters(
                                boxDistance: near.squareRoot(), measure: measure,
                                maxRadius: maxRadius),
                            within: maxDistanceMeters)
                    }
                }
            }
        }
    }
}
