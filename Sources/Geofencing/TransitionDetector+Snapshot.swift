import Geodesy

/// One device's complete ``TransitionDetector`` state, as a `Codable` value: restoring it into a
/// detector built on the same fences and configuration continues the stream exactly as if it had
/// never stopped. Fences are named by id, so the snapshot does not depend on fence order.
/// Times in seconds; the last accepted fix as a unit vector (x, y, z) plus its accuracy in metres.
public struct DeviceSnapshot: Hashable, Sendable, Codable {
    /// One fence's state for the device.
    public struct FenceState: Hashable, Sendable, Codable {
        public var fence: Int32
        /// 0 unknown, 1 outside, 2 inside.
        public var state: UInt8
        /// Consecutive decisive fixes towards the other state.
        public var pending: UInt8
        public var dwellDone: Bool
        public var pendingSince: Double
        public var enteredAt: Double
        /// Chord distance from the anchor before a fix could change this entry; -1 = always.
        public var horizon: Double
    }

    public var device: Int32
    /// Time of the last fix seen; nil before any.
    public var lastTime: Double?
    /// Last accepted fix; nil before any (then `anchor` is nil too).
    public var fix: [Double]?
    public var fixTime: Double
    public var fixAccuracy: Double
    public var rejections: Int
    public var anchor: [Double]?
    /// The fence entries, in the detector's visiting order.
    public var fences: [FenceState]
    /// How many of `fences` every fix visits until the next refresh.
    public var processed: Int
}

extension TransitionDetector {
    /// The ids of the devices seen so far, in first-seen order.
    public var devices: [Int32] { tracks.map(\.device) }

    /// The state of `device`, or nil if the detector has never seen it.
    public func snapshot(device: Int32) -> DeviceSnapshot? {
        guard let slot = existingTrackSlot(device) else { return nil }
        let t = tracks[Int(slot)]
        return DeviceSnapshot(
            device: device,
            lastTime: t.lastTime == -.infinity ? nil : t.lastTime,
            fix: t.hasFix ? [t.fix.x, t.fix.y, t.fix.z] : nil,
            fixTime: t.fixTime, fixAccuracy: t.fixAccuracy, rejections: t.rejections,
            anchor: t.hasFix ? [t.anchor.x, t.anchor.y, t.anchor.z] : nil,
            fences: t.entries.map {
                DeviceSnapshot.FenceState(fence: fenceIDs[Int($0.slot)], state: $0.state.rawValue, pending: $0.pending,
                                          dwellDone: $0.dwellDone, pendingSince: $0.pendingSince, enteredAt: $0.enteredAt,
                                          horizon: $0.horizon)
            },
            processed: t.processed)
    }

    /// Replaces (or creates) the state of `snapshot.device`.
    /// - Throws: ``GeofenceError/unknownFenceID(_:)`` for a fence this detector does not have,
    ///   ``GeofenceError/duplicateFenceID(_:)`` for a fence listed twice,
    ///   ``GeofenceError/invalidSetting(field:value:)`` for a malformed vector, time or state.
    public mutating func restore(_ snapshot: DeviceSnapshot) throws(GeofenceError) {
        func vector(_ v: [Double]?, _ name: String) throws(GeofenceError) -> UnitVector? {
            guard let v else { return nil }
            guard v.count == 3, v.allSatisfy(\.isFinite) else { throw .invalidSetting(field: "snapshot.\(name)", value: Double(v.count)) }
            return UnitVector(x: v[0], y: v[1], z: v[2])
        }
        var track = DeviceTrack(device: snapshot.device)
        if let last = snapshot.lastTime {
            guard !last.isNaN else { throw .invalidSetting(field: "snapshot.lastTime", value: last) }
            track.lastTime = last
        }
        let fix = try vector(snapshot.fix, "fix"), anchor = try vector(snapshot.anchor, "anchor")
        guard (fix == nil) == (anchor == nil) else { throw .invalidSetting(field: "snapshot.anchor", value: .nan) }
        if let fix, let anchor {
            track.hasFix = true
            track.fix = fix
            track.anchor = anchor
        }
        track.fixTime = snapshot.fixTime
        track.fixAccuracy = snapshot.fixAccuracy
        track.rejections = snapshot.rejections
        var entries: [FenceEntry] = []
        entries.reserveCapacity(snapshot.fences.count)
        for f in snapshot.fences {
            guard let slot = slotOfID[f.fence] else { throw .unknownFenceID(f.fence) }
            guard let state = FenceEntry.State(rawValue: f.state) else {
                throw .invalidSetting(field: "snapshot.state", value: Double(f.state))
            }
            var e = makeEntry(slot, state: state)
            e.pending = f.pending
            e.dwellDone = f.dwellDone
            // One stored time serves both (see FenceEntry.since): the one this state reads.
            e.since = state == .inside ? f.enteredAt : f.pendingSince
            guard !f.horizon.isNaN else { throw .invalidSetting(field: "snapshot.horizon", value: f.horizon) }
            e.horizon = f.horizon
            entries.append(e)
        }
        let slots = entries.map(\.slot).sorted()
        for k in slots.indices.dropFirst() where slots[k] == slots[k - 1] {
            throw .duplicateFenceID(fenceIDs[Int(slots[k])])
        }
        guard (0...entries.count).contains(snapshot.processed) else {
            throw .invalidSetting(field: "snapshot.processed", value: Double(snapshot.processed))
        }
        track.entries = entries
        track.processed = snapshot.processed
        track.nextHorizon = snapshot.processed < entries.count ? entries[snapshot.processed].horizon : .infinity
        tracks[Int(trackSlot(snapshot.device))] = track
    }
}
