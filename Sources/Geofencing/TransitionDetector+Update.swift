import Geodesy

extension TransitionDetector {
    /// Applies one accepted fix at `p` to the entries of track `slot` it could change: those
    /// whose `due` reading the odometer has reached (every entry when `all`), re-arming each
    /// one it looks at, and recomputes the track's `minDue`.
    @usableFromInline
    mutating func update(_ slot: Int, device: Int32, at p: UnitVector, time: Double, accuracy: Double, all: Bool,
                         into events: inout [TransitionEvent]) {
        let odometer = tracks[slot].odometer
        let start = Int(tracks[slot].entryStart), end = start + tracks[slot].entryCount
        let accuracyChord = accuracy * accuracyChordPerMeter
        // Chord units per sigma (half the accuracy, at least 0.5 m), inverted.
        let perSigma = Earth.meanRadius / Swift.max(0.5, accuracy / 2)
        let rules = self.rules
        let slotsAreIDs = self.slotsAreIDs
        let maxAccuracyChord = self.maxAccuracyChord
        let inverseQuantum = self.inverseQuantum
        let limit = all ? UInt16.max : odometer
        var minDue = UInt16.max
        fenceIDs.withUnsafeBufferPointer { fenceIDs in
            geometry.withUnsafeBufferPointer { geometry in
                pool.storage.withUnsafeMutableBufferPointer { storage in
                    for k in start..<end {
                        let due = storage[k].due
                        if due > limit {
                            minDue = Swift.min(minDue, due)
                            continue
                        }
                        let s = Int(storage[k].slot)
                        let g = geometry[s]
                        let c2 = p.chord2(to: g.center)
                        if let kind = storage[k].observe(c2: c2, rc: g.radiusChord, band: g.band, accuracyChord: accuracyChord,
                                                         perSigma: perSigma, time: time, dwellSeconds: g.dwellSeconds, rules: rules) {
                            events.append(TransitionEvent(device: device, fence: slotsAreIDs ? Int32(truncatingIfNeeded: s) : fenceIDs[s],
                                                          kind: kind, time: time))
                        }
                        let next = Self.due(storage[k], c2: c2, radiusChord: g.radiusChord, band: g.band,
                                            maxAccuracyChord: maxAccuracyChord, odometer: odometer, inverseQuantum: inverseQuantum)
                        storage[k].due = next
                        minDue = Swift.min(minDue, next)
                    }
                }
            }
        }
        tracks[slot].minDue = minDue
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
