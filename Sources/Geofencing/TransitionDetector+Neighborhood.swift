import CPrefetch
import Geodesy

extension TransitionDetector {
    /// Re-fetches the fences near the new anchor, makes it the anchor, restarts the odometer
    /// and applies the fix at `p` to every entry it keeps (see
    /// ``rebuild(_:found:foundOnce:keepAll:newState:fix:dropBeyond:into:)``): new fences start `outside`
    /// when the device had an earlier accepted fix (every fence not held was decisively outside
    /// then) and `unknown` on its first fix. The new anchor is `p`, or with `previous` (the
    /// device's previous accepted fix, `step` chord units before `p`) the point ``leadChord``
    /// beyond `p` along that step (to within a meter away from the poles, where its degrees are
    /// found to first order and it is the point of those degrees): within the slack of `p`, so
    /// `p` and every fix within the slack of the anchor are covered by the query there.
    /// O(fences reported + entries held); allocation-free once the scratch buffers and the pool
    /// have grown.
    @usableFromInline
    mutating func refreshNeighborhood(
        _ t: inout DeviceTrack, device: Int32, at p: UnitVector, latitude: Double,
        longitude: Double, time: Double, accuracy: Double, speed: Double,
        known: Bool, previous: UnitVector?, step: Double,
        into events: inout [TransitionEvent]
    ) {
        counters.neighborhoodQueries += 1
        // The anchor, its distance `lead` from `p` (chord units) and its degrees.
        var anchor = p, lead = 0.0
        var latitude = latitude, longitude = longitude
        if let previous {
            let k = leadChord / step
            // The lead: the step scaled to `leadChord` (chord units).
            let vx = k * (p.x - previous.x), vy = k * (p.y - previous.y), vz = k * (p.z - previous.z)
            let cosLatitude = (p.x * p.x + p.y * p.y).squareRoot()
            if cosLatitude > 0.1 {
                // Away from the poles (within 84 degrees of the equator): the lead's north and east
                // parts added to the fix's degrees (to first order: the anchor is off the line of
                // the step by about lead^2 / R, half a meter at 2.4 km, which only moves the next
                // query), and the anchor is the point of those degrees, so that the query in
                // degrees and the anchor the fixes are measured from are the same point. No atan2.
                let cosLongitude = p.x / cosLatitude, sinLongitude = p.y / cosLatitude
                let north = cosLatitude * vz - p.z * (cosLongitude * vx + sinLongitude * vy)
                let east = cosLongitude * vy - sinLongitude * vx
                latitude += north * (180 / Double.pi)
                longitude += east / cosLatitude * (180 / Double.pi)
                if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
                anchor = UnitVector(quickLatitude: latitude, longitude: longitude)
            } else {
                let x = p.x + vx, y = p.y + vy, z = p.z + vz
                let n = 1 / (x * x + y * y + z * z).squareRoot()
                anchor = UnitVector(x: x * n, y: y * n, z: z * n)
                let ll = anchor.latLng
                latitude = ll.latitude
                longitude = ll.longitude
            }
            lead = p.chord2(to: anchor).squareRoot()
        }
        // The slots of the fences the index reports within `queryRadiusMeters` of the anchor.
        var found = scratch
        scratch = []
        var reported = 0
        var unknown = 0
        var foundOnce = false
        if let grid = neighborhoodGrid.take() {
            // Moved out and back rather than read in place, which copies it (a retain and a
            // release of each of its arrays per query).
            defer { neighborhoodGrid = consume grid }
            // The grid reports each fence once (the contract of `FenceIndex.forEachContaining`,
            // which `LatLngGridIndex` keeps): `found` (one slot per fence) has room, and the
            // rebuild skips its guard against a fence reported twice (`foundOnce`).
            if found.count < geometryTable.count { found = [Int32](repeating: -1, count: geometryTable.count) }
            found.withUnsafeMutableBufferPointer { found in
                grid.forEachContaining(latitude: latitude, longitude: longitude) { s in
                    precondition(reported < found.count, "the grid reported a fence twice")
                    found[reported] = s
                    reported &+= 1
                }
            }
            foundOnce = true
        } else {
            found.removeAll(keepingCapacity: true)
            queryIndex(at: anchor, latitude: latitude, longitude: longitude, into: &found, unknown: &unknown)
            reported = found.count
        }
        counters.unknownFenceIDs += unknown
        let fix = FixContext(self, device: device, at: p, time: time, accuracy: accuracy, speed: speed, odometer: 0)
        rebuild(
            &t, found: found[..<reported], foundOnce: foundOnce, keepAll: false, newState: known ? .outside : .unknown,
            fix: fix, dropBeyond: slackChord + lead, into: &events)
        scratch = found
        t.setAnchor(anchor)
    }

