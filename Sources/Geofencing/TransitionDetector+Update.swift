import CPrefetch
import Geodesy

extension TransitionDetector {
    /// Applies one accepted fix at `p` to the entries of track `t` whose due reading its
    /// odometer has reached, re-arming each one it looks at, and sets the track's
    /// ``DeviceTrack/minimumDue``. The due readings are tested eight at a time; a group with
    /// none due costs a load, a compare and a minimum. O(entries held / 8 + entries due).
    /// Not inlined: its loop keeps its values in registers of its own.
    @inline(never) @usableFromInline
    mutating func update(
        _ t: inout DeviceTrack, device: Int32, at p: UnitVector, time: Double, accuracy: Double,
        speed: Double, into events: inout [TransitionEvent]
    ) {
        if geometryTable.outlineCount == 0 {
            scan(CircleFences.self, &t, device: device, at: p, time: time, accuracy: accuracy, speed: speed, into: &events)
        } else {
            scan(AnyFences.self, &t, device: device, at: p, time: time, accuracy: accuracy, speed: speed, into: &events)
        }
    }

    /// ``update(_:device:at:time:accuracy:speed:into:)`` for fences of the kinds `K` allows
    /// (one copy of the loop per kind, so a detector of circles runs no polygon branch).
    @inline(__always) @usableFromInline
    mutating func scan<K: FenceKinds>(
        _ kinds: K.Type, _ t: inout DeviceTrack, device: Int32, at p: UnitVector, time: Double, accuracy: Double,
        speed: Double, into events: inout [TransitionEvent]
    ) {
        let odometer = t.odometer
        let start = Int(t.entryStart), count = t.entryCount
        // Blocks of eight or more are read in whole groups of eight (the tail of a block is never
        // due); a smaller block one reading at a time.
        let groups = t.blockClass >= 3 ? (count + 7) >> 3 : 0
        let fix = FixContext(self, device: device, at: p, time: time, accuracy: accuracy, speed: speed, odometer: odometer)
        let geometry = self.geometry
        let fenceIDs = geometry.fenceIDs
        var least = UInt16.max
        do {
            pool.storage.withUnsafeMutableBufferPointer { storage in
                pool.dues.withUnsafeMutableBufferPointer { dues in
                    var lowest = SIMD8<UInt16>(repeating: .max)
                    for g in 0..<groups {
                        let k0 = start + 8 * g
                        let address = UnsafeMutableRawPointer(dues.baseAddress! + k0)
                        var group = address.loadUnaligned(as: SIMD8<UInt16>.self)
                        // Bit i set when entry k0 + i is due.
                        var due = geofence_due_lanes(dues.baseAddress! + k0, odometer)
                        if due != 0 {
                            repeat {
                                let k = k0 + due.trailingZeroBitCount
                                due &= due &- 1
                                dues[k] = fix.look(K.self, &storage[k], geometry: geometry, fenceIDs: fenceIDs, into: &events)
                            } while due != 0
                            group = address.loadUnaligned(as: SIMD8<UInt16>.self)
                        }
                        lowest = pointwiseMin(lowest, group)
                    }
                    least = Self.leastLane(lowest)
                    if groups == 0 {
                        for k in start..<(start + count) {
                            if dues[k] <= odometer {
                                dues[k] = fix.look(K.self, &storage[k], geometry: geometry, fenceIDs: fenceIDs, into: &events)
                            }
                            least = Swift.min(least, dues[k])
                        }
                    }
                }
            }
        }
        t.minimumDue = least
    }

    /// The least of the eight lanes of `v`, by halving: three pointwise minimums of the vector
    /// and its upper half (SSE2 has no horizontal minimum; `min()` compiles to seven scalar steps).
    @inline(__always) @usableFromInline
    static func leastLane(_ v: SIMD8<UInt16>) -> UInt16 {
        let quads = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        let a = pointwiseMin(v, unsafeBitCast(SIMD2<UInt64>(repeating: quads[1]), to: SIMD8<UInt16>.self))
        let pairs = unsafeBitCast(a, to: SIMD4<UInt32>.self)
        let b = pointwiseMin(a, unsafeBitCast(SIMD4<UInt32>(repeating: pairs[1]), to: SIMD8<UInt16>.self))
        let c = pointwiseMin(b, unsafeBitCast(unsafeBitCast(b, to: SIMD4<UInt32>.self) &>> 16, to: SIMD8<UInt16>.self))
        return c[0]
    }
}

