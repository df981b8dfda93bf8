import Geodesy

extension TransitionDetector {
    /// Applies one accepted fix at `p` to the entries of track `t` that its odometer has
    /// reached, re-arming each one it looks at: the entries before `sortedFrom` one by one, then
    /// the sorted ones up to the first it has not reached.
    @usableFromInline
    mutating func update(_ t: inout DeviceTrack, device: Int32, at p: UnitVector, time: Double, accuracy: Double,
                         speed: Double, into events: inout [TransitionEvent]) {
        let odometer = t.odometer
        let start = Int(t.entryStart), end = start + t.entryCount
        // A block beyond 65,535 entries cannot record its order: every entry is checked.
        let sortedFrom = end - start > Int(UInt16.max) ? end : start + Int(t.sortedFrom)
        var unsorted = sortedFrom
        let fix = FixContext(self, device: device, at: p, time: time, accuracy: accuracy, speed: speed, odometer: odometer)
        fenceIDs.withUnsafeBufferPointer { fenceIDs in
            geometry.withUnsafeBufferPointer { geometry in
                pool.storage.withUnsafeMutableBufferPointer { storage in
                    var k = start
                    while k < end {
                        if storage[k].due > odometer {
                            if k >= sortedFrom { break }
                        } else {
                            storage[k].due = fix.visit(&storage[k], geometry: geometry, fenceIDs: fenceIDs, into: &events)
                            unsorted = Swift.max(unsorted, k + 1)
                        }
                        k += 1
                    }
                }
            }
        }
        t.sortedFrom = UInt16(truncatingIfNeeded: Swift.min(unsorted - start, Int(UInt16.max)))
    }

    /// Applies the fix at `p` to every entry of track `t` with its odometer at 0 (after a
    /// refresh or a rebase), re-arms each with its due reading rounded down to a multiple of
    /// 1,024 quanta (a 64th of the odometer's range; looking early changes nothing), and sorts
    /// them by it (a stable counting sort over 64 buckets). With `dropFar` (after a refresh,
    /// `p` the anchor) it first drops the entries settled outside whose boundary band stays
    /// beyond the slack (implicitly outside; the fix cannot change them) and fits the block to
    /// the rest. O(entries).
    @usableFromInline
    mutating func updateAll(_ t: inout DeviceTrack, device: Int32, at p: UnitVector, time: Double, accuracy: Double,
                            speed: Double, dropFar: Bool = false, into events: inout [TransitionEvent]) {
        let start = Int(t.entryStart)
        var counts = InlineArray<64, Int32>(repeating: 0)
        let fix = FixContext(self, device: device, at: p, time: time, accuracy: accuracy, speed: speed, odometer: 0)
        let dropBeyond = slackChord + 1e-12
        let maxAccuracyChord = self.maxAccuracyChord
        var count = 0
        fenceIDs.withUnsafeBufferPointer { fenceIDs in
            geometry.withUnsafeBufferPointer { geometry in
                pool.storage.withUnsafeMutableBufferPointer { storage in
                    for k in start..<(start + t.entryCount) {
                        var e = storage[k]
                        let g = geometry[Int(e.slot)]
                        let c2 = p.chord2(to: g.center)
                        if dropFar && e.isSettled && e.state == .outside && c2 > g.radiusChord * g.radiusChord
                            && c2.squareRoot() - g.radiusChord - g.band - maxAccuracyChord > dropBeyond {
                            continue
                        }
                        let due = fix.visit(&e, g, c2: c2, fenceIDs: fenceIDs, into: &events) & 0xFC00
                        e.due = due
                        storage[start + count] = e
                        count += 1
                        counts[Int(due >> 10)] += 1
                    }
                }
            }
        }
        if count != t.entryCount {
            t.entryCount = count
            fitBlock(&t, for: count, moving: count)
        }
        t.sortedFrom = 0
        if count < 2 { return }
        let block = Int(t.entryStart)  // fitBlock may have moved the entries
        var sorted = spareEntries
        spareEntries = []
        sorted.removeAll(keepingCapacity: true)
        var next: Int32 = 0
        for b in counts.indices {
            let c = counts[b]
            counts[b] = next
            next += c
        }
        sorted.append(contentsOf: pool.storage[block..<(block + count)])
        pool.storage.withUnsafeMutableBufferPointer { storage in
            for e in sorted {
                let b = Int(e.due >> 10)
                storage[block + Int(counts[b])] = e
                counts[b] += 1
            }
        }
        spareEntries = sorted
    }
}

