import Geodesy

extension PackedRTree {
    /// Calls `body` with the id of every fence containing the fix at (`latitude`, `longitude`)
    /// (degrees), boundary inclusive: exactly the fences whose exact test passes for
    /// `UnitVector(fastLatitude: latitude, longitude: longitude)`, in tree order. The descent
    /// compares the degrees with the boxes; the unit vector is computed only when a leaf is
    /// reached. A latitude outside [-90, 90] or a non-finite coordinate matches nothing.
    /// Allocation-free.
    @inlinable
    public func forEachContaining(latitude: Double, longitude: Double, _ body: (Int32) -> Void) {
        var s = NoStats()
        stab(latitude: latitude, longitude: longitude, vector: nil, &s, body)
    }

    /// As ``forEachContaining(latitude:longitude:_:)``, adding the work done to `stats`.
    @inlinable
    public func forEachContaining(
        latitude: Double, longitude: Double, stats: inout QueryStats,
        _ body: (Int32) -> Void
    ) {
        stab(latitude: latitude, longitude: longitude, vector: nil, &stats, body)
    }

    /// Calls `body` with the id of every fence containing `p` (a unit vector, e.g.
    /// `LatLng.unitVector`), boundary inclusive, in tree order. The descent needs `p`'s degrees
    /// (two `atan2`, ~40 ns): with degrees at hand, ``forEachContaining(latitude:longitude:_:)``
    /// is faster. Allocation-free.
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        let ll = p.latLng
        stab(latitude: ll.latitude, longitude: ll.longitude, vector: p, &s, body)
    }

    /// As ``forEachContaining(_:_:)``, adding the work done to `stats`.
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        let ll = p.latLng
        stab(latitude: ll.latitude, longitude: ll.longitude, vector: p, &stats, body)
    }

    /// The stabbing query: a descent at the fix's longitude in [-180, 180), and a second one at
    /// longitude + 360 when a box reaches that far (see the type's comment). `vector` is the
    /// point for the exact test, or nil to compute it from the degrees once a leaf is reached.
    @inlinable @inline(__always)
    func stab<S: StatsSink>(
        latitude: Double, longitude: Double, vector: UnitVector?, _ stats: inout S,
        _ body: (Int32) -> Void
    ) {
        guard height > 0, latitude >= -90 && latitude <= 90 else { return }  // also rejects NaN
        var lon = longitude
        if !(lon >= -180 && lon < 180) {
            guard lon.isFinite else { return }
            lon = lon.remainder(dividingBy: 360)  // [-180, 180]
            if lon >= 180 { lon -= 360 }
        }
        var point = vector
        let lat = Float(latitude), lng = Float(lon)
        descend(latitude: lat, longitude: lng, wrapped: false, fix: (latitude, longitude, lng), &point, &stats, body)
        let shifted = Float(lon + 360)
        if shifted <= rootEast {
            descend(latitude: lat, longitude: shifted, wrapped: true, fix: (latitude, longitude, lng), &point, &stats, body)
        }
    }

    /// One depth-first descent with an explicit stack of node numbers. A node is pushed only if
    /// its box contains (`latitude`, `longitude`) (`Float` degrees, `longitude` on the unwrapped
    /// line); a leaf node's fences get the exact test against `point`, computed from `fix`'s
    /// degrees on first need. A fence whose box crosses the antimeridian counts in the first
    /// descent if `fix`'s longitude in [-180, 180) (its third member) is at or east of the box's
    /// west edge, else in the second (`wrapped`, longitude + 360), where no other fence counts.
    @inlinable @inline(__always)
    func descend<S: StatsSink>(
        latitude: Float, longitude: Float, wrapped: Bool, fix: (Double, Double, Float),
        _ point: inout UnitVector?, _ stats: inout S, _ body: (Int32) -> Void
    ) {
        let leafCount = leafNodeCount
        let leafSize = self.leafSize
        let lanes = self.lanes
        let fenceCount = count
        let lat4 = SIMD4<Float>(repeating: latitude), lng4 = SIMD4<Float>(repeating: longitude)
        let root = Int32(truncatingIfNeeded: nodeCount - 1)
        let stackSize = height &* lanes &+ 1
        // Deepest possible stack: every level pushes at most `lanes` entries. The hit buffer
        // holds one leaf node's hits before they are handed to `body`.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: stackSize &+ leafSize) { scratch in
            let stack = scratch.baseAddress!
            let found = scratch.baseAddress! + stackSize
            childBoxes.withUnsafeBufferPointer { boxes in
                nodeChildren.withUnsafeBufferPointer { children in
                    itemData.withUnsafeBufferPointer { d in
                        ids.withUnsafeBufferPointer { ids in
                            stack[0] = root
                            var sp = 1
                            while sp > 0 {
                                sp &-= 1
                                let node = Int(stack[sp])
                                stats.node()
                                if node >= leafCount {
                                    // Four children per step: four compares and three ANDs, then a
                                    // branch-free push of each (always written, the stack pointer advanced
                                    // by the lane's 0/1; a mispredicted branch costs more than it saves).
                                    let k = node &- leafCount
                                    let first = Int(children[k &* 2])
                                    let live = Int(children[k &* 2 &+ 1]) &- first
                                    let base = boxes.baseAddress! + k &* 4 &* lanes
                                    var c = 0
                                    while c < lanes {
                                        let bits = PackedRTree.childBits(base, lanes: lanes, slot: c, lat4, lng4)
                                        let child = Int32(truncatingIfNeeded: first &+ c)
                                        stack[sp] = child
                                        sp &+= Int(truncatingIfNeeded: bits.x)
                                        stack[sp] = child &+ 1
                                        sp &+= Int(truncatingIfNeeded: bits.y)
                                        stack[sp] = child &+ 2
                                        sp &+= Int(truncatingIfNeeded: bits.z)
                                        stack[sp] = child &+ 3
                                        sp &+= Int(truncatingIfNeeded: bits.w)
                                        if S.self != NoStats.self {
                                            for lane in 0..<4 where c &+ lane < live { stats.box(passed: bits[lane] != 0) }
                                        }
                                        c &+= 4
                                    }
                                    continue
                                }
                                let start = node &* leafSize
                                let end = Swift.min(start &+ leafSize, fenceCount)
                                if point == nil { point = UnitVector(fastLatitude: fix.0, longitude: fix.1) }
                                let p = point.unsafelyUnwrapped
                                if wrapped || (rootEast >= 180 && leafCrosses(node)) {
                                    // A leaf with a fence across the antimeridian: the rare slow path.
                                    if !leafCrosses(node) { continue }
                                    crossingLeafScan(start..<end, p, longitude: fix.2, wrapped: wrapped) { i, accepted in
                                        stats.exact(hit: accepted)
                                        if accepted { body(ids[i]) }
                                    }
                                    continue
                                }
                                let n = PackedRTree.scanLeaf(
                                    d.baseAddress! + start &* 4, count: end &- start, p,
                                    ids: ids.baseAddress! + start, into: found
                                ) { $0 }
                                if S.self != NoStats.self {
                                    for k in 0..<(end &- start) { stats.exact(hit: k < n) }
                                }
                                for j in 0..<n { body(found[j]) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Bit 0/1 per lane: whether child slots `slot ..< slot + 4` of the inner node whose
    /// structure-of-arrays boxes start at `boxes` (`lanes` souths, norths, wests, easts) contain
    /// the point (`lat4`, `lng4` splatted). Four loads, four compares, three ANDs, no branch.
    @inlinable @inline(__always)
    static func childBits(
        _ boxes: UnsafePointer<Float>, lanes: Int, slot: Int,
        _ lat4: SIMD4<Float>, _ lng4: SIMD4<Float>
    ) -> SIMD4<Int32> {
        let base = UnsafeRawPointer(boxes + slot)
        let stride = lanes &* 4  // bytes between the bound arrays
        let s = base.loadUnaligned(as: SIMD4<Float>.self)
        let n = base.loadUnaligned(fromByteOffset: stride, as: SIMD4<Float>.self)
        let w = base.loadUnaligned(fromByteOffset: 2 &* stride, as: SIMD4<Float>.self)
        let e = base.loadUnaligned(fromByteOffset: 3 &* stride, as: SIMD4<Float>.self)
        let inside = (lat4 .>= s) .& (lat4 .<= n) .& (lng4 .>= w) .& (lng4 .<= e)
        return unsafeBitCast(inside, to: SIMD4<Int32>.self) & 1
    }

    /// The slow path of a leaf holding a fence whose box crosses the antimeridian: calls
    /// `visit(position, accepted)` for each fence at `positions`, accepted when it contains `p`
    /// and belongs to this descent. A crossing fence belongs to the first descent if
    /// `longitude` (the fix's, in [-180, 180), as `Float`) is at or east of its box's west edge,
    /// else to the second (`wrapped`); any other fence to the first only.
    @usableFromInline
    func crossingLeafScan(
        _ positions: Range<Int>, _ p: UnitVector, longitude: Float, wrapped: Bool,
        _ visit: (Int, Bool) -> Void
    ) {
        for i in positions {
            let f = fenceData(i)
            var accepted = squaredChord(p.x, p.y, p.z, f.x, f.y, f.z) <= f.chord2
            if let west = crossingWest(i) {
                accepted = accepted && (longitude >= west) != wrapped
            } else {
                accepted = accepted && !wrapped
            }
            visit(i, accepted)
        }
    }

    /// The exact test of one leaf's `m` fences (their structure-of-arrays block at `block`, their
    /// ids at `ids`) against `p`: writes `make(id)` for each fence containing `p` to `out`, in
    /// order, and returns how many (`out` needs room for `m`). Branch-free: every fence is
    /// written and the count advances past hits only. The sign bit of `chord2 - distance2` is 0
    /// exactly when `distance2 <= chord2` (both are >= +0 and finite, and a difference of
    /// distinct doubles is never 0), which LLVM cannot turn back into a branch. Two fences per
    /// step, lane-wise the same operations in the same order as `squaredChord`, so
    /// bit-identical to it.
    @inlinable @inline(__always)
    static func scanLeaf<T>(
        _ block: UnsafePointer<Double>, count m: Int, _ p: UnitVector, ids: UnsafePointer<Int32>,
        into out: UnsafeMutablePointer<T>, _ make: (Int32) -> T
    ) -> Int {
        let px2 = SIMD2<Double>(repeating: p.x), py2 = SIMD2<Double>(repeating: p.y)
        let pz2 = SIMD2<Double>(repeating: p.z)
        let xs = block, ys = block + m, zs = block + 2 &* m, cs = block + 3 &* m
        var n = 0
        var k = 0
        while k &+ 1 < m {
            let dx = px2 - UnsafeRawPointer(xs + k).loadUnaligned(as: SIMD2<Double>.self)
            let dy = py2 - UnsafeRawPointer(ys + k).loadUnaligned(as: SIMD2<Double>.self)
            let dz = pz2 - UnsafeRawPointer(zs + k).loadUnaligned(as: SIMD2<Double>.self)
            let margin =
                UnsafeRawPointer(cs + k).loadUnaligned(as: SIMD2<Double>.self)
                - (dx * dx + dy * dy + dz * dz)
            let bits = unsafeBitCast(margin, to: SIMD2<UInt64>.self)
            out[n] = make(ids[k])
            n &+= Int(truncatingIfNeeded: ~bits.x >> 63)
            out[n] = make(ids[k &+ 1])
            n &+= Int(truncatingIfNeeded: ~bits.y >> 63)
            k &+= 2
        }
        if k < m {
            let margin = cs[k] - squaredChord(p.x, p.y, p.z, xs[k], ys[k], zs[k])
            out[n] = make(ids[k])
            n &+= Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
        }
        return n
    }
}
