import Geodesy

extension TransitionDetector {
    /// Applies one accepted fix to the fence entries of a track that it could change: those whose
    /// horizon is within `moved` (chord from the anchor to `p`), and every entry already
    /// touched since the last refresh (a high-water mark, so an entry that changed state is
    /// never skipped again when the device moves back towards the anchor).
    @usableFromInline
    mutating func update(_ slot: Int, _ p: UnitVector, moved: Double, time: Double, accuracy: Double,
                         into events: inout [TransitionEvent]) {
        let accuracyChord = accuracy * accuracyChordPerMeter
        var reach = tracks[slot].processed
        if moved >= tracks[slot].nextHorizon {
            // Only now touch the entry buffer (a likely cache miss for a device seen long ago).
            let count = tracks[slot].entries.count
            while reach < count && tracks[slot].entries[reach].horizon <= moved { reach += 1 }
            tracks[slot].processed = reach
            tracks[slot].nextHorizon = reach < count ? tracks[slot].entries[reach].horizon : .infinity
        }
        if reach == 0 { return }
        let device = tracks[slot].device
        let enterNeeded = UInt8(configuration.enterConfirmations)
        let exitNeeded = UInt8(configuration.exitConfirmations)
        let minDwell = configuration.minimumDwellSeconds
        let fenceIDs = self.fenceIDs
        let slotsAreIDs = self.slotsAreIDs
        let geometry = self.geometry
        let evidenceNeeded = configuration.enterEvidence
        let evidencePerFix = configuration.enterEvidencePerFix
        let exitEvidenceNeeded = configuration.exitEvidence
        let exitEvidencePerFix = configuration.exitEvidencePerFix
        // Chord units per sigma (half the accuracy, at least 0.5 m), inverted.
        let perSigma = Earth.meanRadius / Swift.max(0.5, accuracy / 2)
        tracks[slot].entries.withUnsafeMutableBufferPointer { entries in
            for k in 0..<reach {
                let c2 = p.chord2(to: entries[k].center)
                let band = entries[k].band + accuracyChord
                let rc = entries[k].radiusChord
                let outer = rc + band
                let inner = rc - band
                let inside = inner > 0 && c2 < inner * inner
                let outside = c2 > outer * outer
                switch entries[k].state {
                case .outside where evidenceNeeded > 0:
                    // CUSUM of the fix's evidence for "inside" (see enterEvidence).
                    let inner0 = rc - entries[k].band
                    if entries[k].pending == 0 && !(inner0 > 0 && c2 < inner0 * inner0) { continue }
                    let z = (inner0 - c2.squareRoot()) * perSigma - evidencePerFix
                    let score = Swift.max(0, Double(entries[k].pending) / 8 + z)
                    if score >= evidenceNeeded {
                        entries[k].state = .inside
                        entries[k].pending = 0
                        entries[k].enteredAt = time
                        entries[k].dwellDone = !entries[k].hasDwell
                        events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .enter, time: time))
                    } else {
                        if entries[k].pending == 0 { entries[k].pendingSince = time }
                        entries[k].pending = UInt8(Swift.min(255, score * 8))
                    }
                case .outside:
                    if !inside {
                        entries[k].pending = 0
                        continue
                    }
                    if entries[k].pending == 0 { entries[k].pendingSince = time }
                    entries[k].pending &+= 1
                    if entries[k].pending >= enterNeeded && time - entries[k].pendingSince >= minDwell {
                        entries[k].state = .inside
                        entries[k].pending = 0
                        entries[k].enteredAt = time
                        entries[k].dwellDone = !entries[k].hasDwell
                        events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .enter, time: time))
                    }
                case .inside:
                    if exitEvidenceNeeded > 0 {
                        // CUSUM of the fix's evidence for "outside" (see exitEvidence).
                        let outer0 = rc + entries[k].band
                        if entries[k].pending != 0 || c2 > outer0 * outer0 {
                            let z = (c2.squareRoot() - outer0) * perSigma - exitEvidencePerFix
                            let score = Swift.max(0, Double(entries[k].pending) / 8 + z)
                            if score >= exitEvidenceNeeded {
                                entries[k].state = .outside
                                entries[k].pending = 0
                                events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .exit, time: time))
                                continue
                            }
                            entries[k].pending = UInt8(Swift.min(255, score * 8))
                        }
                    } else if outside {
                        entries[k].pending &+= 1
                        if entries[k].pending >= exitNeeded {
                            entries[k].state = .outside
                            entries[k].pending = 0
                            events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .exit, time: time))
                            continue
                        }
                    } else {
                        entries[k].pending = 0
                    }
                    if !entries[k].dwellDone && time - entries[k].enteredAt >= geometry[Int(entries[k].slot)].dwellSeconds {
                        entries[k].dwellDone = true
                        events.append(TransitionEvent(device: device, fence: slotsAreIDs ? entries[k].slot : fenceIDs[Int(entries[k].slot)], kind: .dwell, time: time))
                    }
                case .unknown:
                    if inside {
                        entries[k].state = .inside
                        entries[k].enteredAt = time
                        entries[k].dwellDone = true  // no entry event, so no dwell event either
                    } else if outside {
                        entries[k].state = .outside
                    }
                }
            }
        }
    }
}