/// What one accepted fix brings to the entries it visits: position, time, accuracy terms, the
/// evidence cap its speed allows, the device's odometer, and the detector's constants (copied
/// out once per fix; the decision rules are read in place through the geometry table).
@usableFromInline
struct FixContext {
    @usableFromInline let p: UnitVector
    @usableFromInline let device: Int32
    @usableFromInline let time: Double
    /// `accuracyFactor` times the fix's accuracy, chord units.
    @usableFromInline let accuracyChord: Double
    /// Chord units to sigmas: one over half the accuracy (at least 0.5 m).
    @usableFromInline let perSigma: Double
    /// The most evidence, in sigmas, the fix may count for (``DecisionRules/evidenceCap(speed:)``).
    @usableFromInline let evidenceCap: Double
    /// Sigmas the fix must exceed on top of the per-fix allowance (``DecisionRules/stillAllowance(speed:)``).
    @usableFromInline let stillAllowance: Double
    @usableFromInline let odometer: UInt16
    /// ``odometer`` less a half, for the rounding of ``reading(after:)``.
    @usableFromInline let odometerLessHalf: Double
    /// The circles' decision rules (the detector's, read in place).
    @usableFromInline let rulesPointer: UnsafePointer<DecisionRules>
    @usableFromInline let inverseQuantum: Double
    /// The device's speed since its previous accepted fix, m/s, and the fix's accuracy, meters
    /// (for the polygon fences' rules).
    @usableFromInline let speed: Double, accuracy: Double
    /// The decision rules of the polygon fences.
    @usableFromInline let polygonRules: UnsafePointer<PolygonRules>

    /// The circles' decision rules.
    @inline(__always) @usableFromInline
    var rules: DecisionRules { rulesPointer.pointee }

    @inline(__always) @usableFromInline
    init(
        _ d: TransitionDetector, device: Int32, at p: UnitVector, time: Double, accuracy: Double, speed: Double,
        odometer: UInt16
    ) {
        self.p = p
        self.device = device
        self.time = time
        self.accuracyChord = accuracy * d.accuracyChordPerMeter
        self.perSigma = Earth.meanRadius / Swift.max(0.5, accuracy / 2)
        self.evidenceCap = d.rules.evidenceCap(speed: speed)
        self.stillAllowance = d.rules.stillAllowance(speed: speed)
        self.odometer = odometer
        self.odometerLessHalf = Double(odometer) - 0.5
        self.rulesPointer = d.geometry.rules
        self.inverseQuantum = d.inverseQuantum
        self.speed = speed
        self.accuracy = accuracy
        self.polygonRules = d.geometry.polygonRules
    }

    /// Applies the fix to `entry` (appending its event) and returns the entry's new due
    /// reading. A settled entry with a positive ``clearance(_:c2:radiusChord:band:)`` is only
    /// re-armed: by the invariant stated on
    /// ``FenceEntry/observe(c2:rc:band:accuracyChord:perSigma:evidenceCap:stillAllowance:time:dwellSeconds:rules:)``
    /// the fix cannot change it. That common case is inlined and reads only the fence's record
    /// and its shape's radius and band; the decision is out of line. `K`: the kinds of fence
    /// the detector has.
    @inline(__always) @usableFromInline
    func look<K: FenceKinds>(
        _ kinds: K.Type, _ entry: inout FenceEntry, geometry: GeometryView, fenceIDs: UnsafeBufferPointer<Int32>,
        into events: inout [TransitionEvent]
    ) -> UInt16 {
        let r = geometry.records[Int(entry.slot)]
        let shape = geometry.shapes[Int(r.shape)]
        let c2 = geometry.chord2(K.self, r, radiusChord: shape.radiusChord, p)
        if entry.isSettled {
            let clearance = Self.clearance(
                entry, c2: c2, radiusChord: shape.radiusChord, bandLessRounding: shape.bandLessRounding)
            if clearance > 0 { return reading(after: clearance) }
        }
        return decideOutOfLine(
            &entry, c2: c2, records: geometry.records, shapes: geometry.shapes, fenceIDs: fenceIDs, into: &events)
    }

