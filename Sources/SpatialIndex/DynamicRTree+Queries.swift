import Geodesy

extension DynamicRTree {
    /// Calls `body` with the id of every fence containing `p` (a unit vector), boundary
    /// inclusive, in tree order. Allocation-free (stack-allocated traversal stack).
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        stabSearch(p, &s, body)
    }

    /// As ``forEachContaining(_:_:)``, adding the work done to `stats`.
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        stabSearch(p, &stats, body)
    }

    /// Depth-first traversal: a child is visited only if its box contains the point; a leaf's
    /// fences get the exact squared-chord test directly, branch-free, as in ``PackedRTree``.
    /// Leaf-entry boxes are not read here: on 300k fences, testing them first read about twice
    /// the bytes per query (estimated from the layout) and ran 3x slower (CPU time, 300k
    /// fixes) although it saved 60 % of the exact tests.
    @inlinable
    func stabSearch<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        let pv = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), 0)
        let m = maxEntries
        let stackSize = levels * m + 1
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: stackSize + m) { scratch in
            let stack = UnsafeMutableBufferPointer(rebasing: scratch[0..<stackSize])
            let found = UnsafeMutableBufferPointer(rebasing: scratch[stackSize...])
            childBoxes.withUnsafeBufferPointer { boxes in
                childRefs.withUnsafeBufferPointer { refs in
                    nodeCounts.withUnsafeBufferPointer { counts in
                        nodeHeights.withUnsafeBufferPointer { heights in
                            slotData.withUnsafeBufferPointer { d in
                                slotIds.withUnsafeBufferPointer { ids in
                                    stack[0] = root
                                    var sp = 1
                                    while sp > 0 {
                                        sp &-= 1
                                        let node = Int(stack[sp])
                                        stats.node()
                                        let base = node &* m
                                        let end = base &+ Int(counts[node])
                                        if heights[node] == 0 {
                                            // Leaf entries: the exact test straight away (their
                                            // boxes would only add memory traffic; see the type's
                                            // comment), branch-free as in PackedRTree.
                                            var n = 0
                                            for e in base..<end {
                                                let s = Int(refs[e])
                                                let o = s &* 4
                                                // Sign bit of chord2 - distance2: 0 iff inside (see PackedRTree).
                                                let margin = d[o &+ 3] - squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2])
                                                let inside = Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
                                                stats.exact(hit: inside != 0)
                                                found[n] = ids[s]
                                                n &+= inside
                                            }
                                            for j in 0..<n { body(found[j]) }
                                        } else {
                                            for e in base..<end {
                                                let pass = boxes.boxContainsBit(e, pv)
                                                stats.box(passed: pass != 0)
                                                stack[sp] = refs[e]
                                                sp &+= pass
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the id of every fence whose center is within `meters` of `p`
    /// (great circle, inclusive), in tree order. A negative or NaN distance matches nothing.
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        guard limit >= 0 else { return }
        let query = Box3(around: p, chord2: limit)
        let m = maxEntries
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: levels * m + 1) { stack in
            childBoxes.withUnsafeBufferPointer { boxes in
                slotData.withUnsafeBufferPointer { d in
                    stack[0] = root
                    var sp = 1
                    while sp > 0 {
                        sp &-= 1
                        let node = Int(stack[sp])
                        let base = node &* m
                        let end = base &+ Int(nodeCounts[node])
                        let isLeaf = nodeHeights[node] == 0
                        for e in base..<end where boxes.box(at: e).intersects(query) {
                            if isLeaf {
                                let s = Int(childRefs[e])
                                let o = s &* 4
                                if squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2]) <= limit {
                                    body(slotIds[s])
                                }
                            } else {
                                stack[sp] = childRefs[e]
                                sp &+= 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Replaces `results` with the `k` fences nearest to `p` by `measure`, within
    /// `maxDistanceMeters`, in (distance, id) order. Best-first search over the node boxes.
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance = .center,
        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]
    ) {
        guard count > 0 else {
            results.removeAll(keepingCapacity: true)
            return
        }
        NearestQueue.search(root: root, k: k, maxDistanceMeters: maxDistanceMeters, into: &results) { node, queue in
            let base = node * maxEntries
            let isLeaf = nodeHeights[node] == 0
            for j in base..<base + Int(nodeCounts[node]) {
                let ref = childRefs[j]
                if isLeaf {
                    let o = 4 * Int(ref)
                    var d = meters(
                        forChord2: squaredChord(
                            p.x, p.y, p.z, slotData[o], slotData[o + 1],
                            slotData[o + 2]))
                    if measure == .edge { d -= slotFences[Int(ref)].radiusMeters }
                    queue.pushFence(d, id: slotIds[Int(ref)], ref: ref, within: maxDistanceMeters)
                } else {
                    let box = childBoxes.withUnsafeBufferPointer { $0.box(at: j) }
                    queue.pushNode(
                        ref,
                        bound: lowerBoundMeters(
                            boxDistance: box.distance(to: p), measure: measure,
                            maxRadius: maxRadius),
                        within: maxDistanceMeters)
                }
            }
        }
    }
}
