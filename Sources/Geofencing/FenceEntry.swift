import Geodesy

/// A device's state for one nearby fence, with the fence's geometry cached beside it so the
/// per-fix scan reads one contiguous array. Exactly 64 bytes (one cache line of the scan):
/// geometry and times first, then the slot and the one-byte fields.
@usableFromInline
struct FenceEntry {
    @usableFromInline enum State: UInt8 { case unknown, outside, inside }

    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    /// Seconds: while outside, the time of the first fix of the pending entry run; while
    /// inside, the time of the entry event (the dwell clock). One field serves both because
    /// each is read only in its own state and written before that state first reads it.
    @usableFromInline var since = 0.0
    /// Chord distance from the anchor the device must move before a fix could change this
    /// entry; -1 = visit on every fix.
    @usableFromInline var horizon = -1.0
    @usableFromInline var slot: Int32
    @usableFromInline var state: State
    /// Consecutive decisive fixes towards the other state.
    @usableFromInline var pending: UInt8 = 0
    /// Whether the dwell event is done (or not wanted) for the current stay.
    @usableFromInline var dwellDone = true
    /// Whether the fence has a dwell time (its seconds are in the detector's `geometry`).
    @usableFromInline var hasDwell: Bool

    /// Time of the first fix of the pending run, seconds (meaningful while outside).
    @usableFromInline var pendingSince: Double {
        get { since }
        set { since = newValue }
    }
    /// Time of the entry event, seconds (meaningful while inside).
    @usableFromInline var enteredAt: Double {
        get { since }
        set { since = newValue }
    }

    @usableFromInline
    init(slot: Int32, center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double, state: State) {
        self.slot = slot
        self.state = state
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.hasDwell = dwellSeconds != .infinity
    }
}

extension FenceEntry.State {
    /// The state a snapshot's presence stands for.
    @usableFromInline
    init(_ presence: DeviceSnapshot.Presence) {
        switch presence {
        case .unknown: self = .unknown
        case .outside: self = .outside
        case .inside: self = .inside
        }
    }
}

extension DeviceSnapshot.Presence {
    /// The presence an entry's state is recorded as.
    @usableFromInline
    init(_ state: FenceEntry.State) {
        switch state {
        case .unknown: self = .unknown
        case .outside: self = .outside
        case .inside: self = .inside
        }
    }
}
