import Geodesy

extension TransitionDetector {
    /// Re-fetches the fences near `p`, makes `p` the anchor, restarts the odometer and applies
    /// the fix at `p` to every merged entry (by slot; see `updateAll`): new fences start
    /// `outside` when the device had an earlier accepted fix (every fence not held was
    /// decisively outside then) and `unknown` on its first fix; fences settled outside whose boundary band stays beyond the slack are dropped
    /// (implicitly outside), and so are held fences the index no longer reports unless the
    /// device is inside or pending. O(fences reported + entries held); allocation-free once the
    /// scratch buffers and the pool have grown.
    @usableFromInline
    mutating func refreshNeighborhood(_ t: inout DeviceTrack, device: Int32, at p: UnitVector, latitude: Double,
                                      longitude: Double, time: Double, accuracy: Double, speed: Double,
                                      known: Bool, into events: inout [TransitionEvent]) {
        counters.neighborhoodQueries += 1
        // The slots of the fences the index reports within `queryRadiusMeters` of `p`.
        var found = scratch
        scratch = []
        found.removeAll(keepingCapacity: true)
        var unknown = 0
        if slotTable.isEmpty {
            let slots = slotOfID
            queryWithin(queryRadiusMeters, p, latitude, longitude) { id in
                if let s = slots[id] { found.append(s) } else { unknown += 1 }
            }
        } else {
            slotTable.withUnsafeBufferPointer { table in
                queryWithin(queryRadiusMeters, p, latitude, longitude) { id in
                    let s = id >= 0 && Int(id) < table.count ? table[Int(id)] : -1
                    if s >= 0 { found.append(s) } else { unknown += 1 }
                }
            }
        }
        counters.unknownFenceIDs += unknown
        let kept = merge(t, found: found, at: p, newState: known ? .outside : .unknown)
        scratch = found
        install(kept, into: &t)
        spareEntries = kept
        t.setAnchor(p)
        t.odometer = 0
        updateAll(&t, device: device, at: p, time: time, accuracy: accuracy, speed: speed, dropFar: true, into: &events)
    }

    /// The entries to hold after a refresh at `p`: every held entry whose slot is in `found`,
    /// then every slot of `found` not held as a new entry in `newState`, then the held entries
    /// not found that are inside or pending. Built in the spare entry buffer. O(held + found).
    @usableFromInline
    mutating func merge(_ t: DeviceTrack, found: [Int32], at p: UnitVector, newState: FenceEntry.State) -> [FenceEntry] {
        var kept = spareEntries
        spareEntries = []
        kept.removeAll(keepingCapacity: true)
        var marks = mark
        mark = []
        let start = Int(t.entryStart), count = t.entryCount
        geometry.withUnsafeBufferPointer { geometry in
            pool.storage.withUnsafeBufferPointer { old in
                // Whether to hold `e`: not when it was not found and is neither inside nor pending
                // (the far ones found are dropped by the visit that follows: `updateAll`).
                @inline(__always) func keeps(_ e: FenceEntry, wasFound: Bool) -> Bool {
                    wasFound || e.state == .inside || e.pending > 0
                }
                for k in start..<(start + count) { marks[Int(old[k].slot)] = Int32(k - start) }
                for s in found {
                    let m = marks[Int(s)]
                    if m >= 0 {
                        if keeps(old[start + Int(m)], wasFound: true) { kept.append(old[start + Int(m)]) }
                        marks[Int(s)] = -2  // handled
                    } else if m == -1 {
                        let e = FenceEntry(slot: s, hasDwell: geometry[Int(s)].dwellSeconds != .infinity, state: newState)
                        if keeps(e, wasFound: true) { kept.append(e) }
                        marks[Int(s)] = -2  // an index that reports a fence twice adds it once
                    }
                }
                for k in start..<(start + count) {
                    let s = Int(old[k].slot)
                    if marks[s] >= 0 && keeps(old[k], wasFound: false) { kept.append(old[k]) }
                    marks[s] = -1
                }
                for s in found { marks[Int(s)] = -1 }
            }
        }
        mark = marks
        return kept
    }

    /// Gives track `t` a block of the smallest class that holds `n` entries (none for 0), moving
    /// its first `moving` entries there when the class changes.
    @usableFromInline
    mutating func fitBlock(_ t: inout DeviceTrack, for n: Int, moving: Int) {
        let current = t.blockClass
        let needed = n == 0 ? EntryPool.noBlock : EntryPool.sizeClass(for: n)
        if needed == current { return }
        let from = Int(t.entryStart)
        let to = needed == EntryPool.noBlock ? 0 : Int(pool.allocate(needed))
        if moving > 0 {
            pool.storage.withUnsafeMutableBufferPointer { storage in
                for k in 0..<moving { storage[to + k] = storage[from + k] }
            }
        }
        pool.release(t.entryStart, current)
        t.entryStart = UInt32(to)
        t.blockClass = needed
    }

    /// Makes `entries` the entries of track `t` (each to be looked at on the next fix), in a
    /// block of the smallest class that holds them.
    @usableFromInline
    mutating func install(_ entries: [FenceEntry], into t: inout DeviceTrack) {
        let n = entries.count
        fitBlock(&t, for: n, moving: 0)
        let start = Int(t.entryStart)
        pool.storage.withUnsafeMutableBufferPointer { storage in
            for k in 0..<n {
                storage[start + k] = entries[k]
                storage[start + k].due = 0
            }
        }
        t.entryCount = n
    }
}
