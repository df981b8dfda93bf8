import Geodesy

extension TransitionDetector {
    /// Applies one accepted fix to the fence entries of a track that it could change: those whose
    /// horizon is within `moved` (chord from the anchor to `p`), and every entry already
    /// touched since the last refresh (a high-water mark, so an entry that changed state is
    /// never skipped again when the device moves back towards the anchor). `speed`: metres per
    /// second from the device's previous accepted fix (0 for its first).
    @usableFromInline
    mutating func update(_ slot: Int, _ p: UnitVector, moved: Double, time: Double, accuracy: Double, speed: Double,
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
        let fenceIDs = self.fenceIDs
        let slotsAreIDs = self.slotsAreIDs
        let geometry = self.geometry
        let rules = self.rules
        // Chord units per sigma (half the accuracy, at least 0.5 m), inverted.
        let perSigma = Earth.meanRadius / Swift.max(0.5, accuracy / 2)
        let evidenceCap = rules.evidenceCap(speed: speed)
        tracks[slot].entries.withUnsafeMutableBufferPointer { entries in
            for k in 0..<reach {
                let c2 = p.chord2(to: entries[k].center)
                let s = Int(entries[k].slot)
                if let kind = entries[k].observe(c2: c2, rc: entries[k].radiusChord, band: entries[k].band,
                                                 accuracyChord: accuracyChord, perSigma: perSigma, evidenceCap: evidenceCap, time: time,
                                                 dwellSeconds: geometry[s].dwellSeconds, rules: rules) {
                    events.append(TransitionEvent(device: device, fence: slotsAreIDs ? Int32(truncatingIfNeeded: s) : fenceIDs[s],
                                                  kind: kind, time: time))
                }
            }
        }
    }
}