    /// Appends to `found` the slots of the fences the shared index reports within
    /// `queryRadiusMeters` of `p`, counting ids it does not know in `unknown`.
    @usableFromInline
    func queryIndex(at p: UnitVector, latitude: Double, longitude: Double, into found: inout [Int32], unknown: inout Int) {
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
    }

    /// Applies `fix` (at odometer 0) to the entries track `t` is to hold and makes them its
    /// entries, with the odometer at 0.
    ///
    /// The entries held: every held entry whose slot is in `found`; every slot of `found` not
    /// held, as a new entry in `newState`; and the held entries not found that are inside or
    /// pending, or all of them with `keepAll` (a rebase: `found` empty, nothing dropped).
    /// An entry settled outside whose clearance (``FixContext/clearance(_:c2:_:)``) exceeds
    /// `dropBeyond` is dropped: after a refresh, the slack plus the anchor's distance from the
    /// fix, so that no fix within the slack of the anchor can change it, and it is implicitly
    /// outside (infinity for a rebase). Each kept entry is visited once and re-armed, then
    /// placed into a block of the smallest class that holds them, in the order gathered.
    /// O(held + found): one pass finds and looks at the entries to keep, one places them.
    /// `foundOnce`: the caller guarantees that no slot occurs twice in `found` (true for the
    /// detector's own `LatLngGridIndex`, whose `forEachContaining` reports each fence once, as
    /// `FenceIndex` requires); the pass then skips its guard against a slot found twice, which
    /// the shared index's results (`forEachWithin`) keep. A slot twice with `foundOnce` would
    /// make two entries for one fence.
    @usableFromInline
    mutating func rebuild(
        _ t: inout DeviceTrack, found: ArraySlice<Int32>, foundOnce: Bool = false, keepAll: Bool,
        newState: FenceEntry.State, fix: FixContext, dropBeyond: Double = .infinity, into events: inout [TransitionEvent]
    ) {
        let start = Int(t.entryStart), count = t.entryCount
        let capacity = count + found.count
        if spareEntries.count < capacity {
            spareEntries.append(
                contentsOf: repeatElement(
                    FenceEntry(slot: 0, hasDwell: false, state: .unknown),
                    count: capacity - spareEntries.count))
        }
        if spareDues.count < capacity {
            spareDues.append(contentsOf: repeatElement(0, count: capacity - spareDues.count))
        }
        var kept = spareEntries, keptDues = spareDues
        spareEntries = []
        spareDues = []
        var marks = mark
        mark = []
        var n = 0
        var least = UInt16.max
        let geometry = self.geometry
        pool.storage.withUnsafeBufferPointer { old in
            kept.withUnsafeMutableBufferPointer { out in
                keptDues.withUnsafeMutableBufferPointer { outDues in
                    marks.withUnsafeMutableBufferPointer { marks in
                        let held = UnsafeBufferPointer(rebasing: old[start..<(start + count)])
                        if geometryTable.outlineCount == 0 {
                            (n, least) = RebuildPass<CircleFences>.run(
                                held: held, found: found, foundOnce: foundOnce, keepAll: keepAll, newState: newState, marks: marks,
                                geometry: geometry, out: out, outDues: outDues, fix: fix, dropBeyond: dropBeyond,
                                into: &events)
                        } else {
                            (n, least) = RebuildPass<AnyFences>.run(
                                held: held, found: found, foundOnce: foundOnce, keepAll: keepAll, newState: newState, marks: marks,
                                geometry: geometry, out: out, outDues: outDues, fix: fix, dropBeyond: dropBeyond,
                                into: &events)
                        }
                    }
                }
            }
        }
        mark = marks
        fitBlock(&t, for: n, moving: 0)
        t.entryCount = n
        t.odometer = 0
        t.minimumDue = least
        place(kept, keptDues, n, in: t)
        spareEntries = kept
        spareDues = keptDues
    }

