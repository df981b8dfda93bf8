/// A device's state for one nearby fence. Exactly 16 bytes, plus its 2-byte due reading in the
/// pool's parallel array (``EntryPool/dues``): the fence's geometry is read from the detector's
/// table by `slot`, so a device holding two fences costs 36 bytes of entries.
@usableFromInline
struct FenceEntry {
    @usableFromInline enum State: UInt8 { case unknown, outside, inside }

    /// The fence's dense slot in the detector.
    @usableFromInline var slot: Int32
    /// ``flags`` (low byte) and ``pending`` (high byte) in one field, so that ``isSettled`` is
    /// one 16-bit load and test.
    @usableFromInline var bits: UInt16
    /// `state` (bits 0-1), `dwellDone` (bit 2), `hasDwell` (bit 3).
    @inlinable var flags: UInt8 {
        get { UInt8(truncatingIfNeeded: bits) }
        set { bits = bits & 0xFF00 | UInt16(newValue) }
    }
    /// Consecutive decisive fixes towards the other state (or accumulated evidence, in eighths).
    @inlinable var pending: UInt8 {
        get { UInt8(truncatingIfNeeded: bits >> 8) }
        set { bits = bits & 0x00FF | UInt16(newValue) << 8 }
    }
    /// Seconds: while outside, the time of the first fix of the pending entry run; while
    /// inside, the time of the entry event (the dwell clock). One field serves both because
    /// each is read only in its own state and written before that state first reads it.
    @usableFromInline var since = 0.0

    @usableFromInline
    init(slot: Int32, hasDwell: Bool, state: State) {
        self.slot = slot
        self.bits = UInt16(state.rawValue | 4 | (hasDwell ? 8 : 0))
    }

    /// The decided state.
    @inlinable var state: State {
        get { State(rawValue: flags & 3) ?? .unknown }
        set { flags = flags & ~3 | newValue.rawValue }
    }
    /// Whether the dwell event is done (or not wanted) for the current stay.
    @inlinable var dwellDone: Bool {
        get { flags & 4 != 0 }
        set { flags = newValue ? flags | 4 : flags & ~4 }
    }
    /// Whether the fence has a dwell time (its seconds are in the detector's `geometry`).
    @inlinable var hasDwell: Bool { flags & 8 != 0 }

    /// Time of the first fix of the pending run, seconds (meaningful while outside).
    @inlinable var pendingSince: Double {
        get { since }
        set { since = newValue }
    }
    /// Time of the entry event, seconds (meaningful while inside).
    @inlinable var enteredAt: Double {
        get { since }
        set { since = newValue }
    }

    /// Whether no fix can change this entry until the device has moved as far as its distance
    /// from the boundary allows (see ``FenceEntry/observe``'s invariant).
    /// (Dwell done, bit 2, and a known state, 1 or 2: the low three bits are 5 or 6, and
    /// `pending` 0: one 16-bit test of both bytes.)
    @inlinable var isSettled: Bool { (bits & 0xFF07) &- 5 < 2 }
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