/// What one accepted fix brings to the entries it visits: position, time, accuracy terms, the
/// evidence cap its speed allows, the device's odometer, and the detector's constants (copied
/// out once per fix).
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
    @usableFromInline let odometer: UInt16
    @usableFromInline let rules: DecisionRules
    @usableFromInline let maxAccuracyChord: Double
    @usableFromInline let inverseQuantum: Double

    @inline(__always) @usableFromInline
    init(_ d: TransitionDetector, device: Int32, at p: UnitVector, time: Double, accuracy: Double, speed: Double,
         odometer: UInt16) {
        self.p = p
        self.device = device
        self.time = time
        self.accuracyChord = accuracy * d.accuracyChordPerMeter
        self.perSigma = Earth.meanRadius / Swift.max(0.5, accuracy / 2)
        self.evidenceCap = d.rules.evidenceCap(speed: speed)
        self.odometer = odometer
        self.rules = d.rules
        self.maxAccuracyChord = d.maxAccuracyChord
        self.inverseQuantum = d.inverseQuantum
    }

    /// Applies the fix to `entry` (appending its event) and returns the entry's new due reading.
    @inline(__always) @usableFromInline
    func visit(_ entry: inout FenceEntry, geometry: UnsafeBufferPointer<FenceGeometry>, fenceIDs: UnsafeBufferPointer<Int32>,
               into events: inout [TransitionEvent]) -> UInt16 {
        let g = geometry[Int(entry.slot)]
        return visit(&entry, g, c2: p.chord2(to: g.center), fenceIDs: fenceIDs, into: &events)
    }

    /// ``visit(_:geometry:fenceIDs:into:)`` given the fence's geometry `g` and the squared chord
    /// `c2` from the fix to its centre.
    @inline(__always) @usableFromInline
    func visit(_ entry: inout FenceEntry, _ g: FenceGeometry, c2: Double, fenceIDs: UnsafeBufferPointer<Int32>,
               into events: inout [TransitionEvent]) -> UInt16 {
        let s = Int(entry.slot)
        if let kind = entry.observe(c2: c2, rc: g.radiusChord, band: g.band, accuracyChord: accuracyChord,
                                    perSigma: perSigma, evidenceCap: evidenceCap, time: time,
                                    dwellSeconds: g.dwellSeconds, rules: rules) {
            events.append(TransitionEvent(device: device, fence: fenceIDs[s],
                                          kind: kind, time: time))
        }
        return Self.due(entry, c2: c2, radiusChord: g.radiusChord, band: g.band, maxAccuracyChord: maxAccuracyChord,
                        odometer: odometer, inverseQuantum: inverseQuantum)
    }

    /// The odometer reading at which a fix could first change `entry`, for a device now at
    /// squared chord `c2` from the fence's centre with its odometer at `odometer`: 0 (every fix)
    /// unless the entry is settled on the side of the boundary the device is on, else the
    /// odometer plus the distance to the entry's decision band,
    /// `|chord - radiusChord| - band - maxAccuracyChord`, in quanta rounded down (capped at
    /// 65,535: not before the next rebase).
    @inline(__always) @usableFromInline
    static func due(_ entry: FenceEntry, c2: Double, radiusChord: Double, band: Double, maxAccuracyChord: Double,
                    odometer: UInt16, inverseQuantum: Double) -> UInt16 {
        guard entry.isSettled else { return 0 }
        let c = c2.squareRoot()
        let outsideSide = c > radiusChord
        guard outsideSide == (entry.state == .outside) else { return 0 }
        // 1e-12 chord (6 µm) covers the rounding of the chord arithmetic.
        let gap = abs(c - radiusChord) - band - maxAccuracyChord - 1e-12
        guard gap > 0 else { return 0 }
        let reach = Double(odometer) + gap * inverseQuantum
        return reach >= 65_535 ? UInt16.max : UInt16(reach)
    }
}
