import Geodesy

extension PackedRTree {
    /// Fixes per block of the batch query.
    @usableFromInline static var batchBlock: Int { 64 }
    /// (fix, node) pairs one level's worklist holds (4 KB; more for nodes of over 128 children).
    @usableFromInline static var worklistCapacity: Int { 512 }

    /// The batch stabbing query (see ``FenceIndex/forEachContaining(latitudes:longitudes:_:)``):
    /// the fixes go down the tree together, a block of `batchBlock` at a time, level by level.
    ///
    /// Each level has a worklist of (fix, node) pairs; a pair's children whose box contains the
    /// fix are appended to the next level's list without a branch, and the leaf level's pairs
    /// get the exact test. The pairs of a level are independent of one another, so their box
    /// loads and compares overlap, where one fix's depth-first descent waits on each popped
    /// node in turn (on the 3k-fence workload the inner levels cost ~80 ns per fix that way).
    /// A list that fills up is drained downwards first (its level's cursor is kept), so the
    /// scratch is fixed: `height` lists of `worklistCapacity` pairs.
    ///
    /// Fixes whose longitude + 360 reaches a box past the antimeridian go down a second time as
    /// extra "virtual" fixes (see the type's comment); invalid fixes (latitude outside
    /// [-90, 90], a non-finite coordinate) match nothing. Hits come in an index-specific order.
    @inlinable
    public func forEachContaining(
        latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
        _ body: (UnsafeBufferPointer<StabHit>) -> Void
    ) {
        precondition(
            latitudes.count == longitudes.count && latitudes.count < Int(Int32.max),
            "latitudes and longitudes differ in count, or too many fixes")
        guard height > 0, !latitudes.isEmpty else { return }
        let block = PackedRTree.batchBlock
        let leafCount = leafNodeCount, leafSize = self.leafSize, lanes = self.lanes
        // Room for the roots (two per fix at most) and for a node's children past the fill mark.
        let capacity = Swift.max(PackedRTree.worklistCapacity, 4 &* lanes)
        let hitCapacity = StabHit.chunkSize
        let height = self.height
        let fenceCount = count
        let root = UInt64(nodeCount - 1)
        let crossing = rootEast >= 180
        childBoxes.withUnsafeBufferPointer { boxes in
            nodeChildren.withUnsafeBufferPointer { children in
                itemData.withUnsafeBufferPointer { d in
                    ids.withUnsafeBufferPointer { ids in
                        // Per virtual fix v (v < block: the block's fix v; v >= block: the second descent of
                        // fix origin[v - block]): Float latitude and descent longitude.
                        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 &* block) { degrees in
                            withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { origin in
                                withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 &* block) { vectors in
                                    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: height &* capacity) { lists in
                                        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 &* (height &+ 1)) { counters in
                                            withUnsafeTemporaryAllocation(of: StabHit.self, capacity: hitCapacity) { hits in
                                                let lats = degrees.baseAddress!, lngs = lats + 2 &* block
                                                let xs = vectors.baseAddress!, ys = xs + block, zs = ys + block
                                                // List of level l (1 = leaves ... height = root) at (l - 1) * capacity; its write
                                                // count at counters[l], its read cursor at counters[height + 1 + l].
                                                let list = lists.baseAddress!
                                                let counts = counters.baseAddress!, cursors = counts + (height &+ 1)
                                                var h = 0
                                                var first = 0
                                                while first < latitudes.count {
                                                    let end = Swift.min(first &+ block, latitudes.count)
                                                    // The roots: every valid fix, then the second descents.
                                                    var roots = 0, extra = 0
                                                    let rootList = list + (height &- 1) &* capacity
                                                    for q in first..<end {
                                                        let v = q &- first
                                                        let latitude = latitudes[q]
                                                        var lon = longitudes[q]
                                                        guard latitude >= -90 && latitude <= 90 else { continue }  // also NaN
                                                        if !(lon >= -180 && lon < 180) {
                                                            guard lon.isFinite else { continue }
                                                            lon = lon.remainder(dividingBy: 360)
                                                            if lon >= 180 { lon -= 360 }
                                                        }
                                                        let p = UnitVector(fastLatitude: latitude, longitude: longitudes[q])
                                                        xs[v] = p.x; ys[v] = p.y; zs[v] = p.z
                                                        lats[v] = Float(latitude)
                                                        lngs[v] = Float(lon)
                                                        rootList[roots] = UInt64(v) << 32 | root
                                                        roots &+= 1
                                                        let shifted = Float(lon + 360)
                                                        if crossing && shifted <= rootEast {
                                                            let w = block &+ extra
                                                            lats[w] = Float(latitude)
                                                            lngs[w] = shifted
                                                            origin[extra] = Int32(truncatingIfNeeded: v)
                                                            rootList[roots] = UInt64(w) << 32 | root
                                                            roots &+= 1
                                                            extra &+= 1
                                                        }
                                                    }
                                                    for l in 0...height { counts[l] = 0; cursors[l] = 0 }
                                                    counts[height] = roots
                                                    var level = height
                                                    while level <= height {
                                                        if counts[level] == cursors[level] {
                                                            // Exhausted: drain the level below if it has pairs, else go back up.
                                                            counts[level] = 0; cursors[level] = 0
                                                            if level > 1 && counts[level &- 1] > 0 { level &-= 1 } else { level &+= 1 }
                                                            continue
                                                        }
                                                        let items = list + (level &- 1) &* capacity
                                                        if level == 1 {
                                                            // Leaves: the exact test of each pair's fences.
                                                            for i in cursors[1]..<counts[1] {
                                                                let item = items[i]
                                                                let v = Int(truncatingIfNeeded: item >> 32)
                                                                let node = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: item))
                                                                let wrapped = v >= block
                                                                let r = wrapped ? Int(origin[v &- block]) : v
                                                                let fix = Int32(truncatingIfNeeded: first &+ r)
                                                                if h > hitCapacity &- leafSize {
                                                                    body(UnsafeBufferPointer(start: hits.baseAddress, count: h))
                                                                    h = 0
                                                                }
                                                                let start = node &* leafSize
                                                                let end = Swift.min(start &+ leafSize, fenceCount)
                                                                if wrapped || (crossing && leafCrosses(node)) {
                                                                    if !leafCrosses(node) { continue }
                                                                    crossingLeafScan(
                                                                        start..<end, UnitVector(x: xs[r], y: ys[r], z: zs[r]),
                                                                        longitude: lngs[r], wrapped: wrapped
                                                                    ) { k, accepted in
                                                                        hits[h] = StabHit(fence: ids[k], fix: fix)
                                                                        h &+= accepted ? 1 : 0
                                                                    }
                                                                    continue
                                                                }
                                                                // ``scanLeaf`` written out: calling it here measured ~5 % slower
                                                                // at 3k fences (three interleaved runs).
                                                                let px2 = SIMD2<Double>(repeating: xs[r]), py2 = SIMD2<Double>(repeating: ys[r])
                                                                let pz2 = SIMD2<Double>(repeating: zs[r])
                                                                let m = end &- start
                                                                let base = d.baseAddress! + start &* 4
                                                                let fx = base, fy = base + m, fz = base + 2 &* m, fc = base + 3 &* m
                                                                var k = 0
                                                                while k &+ 1 < m {
                                                                    let dx = px2 - UnsafeRawPointer(fx + k).loadUnaligned(as: SIMD2<Double>.self)
                                                                    let dy = py2 - UnsafeRawPointer(fy + k).loadUnaligned(as: SIMD2<Double>.self)
                                                                    let dz = pz2 - UnsafeRawPointer(fz + k).loadUnaligned(as: SIMD2<Double>.self)
                                                                    let margin =
                                                                        UnsafeRawPointer(fc + k).loadUnaligned(as: SIMD2<Double>.self)
                                                                        - (dx * dx + dy * dy + dz * dz)
                                                                    let bits = unsafeBitCast(margin, to: SIMD2<UInt64>.self)
                                                                    hits[h] = StabHit(fence: ids[start &+ k], fix: fix)
                                                                    h &+= Int(truncatingIfNeeded: ~bits.x >> 63)
                                                                    hits[h] = StabHit(fence: ids[start &+ k &+ 1], fix: fix)
                                                                    h &+= Int(truncatingIfNeeded: ~bits.y >> 63)
                                                                    k &+= 2
                                                                }
                                                                if k < m {
                                                                    let margin = fc[k] - squaredChord(xs[r], ys[r], zs[r], fx[k], fy[k], fz[k])
                                                                    hits[h] = StabHit(fence: ids[start &+ k], fix: fix)
                                                                    h &+= Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
                                                                }
                                                            }
                                                            cursors[1] = counts[1]
                                                            continue
                                                        }
                                                        // An inner level: append the children whose box holds the fix to the list
                                                        // below, until it has no room for another node's children.
                                                        let below = list + (level &- 2) &* capacity
                                                        var out = counts[level &- 1]
                                                        var i = cursors[level]
                                                        let limit = counts[level]
                                                        while i < limit && out <= capacity &- lanes {
                                                            let item = items[i]
                                                            i &+= 1
                                                            let v = Int(truncatingIfNeeded: item >> 32)
                                                            let node = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: item))
                                                            let lat4 = SIMD4<Float>(repeating: lats[v]), lng4 = SIMD4<Float>(repeating: lngs[v])
                                                            let k = node &- leafCount
                                                            let tag = item & ~0xFFFF_FFFF | UInt64(truncatingIfNeeded: children[k &* 2])
                                                            let base = boxes.baseAddress! + k &* 4 &* lanes
                                                            var c = 0
                                                            while c < lanes {
                                                                let bits = PackedRTree.childBits(base, lanes: lanes, slot: c, lat4, lng4)
                                                                let child = tag &+ UInt64(truncatingIfNeeded: c)
                                                                below[out] = child
                                                                out &+= Int(truncatingIfNeeded: bits.x)
                                                                below[out] = child &+ 1
                                                                out &+= Int(truncatingIfNeeded: bits.y)
                                                                below[out] = child &+ 2
                                                                out &+= Int(truncatingIfNeeded: bits.z)
                                                                below[out] = child &+ 3
                                                                out &+= Int(truncatingIfNeeded: bits.w)
                                                                c &+= 4
                                                            }
                                                        }
                                                        counts[level &- 1] = out
                                                        cursors[level] = i
                                                        if out > 0 { level &-= 1 }
                                                    }
                                                    first = end
                                                }
                                                if h > 0 { body(UnsafeBufferPointer(start: hits.baseAddress, count: h)) }
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
}