    /// ``decide(_:_:c2:fenceIDs:into:)`` with the fence's geometry read from its record and
    /// shape (a ``GeometryView``'s `records` and `shapes`, passed alone so that the caller need
    /// not copy the view to memory), not inlined (the rare path of
    /// ``look(_:_:geometry:fenceIDs:into:)``). A circle's record and shape are read as values
    /// (no ``FenceGeometry`` is built for it).
    @inline(never) @usableFromInline
    func decideOutOfLine(
        _ entry: inout FenceEntry, c2: Double, records: UnsafePointer<FenceGeometryTable.Record>,
        shapes: UnsafePointer<FenceGeometryTable.Shape>, fenceIDs: UnsafeBufferPointer<Int32>,
        into events: inout [TransitionEvent]
    ) -> UInt16 {
        let r = records[Int(entry.slot)]
        let shape = shapes[Int(r.shape)]
        if r.outline != 0 {
            let g = FenceGeometry(
                center: UnitVector(x: r.x, y: r.y, z: r.z), radiusChord: shape.radiusChord, band: shape.band,
                dwellSeconds: shape.dwellSeconds, outline: r.outline)
            return decidePolygon(&entry, g, c2: c2, fenceIDs: fenceIDs, into: &events)
        }
        return decideCircle(
            &entry, c2: c2, radiusChord: shape.radiusChord, band: shape.band, dwellSeconds: shape.dwellSeconds,
            fenceIDs: fenceIDs, into: &events)
    }

    /// Applies the fix to `entry` through
    /// ``FenceEntry/observe(c2:rc:band:accuracyChord:perSigma:evidenceCap:stillAllowance:time:dwellSeconds:rules:)``
    /// (appending its event) and returns its new due reading: 0 unless it ends settled with
    /// clearance left. ``look(_:_:geometry:fenceIDs:into:)`` without its check for clearance.
    @inline(__always) @usableFromInline
    func decide(
        _ entry: inout FenceEntry, _ g: FenceGeometry, c2: Double, fenceIDs: UnsafeBufferPointer<Int32>,
        into events: inout [TransitionEvent]
    ) -> UInt16 {
        if g.outline != 0 { return decidePolygon(&entry, g, c2: c2, fenceIDs: fenceIDs, into: &events) }
        return decideCircle(
            &entry, c2: c2, radiusChord: g.radiusChord, band: g.band, dwellSeconds: g.dwellSeconds,
            fenceIDs: fenceIDs, into: &events)
    }

    /// ``decide(_:_:c2:fenceIDs:into:)`` for a polygon fence: with the polygon fences' rules
    /// (``PolygonRules``, ``FenceEntry/observePolygon(c2:rc:band:accuracy:speed:time:dwellSeconds:rules:)``).
    /// Not inlined (the rare kind).
    @inline(never) @usableFromInline
    func decidePolygon(
        _ entry: inout FenceEntry, _ g: FenceGeometry, c2: Double, fenceIDs: UnsafeBufferPointer<Int32>,
        into events: inout [TransitionEvent]
    ) -> UInt16 {
        if let kind = entry.observePolygon(
            c2: c2, rc: g.radiusChord, band: g.band, accuracy: accuracy, speed: speed, time: time, dwellSeconds: g.dwellSeconds,
            rules: polygonRules.pointee)
        {
            events.append(TransitionEvent(device: device, fence: fenceIDs[Int(entry.slot)], kind: kind, time: time))
        }
        guard entry.isSettled else { return 0 }
        let clearance = Self.clearance(entry, c2: c2, g)
        return clearance > 0 ? reading(after: clearance) : 0
    }

