import Geodesy

/// A static R-tree over circular fences, bulk-loaded in Hilbert order into flat arrays
/// (the packed Hilbert R-tree of mourner/flatbush's `index.js`, in 3-D over unit vectors).
///
/// Representation:
/// - Fences are sorted by the ``HilbertCurve`` key of their centre and stored in that order as
///   flat arrays: `itemData` (x, y, z, chord2 per fence, 32 bytes), `ids`, `radii`.
///   `itemData` is blocked by leaf node, structure-of-arrays inside a block: the `m` fences of
///   leaf j (m = `leafSize`, fewer in the last) start at word `4 * leafSize * j` as m x, then
///   m y, m z, m chord2, so that the leaf scan tests two fences per `SIMD2<Double>` operation.
/// - Nodes live in `nodeBoxes` (six `Float`s per node, min x, y, z then max x, y, z: the 3-D
///   box of the caps below, rounded outward; a point test is two unaligned `SIMD4<Float>`
///   loads and two vector compares, see ``PackedRTree/boxContainsBit(_:_:_:_:)``) and, for
///   inner nodes only, `nodeChildren` (first and one-past-last child). Level 1 ("leaf
///   nodes") comes first: leaf node j holds fences `j*leafSize ..< min((j+1)*leafSize, n)`
///   (computed, not stored); each higher level groups `nodeSize` consecutive nodes of the
///   level below; the root is last. Tree shape is arithmetic: no node objects, no pointers.
///   Memory: 44 bytes per fence (32 of exact-test data, id, radius) plus 24 / `leafSize` of
///   leaf boxes, about 47.5 bytes in all with the defaults.
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
    /// Children per inner node. Default 16, or 8 below ``smallTreeFences`` fences: the tree
    /// stays shallow (5 levels for 300k fences). On the 30k-fence workload
    /// (make_workload.py --pois 10000) 16 for every level gave 2.9 M fixes/s against 2.4 for 8
    /// and 2.7 for 32 (same run, one thread); with leaves of 8, inner nodes of 8 were ~10%
    /// slower there, but ~4% faster at 3k fences (17% fewer instructions, fewer box tests).
    public let nodeSize: Int
    /// Fences per leaf node. Default 8: tighter leaf boxes halve the exact tests of a
    /// passing leaf. Measured on the 3k-fence workload: 8 per leaf (all nodes of 8) ran 1.4x Boost's packed R* against 1.17x with 16 (same minutes).
    public let leafSize: Int
    /// x, y, z, chord2 per fence, in Hilbert order, blocked by leaf (see above).
    @usableFromInline var itemData: [Double]
    /// Fence ids in Hilbert order.
    @usableFromInline var ids: [Int32]
    /// Radii in metres, in Hilbert order (for edge distances).
    @usableFromInline var radii: [Double]
    /// 6 per node: min x, y, z, max x, y, z; then 2 words of padding (the last box's second
    /// `SIMD4` load reads them).
    @usableFromInline var nodeBoxes: [Float]
    /// 2 per inner node (node `leafNodeCount + k` at `2k`): first child, one past the last.
    @usableFromInline var nodeChildren: [Int32]
    /// Number of leaf nodes (level 1); nodes below this index have fences as children.
    @usableFromInline var leafNodeCount: Int
    /// Number of node levels (0 when empty).
    @usableFromInline var height: Int
    /// Largest fence radius, metres (the edge-distance bound of boxes that contain the point).
    @usableFromInline var maxRadius: Double

    /// Below this many fences the default inner node size is 8 (measured at 3k and 30k only).
    public static let smallTreeFences = 10_000

    /// Builds the tree. - Complexity: O(n log n) (the Hilbert sort).
    /// - Precondition: `nodeSize >= 2`, `leafSize >= 1`; fewer than 2^31 fences.
    public init(_ fences: some Collection<Fence>, nodeSize: Int? = nil, leafSize: Int = 8) {
        let nodeSize = nodeSize ?? (fences.count < PackedRTree.smallTreeFences ? 8 : 16)
        precondition(nodeSize >= 2, "nodeSize must be at least 2")
        precondition(leafSize >= 1, "leafSize must be at least 1")
        precondition(fences.count < Int(Int32.max), "too many fences")
        self.nodeSize = nodeSize
        self.leafSize = leafSize
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
            ids.append(f.id)
            radii.append(f.radiusMeters)
            maxR = Swift.max(maxR, f.radiusMeters)
        }
        var blockStart = 0
        while blockStart < n {
            let block = order[blockStart..<Swift.min(blockStart + leafSize, n)].map { input[$0.index] }
            itemData.append(contentsOf: block.map(\.centreVector.x))
            itemData.append(contentsOf: block.map(\.centreVector.y))
            itemData.append(contentsOf: block.map(\.centreVector.z))
            itemData.append(contentsOf: block.map(\.chord2))
            blockStart += leafSize
        }
        maxRadius = maxR

        nodeBoxes = []
        nodeChildren = []
        leafNodeCount = 0
        height = 0
        guard n > 0 else { return }
        let leaves = (n + leafSize - 1) / leafSize
        var levels = 1, nodes = leaves, width = leaves
        while width > 1 {
            width = (width + nodeSize - 1) / nodeSize
            nodes += width
            levels += 1
        }
        nodeBoxes.reserveCapacity(6 * nodes + 2)
        nodeChildren.reserveCapacity(2 * (nodes - leaves))

        // Level 1: one leaf node per leafSize consecutive fences.
        var start = 0
        while start < n {
            let end = Swift.min(start + leafSize, n)
            var box = Box3.empty
            for i in start..<end {
                let f = fenceData(i)
                box = box.union(Box3(capCentre: UnitVector(x: f.x, y: f.y, z: f.z), chord2: f.chord2))
            }
            PackedRTree.append(box, to: &nodeBoxes)
            start = end
        }
        leafNodeCount = leaves
        height = 1
        // Higher levels: group nodeSize consecutive nodes of the level below, bottom-up.
        var levelStart = 0, levelEnd = leafNodeCount
        while levelEnd - levelStart > 1 {
            var child = levelStart
            while child < levelEnd {
                let end = Swift.min(child + nodeSize, levelEnd)
                var box = Box3.empty
                for c in child..<end { box = box.union(PackedRTree.box(nodeBoxes, c)) }
                PackedRTree.append(box, to: &nodeBoxes)
                nodeChildren.append(Int32(child))
                nodeChildren.append(Int32(end))
                child = end
            }
            levelStart = levelEnd
            levelEnd = leafNodeCount + nodeChildren.count / 2
            height += 1
        }
        nodeBoxes.append(contentsOf: [0, 0])  // padding read by the last box's second load
        precondition(height == levels && levelEnd == nodes, "tree shape")
    }

    /// Appends the six bounds of `b`.
    static func append(_ b: Box3, to boxes: inout [Float]) {
        boxes.append(contentsOf: [b.minX, b.minY, b.minZ, b.maxX, b.maxY, b.maxZ])
    }

    /// Node `i`'s box.
    @inlinable
    static func box(_ boxes: UnsafeBufferPointer<Float>, _ i: Int) -> Box3 {
        let o = 6 &* i
        return Box3(minX: boxes[o], minY: boxes[o &+ 1], minZ: boxes[o &+ 2],
                    maxX: boxes[o &+ 3], maxY: boxes[o &+ 4], maxZ: boxes[o &+ 5])
    }

    /// Node `i`'s box.
    static func box(_ boxes: [Float], _ i: Int) -> Box3 {
        boxes.withUnsafeBufferPointer { box($0, i) }
    }

    /// 1 when node `i`'s box contains the point, else 0, branch-free. `low` is (x, y, z, +inf)
    /// and `high` (-inf, x, y, z) of the point: the box's words `6i ..< 6i+4` are (min x, y,
    /// z, max x), compared `low >= them`, and words `6i+2 ..< 6i+6` (min z, max x, y, z),
    /// compared `high <= them`; the infinite lanes always pass. The compare lanes (0 or -1)
    /// are ANDed as integers so that LLVM keeps it branch-free.
    @inlinable @inline(__always)
    static func boxContainsBit(_ boxes: UnsafeRawPointer, _ i: Int, _ low: SIMD4<Float>,
                               _ high: SIMD4<Float>) -> Int {
        let o = i &* 24
        let a = boxes.loadUnaligned(fromByteOffset: o, as: SIMD4<Float>.self)
        let b = boxes.loadUnaligned(fromByteOffset: o &+ 8, as: SIMD4<Float>.self)
        let mask = (low .>= a) .& (high .<= b)
        let lanes = unsafeBitCast(mask, to: SIMD4<Int32>.self)
        return Int(truncatingIfNeeded: lanes.x & lanes.y & lanes.z & lanes.w & 1)
    }

    /// The centre and squared chord of the fence at position `i` (Hilbert order).
    @inlinable
    func fenceData(_ i: Int) -> (x: Double, y: Double, z: Double, chord2: Double) {
        let j = i / leafSize, k = i % leafSize
        let m = Swift.min(leafSize, count - j * leafSize)
        let o = 4 * leafSize * j + k
        return (itemData[o], itemData[o + m], itemData[o + 2 * m], itemData[o + 3 * m])
    }

    /// The children of `node`: fence positions for a leaf node, node indices otherwise.
    @inlinable @inline(__always)
    func children(of node: Int) -> Range<Int> {
        if node < leafNodeCount {
            let start = node &* leafSize
            return start..<Swift.min(start &+ leafSize, count)
        }
        let k = (node &- leafNodeCount) &* 2
        return Int(nodeChildren[k])..<Int(nodeChildren[k &+ 1])
    }

    /// Number of fences.
    @inlinable public var count: Int { ids.count }

    /// Number of nodes (all levels).
    @inlinable public var nodeCount: Int { leafNodeCount + nodeChildren.count / 2 }

    /// Bytes held by the index's arrays (their capacity), excluding the struct itself.
    public var memoryBytes: Int {
        itemData.capacity * 8 + ids.capacity * 4 + radii.capacity * 8
            + nodeBoxes.capacity * 4 + nodeChildren.capacity * 4
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
        let px = Float(p.x), py = Float(p.y), pz = Float(p.z)
        let low = SIMD4<Float>(px, py, pz, .infinity), high = SIMD4<Float>(-.infinity, px, py, pz)
        let leafCount = leafNodeCount
        let leafSize = self.leafSize
        let fenceCount = count
        let px2 = SIMD2<Double>(repeating: p.x), py2 = SIMD2<Double>(repeating: p.y)
        let pz2 = SIMD2<Double>(repeating: p.z)
        let root = Int32(nodeCount - 1)
        // Deepest possible stack: every level pushes at most nodeSize entries. The hit buffer
        // holds one leaf node's hits before they are handed to `body`.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: height * nodeSize + 1 + leafSize) { scratch in
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
                                if node < leafCount {
                                    let start = node &* leafSize
                                    let end = Swift.min(start &+ leafSize, fenceCount)
                                    // Branch-free: write every id, advance only past hits. The
                                    // sign bit of `chord2 - distance2` is 0 exactly when
                                    // `distance2 <= chord2` (both are >= +0 and finite, and a
                                    // difference of distinct doubles is never 0), which LLVM
                                    // cannot turn back into a branch.
                                    // Two fences per step (lane-wise the same operations in
                                    // the same order as `squaredChord`, so bit-identical).
                                    var n = 0
                                    let m = end &- start
                                    let base = d.baseAddress! + start &* 4
                                    let xs = base, ys = base + m, zs = base + 2 &* m, cs = base + 3 &* m
                                    var k = 0
                                    while k &+ 1 < m {
                                        let dx = px2 - UnsafeRawPointer(xs + k).loadUnaligned(as: SIMD2<Double>.self)
                                        let dy = py2 - UnsafeRawPointer(ys + k).loadUnaligned(as: SIMD2<Double>.self)
                                        let dz = pz2 - UnsafeRawPointer(zs + k).loadUnaligned(as: SIMD2<Double>.self)
                                        let margin = UnsafeRawPointer(cs + k).loadUnaligned(as: SIMD2<Double>.self)
                                            - (dx * dx + dy * dy + dz * dz)
                                        let bits = unsafeBitCast(margin, to: SIMD2<UInt64>.self)
                                        let in0 = Int(truncatingIfNeeded: ~bits.x >> 63)
                                        let in1 = Int(truncatingIfNeeded: ~bits.y >> 63)
                                        stats.exact(hit: in0 != 0)
                                        stats.exact(hit: in1 != 0)
                                        found[n] = ids[start &+ k]
                                        n &+= in0
                                        found[n] = ids[start &+ k &+ 1]
                                        n &+= in1
                                        k &+= 2
                                    }
                                    if k < m {
                                        let margin = cs[k] - squaredChord(p.x, p.y, p.z, xs[k], ys[k], zs[k])
                                        let inside = Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
                                        stats.exact(hit: inside != 0)
                                        found[n] = ids[start &+ k]
                                        n &+= inside
                                    }
                                    for j in 0..<n { body(found[j]) }
                                } else {
                                    // Branch-free push: two vector compares per box, no early
                                    // exit (a mispredicted branch costs more than it saves).
                                    let k = (node &- leafCount) &* 2
                                    let start = Int(children[k]), end = Int(children[k &+ 1])
                                    let raw = UnsafeRawPointer(boxes.baseAddress!)
                                    for c in start..<end {
                                        let pass = PackedRTree.boxContainsBit(raw, c, low, high)
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
                    itemData.withUnsafeBufferPointer { d in
                        stack[0] = root
                        var sp = 1
                        while sp > 0 {
                            sp &-= 1
                            let node = Int(stack[sp])
                            let range = children(of: node)
                            if node < leafCount {
                                let m = range.count, base = range.lowerBound &* 4
                                for k in 0..<m {
                                    let o = base &+ k
                                    if squaredChord(p.x, p.y, p.z, d[o], d[o &+ m], d[o &+ 2 &* m]) <= limit {
                                        body(ids[range.lowerBound &+ k])
                                    }
                                }
                            } else {
                                for c in range where PackedRTree.box(boxes, c).intersects(query) {
                                    stack[sp] = Int32(truncatingIfNeeded: c)
                                    sp &+= 1
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
        NearestQueue.withQueue { queue in
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
                let range = children(of: node)
                if node < leafNodeCount {
                    for i in range {
                        let f = fenceData(i)
                        var d = meters(forChord2: squaredChord(p.x, p.y, p.z, f.x, f.y, f.z))
                        if measure == .edge { d -= radii[i] }
                        if d <= maxDistanceMeters {
                            queue.push(.init(key: d, order: Int64(ids[i]), ref: Int32(i)))
                        }
                    }
                } else {
                    for c in range {
                        let bound = lowerBoundMetres(boxDistance: PackedRTree.box(boxes, c).distance(to: p),
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
}