    /// Copies the first `n` of `entries` and `dues` into track `t`'s block and marks the rest
    /// of the block never due.
    @usableFromInline
    mutating func place(_ entries: [FenceEntry], _ dues: [UInt16], _ n: Int, in t: DeviceTrack) {
        guard t.blockClass != EntryPool.noBlock else { return }
        let block = Int(t.entryStart), size = 1 << Int(t.blockClass)
        precondition(n <= size && n <= entries.count && n <= dues.count)
        entries.withUnsafeBufferPointer { entries in
            pool.storage.withUnsafeMutableBufferPointer { storage in
                (storage.baseAddress! + block).update(from: entries.baseAddress!, count: n)
            }
        }
        dues.withUnsafeBufferPointer { dues in
            pool.dues.withUnsafeMutableBufferPointer { pooled in
                (pooled.baseAddress! + block).update(from: dues.baseAddress!, count: n)
                (pooled.baseAddress! + block + n).update(repeating: .max, count: size - n)
            }
        }
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
            pool.dues.withUnsafeMutableBufferPointer { dues in
                for k in 0..<moving { dues[to + k] = dues[from + k] }
            }
        }
        pool.release(t.entryStart, current)
        t.entryStart = UInt32(to)
        t.blockClass = needed
    }

    /// Makes `entries` the entries of track `t` (each to be looked at on the next fix: due 0),
    /// in a block of the smallest class that holds them.
    @usableFromInline
    mutating func install(_ entries: [FenceEntry], into t: inout DeviceTrack) {
        let n = entries.count
        fitBlock(&t, for: n, moving: 0)
        place(entries, [UInt16](repeating: 0, count: n), n, in: t)
        t.entryCount = n
        t.minimumDue = n > 0 ? 0 : .max
    }
}

/// The pass of ``TransitionDetector/rebuild(_:found:foundOnce:keepAll:newState:fix:dropBeyond:into:)``:
/// visits the entries to keep as it finds them (the held entries found, in the order found, and
/// new entries for the fences found not held; then the held entries not found that are inside
/// or pending) and collects the ones it keeps, with their due readings and the least of them.
/// `K`: the kinds of fence the detector has.
@usableFromInline
struct RebuildPass<K: FenceKinds> {
    let geometry: GeometryView
    /// Where the kept entries go, in the order visited.
    let out: UnsafeMutablePointer<FenceEntry>
    /// Where their due readings go.
    let outDues: UnsafeMutablePointer<UInt16>
    let fix: FixContext
    /// Clearance (``FixContext/clearance(_:c2:_:)``, chord units) beyond which an entry settled
    /// outside is dropped (infinity: never).
    let dropBeyond: Double
    /// Entries kept so far.
    var count = 0
    /// The least due reading kept (65,535 with none).
    var least = UInt16.max

    @inline(__always)
    init(
        geometry: GeometryView, out: UnsafeMutablePointer<FenceEntry>, outDues: UnsafeMutablePointer<UInt16>,
        fix: FixContext, dropBeyond: Double
    ) {
        self.geometry = geometry
        self.out = out
        self.outDues = outDues
        self.fix = fix
        self.dropBeyond = dropBeyond
    }