    /// ``decide(_:_:c2:fenceIDs:into:)`` for a circle of radius chord `radiusChord`, band `band`
    /// and dwell time `dwellSeconds`, by the circles' rules: the chord (`c2.squareRoot()`)
    /// computed once for the evidence and the clearance.
    @inline(__always) @usableFromInline
    func decideCircle(
        _ entry: inout FenceEntry, c2: Double, radiusChord: Double, band: Double, dwellSeconds: Double,
        fenceIDs: UnsafeBufferPointer<Int32>, into events: inout [TransitionEvent]
    ) -> UInt16 {
        let c = c2.squareRoot()
        if let kind = entry.observe(
            c2: c2, chord: c, rc: radiusChord, band: band, accuracyChord: accuracyChord,
            exitAccuracyChord: accuracyChord, perSigma: perSigma, evidenceCap: evidenceCap,
            stillAllowance: stillAllowance, time: time, dwellSeconds: dwellSeconds, rules: rules)
        {
            events.append(TransitionEvent(device: device, fence: fenceIDs[Int(entry.slot)], kind: kind, time: time))
        }
        guard entry.isSettled else { return 0 }
        let outward = c - radiusChord
        let flip = UInt64(entry.flags & 2) << 62
        let clearance = Double(bitPattern: outward.bitPattern ^ flip) + band - 1e-12
        return clearance > 0 ? reading(after: clearance) : 0
    }

    /// How far (chord units) a device at squared chord `c2` from the center of fence `g` must
    /// travel before a fix could change the settled `entry`: to be past the boundary, on the
    /// side opposite the entry's state, by more than the band. Less 1e-12 (6 µm) for the
    /// rounding of the chord arithmetic; zero or less when a fix here may change it.
    /// Meaningful for a settled entry only (state outside or inside).
    @inline(__always) @usableFromInline
    static func clearance(_ entry: FenceEntry, c2: Double, _ g: FenceGeometry) -> Double {
        clearance(entry, c2: c2, radiusChord: g.radiusChord, band: g.band)
    }

    /// ``clearance(_:c2:_:)`` for a fence of radius chord `radiusChord` and band `band`.
    @inline(__always) @usableFromInline
    static func clearance(_ entry: FenceEntry, c2: Double, radiusChord: Double, band: Double) -> Double {
        // `c - rc` outside; inside, the same with its sign bit flipped (exactly `rc - c`), with
        // no branch on the state (bit 1 of the flags, set only inside).
        let outward = c2.squareRoot() - radiusChord
        let flip = UInt64(entry.flags & 2) << 62
        return Double(bitPattern: outward.bitPattern ^ flip) + band - 1e-12
    }

    /// ``clearance(_:c2:radiusChord:band:)`` with `band - 1e-12` given (`bandLessRounding`, kept
    /// per shape): it may differ from that by a rounding of the last bit, far inside the 1e-12.
    @inline(__always) @usableFromInline
    static func clearance(_ entry: FenceEntry, c2: Double, radiusChord: Double, bandLessRounding: Double) -> Double {
        let outward = c2.squareRoot() - radiusChord
        let flip = UInt64(entry.flags & 2) << 62
        return Double(bitPattern: outward.bitPattern ^ flip) + bandLessRounding
    }

    /// The due reading for an entry `clearance` (> 0, chord units) from changing: the odometer
    /// plus the clearance in quanta, rounded down (at an exact integer possibly one less, which
    /// only looks earlier); 65,535 (not before the next rebase) beyond.
    @inline(__always) @usableFromInline
    func reading(after clearance: Double) -> UInt16 {
        // (The constant first: `min(a, b)` is `b < a ? b : a`, which x86's `minsd` computes
        // with the constant read from memory.)
        let reach = Swift.min(65_534.5, odometerLessHalf + clearance * inverseQuantum)
        // Adding 1.5 * 2^52 rounds `reach` (the reading less a half, in [-0.5, 65,534.5]) to
        // the nearest integer, held in the low bits of the sum: no conversion checks on the
        // hot path.
        return UInt16(truncatingIfNeeded: (reach + 0x1.8p52).bitPattern)
    }
}
