import Geodesy

extension LatLngGridIndex {
    /// Fixes per block of the batch query: its scratch (worklist, starts) stays in L1.
    @usableFromInline static var batchBlock: Int { 128 }
    /// Hits gathered before `body` is called.
    @usableFromInline static var batchHitBuffer: Int { StabHit.chunkSize }

    /// The batch stabbing query (see ``FenceIndex/forEachContaining(latitudes:longitudes:_:)``),
    /// in three passes per block of `batchBlock` fixes, so that the branches that depend on the
    /// data (does this fix's cell list fences? how many hits?) are taken once per block, not
    /// once per fix:
    /// 1. every fix's cell is looked up and the fixes whose cell has entries are appended to a
    ///    worklist without a branch (write, advance by 0 or 1); the independent hash probes of
    ///    the block overlap in memory;
    /// 2. for each worklist fix, its unit vector, then its cell's entries as in the single-fix
    ///    query, hits written as (fix, id) pairs into a buffer;
    /// 3. the buffer is handed to `body` (also whenever it fills up).
    /// Hits come block by block, in fix order within a block for one level.
    @inlinable
    public func forEachContaining(
        latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
        _ body: (UnsafeBufferPointer<StabHit>) -> Void
    ) {
        precondition(
            latitudes.count == longitudes.count && latitudes.count < Int(Int32.max),
            "latitudes and longitudes differ in count, or too many fixes")
        let levelCount = levelMask.nonzeroBitCount
        if levelCount == 0 || latitudes.isEmpty { return }
        let block = LatLngGridIndex.batchBlock
        let capacity = LatLngGridIndex.batchHitBuffer
        cells.words.withUnsafeBufferPointer { words in
            entries.withUnsafeBufferPointer { entries in
                records.withUnsafeBufferPointer { records in
                    kinds.withUnsafeBufferPointer { kinds in
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: block &* levelCount) { items in
                            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: block &* levelCount) { starts in
                                withUnsafeTemporaryAllocation(of: StabHit.self, capacity: capacity) { pairs in
                                    var n = 0
                                    var first = 0
                                    while first < latitudes.count {
                                        let end = Swift.min(first &+ block, latitudes.count)
                                        // Pass 1: cells with entries go to the worklist.
                                        var w = 0
                                        var mask = levelMask
                                        repeat {
                                            let level = mask.trailingZeroBitCount
                                            mask &= mask &- 1
                                            let grid = grids[level]
                                            for q in first..<end {
                                                let latitude = latitudes[q]
                                                var longitude = longitudes[q]
                                                guard latitude >= -90 && latitude <= 90 else { continue }  // also NaN
                                                if !(longitude >= -180 && longitude <= 180) {
                                                    guard longitude.isFinite else { continue }
                                                    longitude = longitude.remainder(dividingBy: 360)
                                                }
                                                let key = grid.key(latitude: latitude, longitude: longitude)
                                                let (found, start) = cells.lookup(key, level: level, words)
                                                items[w] = Int32(truncatingIfNeeded: q)
                                                starts[w] = start
                                                w &+= LatLngGridIndex.bit(found)
                                            }
                                        } while mask != 0
                                        // Pass 2: the entries of each listed fix.
                                        for t in 0..<w {
                                            let q = Int(items[t])
                                            let p = UnitVector(fastLatitude: latitudes[q], longitude: longitudes[q])
                                            let fix = Int32(truncatingIfNeeded: q)
                                            var e = Int(starts[t])
                                            var entry: UInt32
                                            repeat {
                                                entry = entries[e]
                                                e &+= 1
                                                let interior = (entry >> 5) & 3  // 3: no distance needed
                                                var r = Int(entry >> 8) &* LatLngGridIndex.recordWords
                                                let end = r &+ (Int(entry & 31) &+ 1) &* LatLngGridIndex.recordWords
                                                repeat {
                                                    if n > capacity &- LatLngGridIndex.maxGroupSize {
                                                        body(UnsafeBufferPointer(rebasing: pairs[0..<n]))
                                                        n = 0
                                                    }
                                                    let ids01 = records[r &+ 3]
                                                    pairs[n] = StabHit(fence: Int32(truncatingIfNeeded: ids01), fix: fix)
                                                    pairs[n &+ 1] = StabHit(fence: Int32(truncatingIfNeeded: ids01 >> 32), fix: fix)
                                                    pairs[n &+ 2] = StabHit(fence: Int32(truncatingIfNeeded: records[r &+ 4]), fix: fix)
                                                    n &+=
                                                        interior == 3
                                                        ? LatLngGridIndex.presentFences(records, r, kinds)
                                                        : LatLngGridIndex.groupHits(records, r, p, kinds)
                                                    r &+= LatLngGridIndex.recordWords
                                                } while r < end
                                            } while entry & 128 == 0
                                        }
                                        first = end
                                    }
                                    // Pass 3 (also above, whenever the buffer fills up).
                                    if n > 0 { body(UnsafeBufferPointer(rebasing: pairs[0..<n])) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
