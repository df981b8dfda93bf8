import Geodesy

/// One device's state: clock, last accepted fix, neighborhood anchor, odometer, and where its
/// fence entries are in the detector's ``EntryPool``. Exactly 56 bytes.
///
/// The anchor is stored in single precision and is the exact point the device's moves are
/// measured from (a refresh queries the index at the fix itself, with 1 m to spare for the
/// rounding). The last accepted fix is kept as a single-precision offset from the anchor:
/// within a millimeter of the fix wherever the device is, and used only by the jump gate and
/// the odometer (which adds the millimeter to every step, so it never under-counts).
@usableFromInline
struct DeviceTrack {
    /// Time of the last fix seen (accepted or gated), seconds; -infinity before any.
    @usableFromInline var lastTime = -Double.infinity
    /// Time of the last accepted fix, seconds.
    @usableFromInline var fixTime = 0.0
    @usableFromInline var anchorX: Float = 1
    @usableFromInline var anchorY: Float = 0
    @usableFromInline var anchorZ: Float = 0
    @usableFromInline var offsetX: Float = 0
    @usableFromInline var offsetY: Float = 0
    @usableFromInline var offsetZ: Float = 0
    /// Reported accuracy of the last accepted fix, meters; NaN before any accepted fix.
    @usableFromInline var fixAccuracy = Float.nan
    /// First entry of the device's block in the pool.
    @usableFromInline var entryStart: UInt32 = 0
    /// Entry count (bits 0-19), block size class (bits 20-24, ``EntryPool/noBlock`` for none),
    /// consecutive jump rejections (bits 25-31).
    @usableFromInline var packed: UInt32 = UInt32(EntryPool.noBlock) << 20
    /// Path length since the last refresh or rebase, in units of the detector's odometer
    /// quantum (rounded up at every step).
    @usableFromInline var odometer: UInt16 = 0
    /// The least due reading of the device's entries (``EntryPool/dues``), 65,535 with none: a
    /// fix whose odometer is below it looks at no entry.
    @usableFromInline var minimumDue: UInt16 = .max

    @usableFromInline init() {}

    /// Whether a fix has been accepted (then `fixTime`, the offset and the anchor are set).
    @inlinable var hasFix: Bool { !fixAccuracy.isNaN }

    /// Entries the device holds.
    @inlinable var entryCount: Int {
        get { Int(packed & 0xF_FFFF) }
        set { packed = packed & ~0xF_FFFF | UInt32(newValue) }
    }
    /// Size class of the device's block (capacity `1 << blockClass`), or ``EntryPool/noBlock``.
    @inlinable var blockClass: UInt8 {
        get { UInt8(truncatingIfNeeded: packed >> 20) & 31 }
        set { packed = packed & ~(31 << 20) | UInt32(newValue & 31) << 20 }
    }
    /// Consecutive fixes rejected by the jump gate.
    @inlinable var rejections: Int {
        get { Int(packed >> 25) }
        set { packed = packed & 0x1FF_FFFF | UInt32(newValue) << 25 }
    }

    /// The anchor, as the detector measures from it.
    @inlinable var anchor: UnitVector {
        get { UnitVector(x: Double(anchorX), y: Double(anchorY), z: Double(anchorZ)) }
    }

    /// The last accepted fix (to within a millimeter).
    @inlinable var fix: UnitVector {
        UnitVector(
            x: Double(anchorX) + Double(offsetX), y: Double(anchorY) + Double(offsetY),
            z: Double(anchorZ) + Double(offsetZ))
    }

    /// Makes `p` the anchor (rounded to single precision).
    @inlinable mutating func setAnchor(_ p: UnitVector) {
        anchorX = Float(p.x)
        anchorY = Float(p.y)
        anchorZ = Float(p.z)
    }

    /// Records the last accepted fix as its offset `(x, y, z)` from the current anchor.
    @inlinable mutating func setOffset(_ x: Double, _ y: Double, _ z: Double) {
        offsetX = Float(x)
        offsetY = Float(y)
        offsetZ = Float(z)
    }

    /// Records `p` as the last accepted fix, relative to the current anchor.
    @inlinable mutating func setFix(_ p: UnitVector) {
        offsetX = Float(p.x - Double(anchorX))
        offsetY = Float(p.y - Double(anchorY))
        offsetZ = Float(p.z - Double(anchorZ))
    }
}
