import Geodesy

extension TransitionDetector {
    /// The ids of the devices seen so far, in first-seen order.
    public var devices: [Int32] { deviceOfTrack }

    /// The state of `device`, or nil if the detector has never seen it. A run of out-of-order
    /// fixes in progress (``TransitionDetector/outOfOrderRestart``) is not part of it: after a
    /// restore the run counts from zero, so a clock restart may come up to that many fixes later.
    public func snapshot(device: Int32) -> DeviceSnapshot? {
        guard let slot = existingTrackSlot(device) else { return nil }
        let t = tracks[Int(slot)]
        let start = Int(t.entryStart)
        return DeviceSnapshot(
            device: device,
            lastTime: t.lastTime == -.infinity ? nil : t.lastTime,
            fix: t.hasFix ? [t.fix.x, t.fix.y, t.fix.z] : nil,
            fixTime: t.fixTime, fixAccuracy: t.hasFix ? Double(t.fixAccuracy) : 0, rejections: t.rejections,
            anchor: t.hasFix ? [t.anchor.x, t.anchor.y, t.anchor.z] : nil,
            fences: pool.storage[start..<(start + t.entryCount)].map {
                DeviceSnapshot.FenceState(
                    fence: fenceIDs[Int($0.slot)], state: DeviceSnapshot.Presence($0.state),
                    pending: $0.pending, dwellDone: $0.dwellDone, pendingSince: $0.pendingSince,
                    enteredAt: $0.enteredAt)
            })
    }

    /// Replaces (or creates) the state of `snapshot.device`.
    /// - Throws: ``GeofenceError/unknownFenceID(_:)`` for a fence this detector does not have,
    ///   ``GeofenceError/duplicateFenceID(_:)`` for a fence listed twice,
    ///   ``GeofenceError/invalidSetting(field:value:)`` for a malformed vector (not three finite
    ///   numbers of norm 1 within 1e-6), a time or accuracy that is not finite (or a negative
    ///   accuracy, or one past `Float`'s range, about 3.4e38 m), or fence states without a fix.
    public mutating func restore(_ snapshot: DeviceSnapshot) throws(GeofenceError) {
        func vector(_ v: [Double]?, _ name: String) throws(GeofenceError) -> UnitVector? {
            guard let v else { return nil }
            guard v.count == 3, v.allSatisfy(\.isFinite) else { throw .invalidSetting(field: "snapshot.\(name)", value: Double(v.count)) }
            // A unit vector, to the single precision the track keeps it in.
            let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
            guard abs(norm - 1) <= 1e-6 else { throw .invalidSetting(field: "snapshot.\(name)", value: norm) }
            return UnitVector(x: v[0], y: v[1], z: v[2])
        }
        var track = DeviceTrack()
        if let last = snapshot.lastTime {
            guard !last.isNaN else { throw .invalidSetting(field: "snapshot.lastTime", value: last) }
            track.lastTime = last
        }
        let fix = try vector(snapshot.fix, "fix"), anchor = try vector(snapshot.anchor, "anchor")
        guard (fix == nil) == (anchor == nil) else { throw .invalidSetting(field: "snapshot.anchor", value: .nan) }
        guard snapshot.rejections >= 0 && snapshot.rejections <= 127 else {
            throw .invalidSetting(field: "snapshot.rejections", value: Double(snapshot.rejections))
        }
        track.fixTime = snapshot.fixTime
        if let fix, let anchor {
            guard snapshot.fixTime.isFinite else { throw .invalidSetting(field: "snapshot.fixTime", value: snapshot.fixTime) }
            // Kept in single precision: one past Float's range would be stored as infinity.
            guard snapshot.fixAccuracy >= 0, Float(snapshot.fixAccuracy).isFinite else {
                throw .invalidSetting(field: "snapshot.fixAccuracy", value: snapshot.fixAccuracy)
            }
            track.setAnchor(anchor)
            track.setFix(fix)
            track.fixAccuracy = Float(snapshot.fixAccuracy)
        }
        track.rejections = snapshot.rejections
        var entries: [FenceEntry] = []
        entries.reserveCapacity(snapshot.fences.count)
        for (k, f) in snapshot.fences.enumerated() {
            guard let slot = slotOfID[f.fence] else { throw .unknownFenceID(f.fence) }
            let state = FenceEntry.State(f.state)
            // The time this state reads must be a time.
            if state == .inside, !f.enteredAt.isFinite {
                throw .invalidSetting(field: "snapshot.fences[\(k)].enteredAt", value: f.enteredAt)
            }
            if state != .inside, f.pending > 0, !f.pendingSince.isFinite {
                throw .invalidSetting(field: "snapshot.fences[\(k)].pendingSince", value: f.pendingSince)
            }
            var e = FenceEntry(slot: slot, hasDwell: geometry.hasDwell(Int(slot)), state: state)
            e.pending = f.pending
            e.dwellDone = f.dwellDone
            // One stored time serves both (see FenceEntry.since): the one this state reads.
            e.since = state == .inside ? f.enteredAt : f.pendingSince
            entries.append(e)
        }
        let slots = entries.map(\.slot).sorted()
        for k in slots.indices.dropFirst() where slots[k] == slots[k - 1] {
            throw .duplicateFenceID(fenceIDs[Int(slots[k])])
        }
        guard track.hasFix || entries.isEmpty else {
            throw .invalidSetting(field: "snapshot.fences", value: Double(entries.count))
        }
        guard entries.count <= 1 << Int(EntryPool.maxClass) else {
            throw .invalidSetting(field: "snapshot.fences", value: Double(entries.count))
        }
        let slot = Int(trackSlot(snapshot.device))
        track.entryStart = tracks[slot].entryStart
        track.blockClass = tracks[slot].blockClass
        track.entryCount = tracks[slot].entryCount
        // Every entry is looked at on the next fix (due 0), which re-arms it from there.
        install(entries, into: &track)
        tracks[slot] = track
    }
}
