import Geodesy

/// A static R-tree over circular fences, bulk-loaded in Hilbert order into flat arrays
/// (the packed Hilbert R-tree of mourner/flatbush's `index.js`, in 3-D over unit vectors).
///
/// Representation:
/// - Fences are sorted by the ``HilbertCurve`` key of their centre and stored in that order as
///   flat arrays: `itemData` (x, y, z, chord2 per fence, 32 bytes), `ids`, `radii`.
/// - Nodes live in `nodeBoxes` (two `SIMD4<Float>` per node: the 3-D box of the caps below,
///   rounded outward, so that a point test is two vector compares) and `nodeChildren` (first
///   and one-past-last child per node). Level 1 ("leaf
///   nodes") comes first: leaf node j holds fences `j*nodeSize ..< min((j+1)*nodeSize, n)`;
///   each higher level groups `nodeSize` consecutive nodes of the level below; the root is last.
///   Tree shape is arithmetic: no node objects, no pointers.
/// - Fences themselves have no boxes: inside a leaf node the exact squared-chord test (4 loads,
///   3 multiply-adds, one compare, no branch to mispredict) is about as cheap as a box test.
///   Measured (same run, 300k fixes): testing fence boxes first, then the exact test on the
///   survivors, was no faster on 3k fences and 1.5-1.9x slower on 30k and 300k, and it costs
///   32 bytes per fence.
///
/// Queries are `@inlinable` so that callers in other modules get them specialised and inlined;
/// they allocate nothing (the traversal stack is a stack-allocated temporary) and are safe to
/// run concurrently from many threads on one shared tree. The stabbing loop is branch-free
/// (a child is always written to the stack and the stack pointer advances by the test's 0/1;
/// hits are compacted the same way): on the 30k-fence workload that made it 1.4x faster than
/// flatbush's early-exit loop, whose branches mispredict about once per node.
public struct PackedRTree: FenceIndex, Sendable {
    /// Children per node. Default 16: a leaf node's 16 fences are 512 bytes of exact-test data
    /// scanned in one sweep, and the tree stays shallow (5 levels for 300k fences). On the
    /// 30k-fence workload (make_workload.py --pois 10000) 16 gave 2.9 M fixes/s against 2.4
    /// for 8 and 2.7 for 32 (same run, one thread).
    public let nodeSize: Int
    /// x, y, z, chord2 per fence, in Hilbert order.
    @usableFromInline var itemData: [Double]
    /// Fence ids in Hilbert order.
    @usableFromInline var ids: [Int32]
    /// Radii in metres, in Hilbert order (for edge distances).
    @usableFromInline var radii: [Double]
    /// 2 vectors per node: (min x, y, z, -inf), (max x, y, z, +inf).
    @usableFromInline var nodeBoxes: [SIMD4<Float>]
    /// 2 per node: first child, one past the last child (fence positions for leaf nodes).
    @usableFromInline var nodeChildren: [Int32]
    /// Number of leaf nodes (level 1); nodes below this index have fences as children.
    @usableFromInline var leafNodeCount: Int
    /// Number of node levels (0 when empty).
    @usableFromInline var height: Int
    /// Largest fence radius, metres (the edge-distance bound of boxes that contain the point).
    @usableFromInline var maxRadius: Double

    /// Builds the tree. - Complexity: O(n log n) (the Hilbert sort).
    /// - Precondition: `nodeSize >= 2`; fewer than 2^31 fences.
    public init(_ fences: some Collection<Fence>, nodeSize: Int = 16) {
        precondition(nodeSize >= 2, "nodeSize must be at least 2")
        precondition(fences.count < Int(Int32.max), "too many fences")
        self.nodeSize = nodeSize
        let input = Array(fences)
        let n = input.count
        var order = input.indices.map { (key: HilbertCurve.key(input[$0].centreVector), index: $0) }
        order.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }

        itemData = []
        itemData.reserveCapacity(4 * n)
        ids = []
        ids.reserveCapacity(n)
        radii = []
        radii.reserveCapacity(n)
        var maxR = 0.0
        for (_, index) in order {
            let f = input[index]
            itemData.append(f.centreVector.x)
            itemData.append(f.centreVector.y)
            itemData.append(f.centreVector.z)
            itemData.append(f.chord2)
            ids.append(f.id)
            radii.append(f.radiusMeters)
            maxR = Swift.max(maxR, f.radiusMeters)
        }
        maxRadius = maxR

        nodeBoxes = []
        nodeChildren = []
        leafNodeCount = 0
        height = 0
        guard n > 0 else { return }

        // Level 1: one leaf node per nodeSize consecutive fences.
        var start = 0
        while start < n {
            let end = Swift.min(start + nodeSize, n)
            var box = Box3.empty
            for i in start..<end {
                let o = 4 * i
                let c = UnitVector(x: itemData[o], y: itemData[o + 1], z: itemData[o + 2])
                box = box.union(Box3(capCentre: c, chord2: itemData[o + 3]))
            }
            nodeBoxes.appendBox(box)
            nodeChildren.append(Int32(start))
            nodeChildren.append(Int32(end))
            start = end
        }
        leafNodeCount = nodeChildren.count / 2
        height = 1
        // Higher levels: group nodeSize consecutive nodes of the level below, bottom-up.
        var levelStart = 0, levelEnd = leafNodeCount
        while levelEnd - levelStart > 1 {
            var child = levelStart
            while child < levelEnd {
                let end = Swift.min(child + nodeSize, levelEnd)
                var box = Box3.empty
                nodeBoxes.withUnsafeBufferPointer { b in
                    for c in child..<end { box = box.union(b.box(at: c)) }
                }
                nodeBoxes.appendBox(box)
                nodeChildren.append(Int32(child))
                nodeChildren.append(Int32(end))
                child = end
            }
            levelStart = levelEnd
            levelEnd = nodeChildren.count / 2
            height += 1
        }
    }

    /// Number of fences.
    @inlinable public var count: Int { ids.count }

    /// Number of nodes (all levels).
    @inlinable public var nodeCount: Int { nodeChildren.count / 2 }

    /// Bytes held by the index's arrays (their capacity), excluding the struct itself.
    public var memoryBytes: Int {
        itemData.capacity * 8 + ids.capacity * 4 + radii.capacity * 8
            + nodeBoxes.capacity * 16 + nodeChildren.capacity * 4
    }

    // MARK: Stabbing

    /// Calls `body` with the id of every fence containing `p` (a unit vector, e.g.
    /// `LatLng.unitVector`), boundary inclusive, in tree order. Allocation-free.
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

    /// Depth-first traversal with an explicit stack of node positions. A node is pushed only if
    /// its box contains the point; a leaf node's fences get the exact test.
    @inlinable
    func stabSearch<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        guard height > 0 else { return }
        // Rounding to nearest is monotone and the boxes are rounded outward, so a point inside a
        // Double box stays inside its Float box.
        let pv = SIMD4<Float>(Float(p.x), Float(p.y), Float(p.z), 0)
        let leafCount = leafNodeCount
        let root = Int32(nodeCount - 1)
        // Deepest possible stack: every level pushes at most nodeSize entries. The hit buffer
        // holds one leaf node's hits before they are handed to `body`.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: height * nodeSize + 1 + nodeSize) { scratch in
            let stack = UnsafeMutableBufferPointer(rebasing: scratch[0..<(height * nodeSize + 1)])
            let found = UnsafeMutableBufferPointer(rebasing: scratch[(height * nodeSize + 1)...])
            nodeBoxes.withUnsafeBufferPointer { boxes in
                nodeChildren.withUnsafeBufferPointer { children in
                    itemData.withUnsafeBufferPointer { d in
                        ids.withUnsafeBufferPointer { ids in
                            stack[0] = root
                            var sp = 1
                            while sp > 0 {
                                sp &-= 1
                                let node = Int(stack[sp])
                                stats.node()
                                let start = Int(children[node &* 2])
                                let end = Int(children[node &* 2 &+ 1])
                                if node < leafCount {
                                    // Branch-free: write every id, advance only past hits. The
                                    // sign bit of `chord2 - distance2` is 0 exactly when
                                    // `distance2 <= chord2` (both are >= +0 and finite, and a
                                    // difference of distinct doubles is never 0), which LLVM
                                    // cannot turn back into a branch.
                                    var n = 0
                                    for i in start..<end {
                                        let o = i &* 4
                                        let margin = d[o &+ 3] - squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2])
                                        let inside = Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
                                        stats.exact(hit: inside != 0)
                                        found[n] = ids[i]
                                        n &+= inside
                                    }
                                    for j in 0..<n { body(found[j]) }
                                } else {
                                    // Branch-free push: two vector compares per box, no early
                                    // exit (a mispredicted branch costs more than it saves).
                                    for c in start..<end {
                                        let pass = boxes.boxContainsBit(c, pv)
                                        stats.box(passed: pass != 0)
                                        stack[sp] = Int32(truncatingIfNeeded: c)
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

    // MARK: Within a distance

    /// Calls `body` with the id of every fence whose centre is within `meters` of `p`
    /// (great circle, inclusive), in tree order. A negative or NaN distance matches nothing.
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        guard height > 0, limit >= 0 else { return }
        let query = Box3(around: p, chord2: limit)
        let leafCount = leafNodeCount
        let root = Int32(nodeCount - 1)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: height * nodeSize + 1) { stack in
            nodeBoxes.withUnsafeBufferPointer { boxes in
                nodeChildren.withUnsafeBufferPointer { children in
                    itemData.withUnsafeBufferPointer { d in
                        stack[0] = root
                        var sp = 1
                        while sp > 0 {
                            sp &-= 1
                            let node = Int(stack[sp])
                            let start = Int(children[node &* 2])
                            let end = Int(children[node &* 2 &+ 1])
                            if node < leafCount {
                                for i in start..<end {
                                    let o = i &* 4
                                    if squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2]) <= limit {
                                        body(ids[i])
                                    }
                                }
                            } else {
                                for c in start..<end where boxes.box(at: c).intersects(query) {
                                    stack[sp] = Int32(truncatingIfNeeded: c)
                                    sp &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Nearest

    /// Replaces `results` with the `k` fences nearest to `p` by `measure` (centre distance, or
    /// edge distance = centre distance - radius, negative inside), within `maxDistanceMeters`,
    /// in (distance, id) order. Best-first search over the node boxes.
    public func nearest(to p: UnitVector, k: Int, by measure: FenceDistance = .centre,
                        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]) {
        results.removeAll(keepingCapacity: true)
        guard k > 0, height > 0, !(maxDistanceMeters < -maxRadius - 1) else { return }
        var queue = NearestQueue()
        queue.push(.init(key: -.infinity, order: .min, ref: Int32(nodeCount - 1)))
        nodeBoxes.withUnsafeBufferPointer { boxes in
            while !queue.isEmpty {
                let e = queue.pop()
                if e.key > maxDistanceMeters { break }
                if e.isFence {
                    results.append(FenceNeighbor(id: Int32(truncatingIfNeeded: e.order), distanceMeters: e.key))
                    if results.count == k { break }
                    continue
                }
                let node = Int(e.ref)
                let start = Int(nodeChildren[2 * node]), end = Int(nodeChildren[2 * node + 1])
                if node < leafNodeCount {
                    for i in start..<end {
                        let o = 4 * i
                        var d = meters(forChord2: squaredChord(p.x, p.y, p.z, itemData[o], itemData[o + 1],
                                                                itemData[o + 2]))
                        if measure == .edge { d -= radii[i] }
                        if d <= maxDistanceMeters {
                            queue.push(.init(key: d, order: Int64(ids[i]), ref: Int32(i)))
                        }
                    }
                } else {
                    for c in start..<end {
                        let bound = lowerBoundMetres(boxDistance: boxes.box(at: c).distance(to: p),
                                                     measure: measure, maxRadius: maxRadius)
                        if bound <= maxDistanceMeters {
                            queue.push(.init(key: bound, order: .min, ref: Int32(c)))
                        }
                    }
                }
            }
        }
    }
}