    /// Visits the entries a rebuild keeps (all of `held` with `keepAll`; else as the type says,
    /// marking the held slots in `marks`, all -1 before and after) and keeps them in `out` and
    /// `outDues` (room for `held.count + found.count`); returns how many were kept and the
    /// least of their due readings. With `foundOnce` (no slot twice in `found`, which the
    /// caller guarantees) only the found held slots are marked handled; otherwise every found
    /// slot is, so a slot reported twice is added once. O(held + found).
    @inline(__always)
    static func run(
        held: UnsafeBufferPointer<FenceEntry>, found: ArraySlice<Int32>, foundOnce: Bool, keepAll: Bool,
        newState: FenceEntry.State,
        marks: UnsafeMutableBufferPointer<Int32>, geometry: GeometryView,
        out: UnsafeMutableBufferPointer<FenceEntry>, outDues: UnsafeMutableBufferPointer<UInt16>,
        fix: FixContext, dropBeyond: Double, into events: inout [TransitionEvent]
    ) -> (count: Int, least: UInt16) {
        precondition(out.count >= held.count + found.count && outDues.count >= held.count + found.count)
        guard let outBase = out.baseAddress, let duesBase = outDues.baseAddress else { return (0, .max) }
        var c = RebuildPass(geometry: geometry, out: outBase, outDues: duesBase, fix: fix, dropBeyond: dropBeyond)
        if keepAll {
            for e in held { c.take(e, into: &events) }
            return (c.count, c.least)
        }
        for k in held.indices { marks[Int(held[k].slot)] = Int32(truncatingIfNeeded: k) }
        found.withUnsafeBufferPointer { found in
            // The found fences' geometry requested at once (read below), so the misses overlap.
            for s in found { geofence_prefetch(geometry.address(Int(s))) }
            if foundOnce {
                // Each slot once: a new one's mark stays -1 (no other visit reads it), a held
                // one's is set to -2 (found), then back to -1 below.
                for s in found {
                    let m = marks[Int(s)]
                    if m >= 0 {
                        c.take(held[Int(m)], into: &events)
                        marks[Int(s)] = -2
                    } else {
                        c.take(FenceEntry(slot: s, hasDwell: geometry.hasDwell(Int(s)), state: newState), into: &events)
                    }
                }
            } else {
                for s in found {
                    let m = marks[Int(s)]
                    if m >= 0 {
                        c.take(held[Int(m)], into: &events)
                    } else if m == -1 {
                        c.take(FenceEntry(slot: s, hasDwell: geometry.hasDwell(Int(s)), state: newState), into: &events)
                    }
                    marks[Int(s)] = -2  // handled (an index that reports a fence twice adds it once)
                }
            }
            for k in held.indices {
                let e = held[k]
                let s = Int(e.slot)
                // Not found (its mark still set) but inside (state 2) or pending: kept.
                if marks[s] >= 0 && (e.flags & 2 != 0 || e.pending != 0) { c.take(e, into: &events) }
                marks[s] = -1
            }
            if !foundOnce { for s in found { marks[Int(s)] = -1 } }
        }
        return (c.count, c.least)
    }

    /// Visits `entry` (appending its event) and keeps it with its due reading, unless it is
    /// settled outside with a clearance beyond `dropBeyond`. The entry is written out first and
    /// decided there (out of line) when the fix may change it.
    @inline(__always)
    mutating func take(_ e: FenceEntry, into events: inout [TransitionEvent]) {
        let slot = out + count
        slot.initialize(to: e)
        let r = geometry.records[Int(e.slot)]
        let shape = geometry.shapes[Int(r.shape)]
        let c2 = geometry.chord2(K.self, r, radiusChord: shape.radiusChord, fix.p)
        let due: UInt16
        var keep = 1
        if e.isSettled,
            case let clearance = FixContext.clearance(
                e, c2: c2, radiusChord: shape.radiusChord, bandLessRounding: shape.bandLessRounding),
            clearance > 0
        {
            due = fix.reading(after: clearance)  // the fix cannot change it
            // Dropped (keep 0) when outside (state 1) and past `dropBeyond`, with no branch:
            // which entries go is data-dependent.
            let outside = UInt8(truncatingIfNeeded: (e.bits & 3) ^ 1)  // 0 when outside
            let far: UInt8 = clearance > dropBeyond ? 1 : 0
            keep = Int(far & (outside == 0 ? 1 : 0)) ^ 1
        } else {
            due = fix.decideOutOfLine(
                &slot.pointee, c2: c2, records: geometry.records, shapes: geometry.shapes, fenceIDs: geometry.fenceIDs,
                into: &events)
        }
        outDues[count] = due
        // A dropped entry's reading counts as 65,535 (never due).
        least = Swift.min(least, due | UInt16(truncatingIfNeeded: keep &- 1))
        count &+= keep
    }
}
