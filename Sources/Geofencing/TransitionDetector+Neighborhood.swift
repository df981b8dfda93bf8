import Geodesy

extension TransitionDetector {
    /// Re-fetches the fences near `p` and merges them with the track's entries (by slot):
    /// new fences start `outside` when the device had an earlier accepted fix (every fence not
    /// held was decisively outside then) and `unknown` on its first fix; fences settled outside
    /// whose boundary band stays beyond the slack are dropped (implicitly outside). The kept
    /// entries are ranked by horizon (``rank(_:found:at:newState:)``) and `p` becomes the anchor.
    /// O(fences reported + entries held), allocation-free once the scratch buffers have grown.
    @usableFromInline
    mutating func refreshNeighborhood(_ slot: Int, at p: UnitVector, known: Bool) {
        counters.neighborhoodQueries += 1
        // The slots of the fences the index reports within `queryRadiusMeters` of `p`.
        var found = scratch
        scratch = []
        found.removeAll(keepingCapacity: true)
        var unknown = 0
        if slotTable.isEmpty {
            let slots = slotOfID
            queryWithin(queryRadiusMeters, p) { id in
                if let s = slots[id] { found.append(s) } else { unknown += 1 }
            }
        } else {
            slotTable.withUnsafeBufferPointer { table in
                queryWithin(queryRadiusMeters, p) { id in
                    let s = id >= 0 && Int(id) < table.count ? table[Int(id)] : -1
                    if s >= 0 { found.append(s) } else { unknown += 1 }
                }
            }
        }
        counters.unknownFenceIDs += unknown
        var old: [FenceEntry] = []
        swap(&old, &tracks[slot].entries)
        let ordered = rank(old, found: found, at: p, newState: known ? .outside : .unknown)
        scratch = found
        install(ordered, slot: slot, anchor: p)
    }

    /// Makes `entries` (ranked at `anchor`) the track's, with `anchor` as the point the device's
    /// moves are measured from.
    @usableFromInline
    mutating func install(_ entries: [FenceEntry], slot: Int, anchor: UnitVector) {
        tracks[slot].nextHorizon = entries.first?.horizon ?? .infinity
        tracks[slot].entries = entries
        tracks[slot].processed = 0
        tracks[slot].anchor = anchor
    }

    /// The entries to hold after a refresh at `p`, ordered by horizon: every entry of `old`
    /// whose slot is in `found`, then every slot of `found` not in `old` as a new entry in
    /// `newState`, then the entries of `old` not found that are inside or pending; minus the
    /// entries settled outside whose boundary band stays beyond the slack.
    ///
    /// Each entry gets its horizon: how far (chord units) the device may move from `p` before a
    /// fix could be decisive on the other side of the fence than `p` is, i.e.
    /// `|chord(p, center) - radiusChord| - band - maxAccuracyChord` (chords obey the triangle
    /// inequality); -1 (always visited) when its state is unknown, pending, not the side `p` is
    /// on, or has a dwell to fire. The order is a stable counting sort over
    /// ``horizonBuckets`` buckets, each horizon rounded down to its bucket's lower edge, so a
    /// fix visits a prefix. O(old + found).
    @usableFromInline
    mutating func rank(_ old: [FenceEntry], found: [Int32], at p: UnitVector, newState: FenceEntry.State) -> [FenceEntry] {
        // Scratch buffers keep their size between refreshes; only their first entries are used.
        // They are moved out of `self` while in use, so writing them copies nothing.
        var keptStorage = spareEntries
        spareEntries = []
        var bucketStorage = bucketOf
        bucketOf = []
        var markStorage = mark
        mark = []
        let capacity = found.count + old.count
        if keptStorage.count < capacity {
            keptStorage.append(contentsOf: repeatElement(makeEntry(0, state: .unknown), count: capacity - keptStorage.count))
        }
        if bucketStorage.count < capacity {
            bucketStorage.append(contentsOf: repeatElement(0, count: capacity - bucketStorage.count))
        }
        var kept = keptStorage.mutableSpan
        var buckets = bucketStorage.mutableSpan
        var marks = markStorage.mutableSpan
        let old = old.span
        var counts = InlineArray<64, Int32>(repeating: 0)   // one per horizon bucket (horizonBuckets == 64)
        var n = 0

        let dropBeyond = slackChord + 1e-12
        let maxAccuracyChord = self.maxAccuracyChord
        let lastBucket = Self.horizonBuckets - 1
        let bucketWidth = (slackChord - 1e-12) / Double(lastBucket - 1)  // 62 widths end just below the slack
        // Appends `entry` with its horizon and bucket, unless it is settled outside beyond the slack
        // (or, not found, neither inside nor pending).
        func keep(_ entry: FenceEntry, wasFound: Bool, _ kept: inout MutableSpan<FenceEntry>,
                  _ buckets: inout MutableSpan<UInt8>, _ counts: inout InlineArray<64, Int32>, _ n: inout Int) {
            var e = entry
            if !wasFound && !(e.state == .inside || e.pending > 0) { return }
            let ca = p.chord2(to: e.center).squareRoot()
            let gap = abs(ca - e.radiusChord) - e.band - maxAccuracyChord
            let outsideSide = ca > e.radiusChord
            let settled = e.pending == 0 && e.state != .unknown && e.dwellDone
            let agrees = outsideSide ? e.state == .outside : e.state == .inside
            if settled && agrees && outsideSide && gap > dropBeyond { return }
            var b = 0
            if settled && agrees && gap > 0 {
                // The bucket's lower edge, never above the gap (a safe, rounded-down horizon).
                var k = Swift.min(lastBucket - 1, Int(gap / bucketWidth))
                if Double(k) * bucketWidth > gap { k -= 1 }
                e.horizon = Double(k) * bucketWidth
                b = k + 1
            } else {
                e.horizon = -1
            }
            buckets[n] = UInt8(truncatingIfNeeded: b)
            counts[b] += 1
            kept[n] = e
            n += 1
        }

        // Candidates: every old entry (marked by slot), then every found fence not already held.
        for k in old.indices { marks[Int(old[k].slot)] = Int32(k) }
        for s in found {
            let m = marks[Int(s)]
            if m >= 0 {
                keep(old[Int(m)], wasFound: true, &kept, &buckets, &counts, &n)
                marks[Int(s)] = -2  // handled
            } else if m == -1 {
                keep(makeEntry(s, state: newState), wasFound: true, &kept, &buckets, &counts, &n)
            }
        }
        for k in old.indices {
            let slot = Int(old[k].slot)
            if marks[slot] >= 0 { keep(old[k], wasFound: false, &kept, &buckets, &counts, &n) }
            marks[slot] = -1
        }

        // Counting sort by bucket (stable): bucket starts, then each entry to its place.
        var start: Int32 = 0
        for b in counts.indices {
            let count = counts[b]
            counts[b] = start
            start += count
        }
        let ordered = [FenceEntry](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0..<n {
                let b = Int(buckets[i])
                buffer.initializeElement(at: Int(counts[b]), to: kept[i])
                counts[b] += 1
            }
            initialized = n
        }
        spareEntries = keptStorage
        bucketOf = bucketStorage
        mark = markStorage
        return ordered
    }

    /// A fresh entry for fence `slot` in `state`, with the fence's cached geometry.
    @usableFromInline
    func makeEntry(_ slot: Int32, state: FenceEntry.State) -> FenceEntry {
        let g = geometry[Int(slot)]
        return FenceEntry(slot: slot, center: g.center, radiusChord: g.radiusChord, band: g.band,
                          dwellSeconds: g.dwellSeconds, state: state)
    }
}
