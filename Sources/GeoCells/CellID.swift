import Geodesy

/// A 64-bit identifier of a cell in Google S2's hierarchical decomposition of the sphere,
/// bit-identical to `S2CellId`.
///
/// Representation: bits 61-63 are the cube face (0...5); below them a level-k cell has k
/// pairs of bits giving its position among its parent's four children along the Hilbert
/// curve, then a single 1 bit, then zeros. So a leaf (level 30) id is odd, a face (level 0)
/// id is `face << 61 | 1 << 60`, and ids increase along the Hilbert curve, face after face.
/// All leaf cells below a cell have ids in `[rangeMin, rangeMax]`, centered on the cell's id.
///
/// Invariants of a *valid* id (``isValid``): face < 6 and the lowest set bit is at an even
/// position. ``none`` (0) and ids parsed from arbitrary tokens may be invalid; most methods
/// require a valid id, as in S2.
public struct CellID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 64-bit id.
    public var rawValue: UInt64

    /// The cell with the 64-bit id `rawValue`; not checked (see ``isValid``).
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The deepest level: leaf cells, about 1 cm across.
    public static let maxLevel = 30
    /// The invalid id 0 (S2's `S2CellId::None()`).
    public static let none = CellID(rawValue: 0)
    /// An invalid id larger than every valid one (S2's `S2CellId::Sentinel()`).
    public static let sentinel = CellID(rawValue: ~0)

    /// Bits of curve position below the face bits: 2 * maxLevel + 1.
    @usableFromInline static var posBits: Int { 61 }
    /// Leaf cells per face edge, 2^30 (S2's `kMaxSize`).
    @usableFromInline static var maxSize: Int { 1 << 30 }
    /// The id offset that moves from face 5 past the end back to face 0 (6 << 61).
    @usableFromInline static var wrapOffset: UInt64 { 6 << 61 }

    // MARK: Construction

    /// The level-0 cell of a cube face (0...5) (`S2CellId::FromFace`).
    @inlinable
    public init(face: Int) {
        rawValue = (UInt64(truncatingIfNeeded: face) << 61) + CellID.lsb(forLevel: 0)
    }

    /// The cell at `level` containing the leaf at Hilbert position `position` (61 bits) of
    /// `face` (`S2CellId::FromFacePosLevel`).
    @inlinable
    public init(face: Int, position: UInt64, level: Int) {
        let leaf = CellID(rawValue: (UInt64(truncatingIfNeeded: face) << 61) &+ (position | 1))
        self = leaf.parent(level: level)
    }

    /// The leaf cell at leaf coordinates (i, j) in [0, 2^30) of `face` (`S2CellId::FromFaceIJ`).
    @inlinable
    public init(face: Int, i: Int, j: Int) {
        let table = HilbertTables.lookupPosPointer
        // n holds the position shifted one bit right; the trailing 1 is added at the end.
        var n = UInt64(truncatingIfNeeded: face) << 60
        var bits = face & HilbertTables.swapMask
        var k = 7  // eight steps of 4 bits cover the 30 bits of i and j
        while k >= 0 {
            let shift = k &* 4
            bits &+= ((i >> shift) & 15) << 6
            bits &+= ((j >> shift) & 15) << 2
            bits = Int(table[bits])
            n |= UInt64(truncatingIfNeeded: bits >> 2) << (UInt64(k) &* 8)
            bits &= 3
            k &-= 1
        }
        rawValue = n &* 2 &+ 1
    }

    /// The leaf cell containing `point`, which need not be unit length
    /// (`S2CellId(const S2Point&)`).
    @inlinable
    public init(_ point: UnitVector) {
        let (face, uv) = S2Projection.xyzToFaceUV(point)
        self.init(
            face: face, i: S2Projection.stToIJ(S2Projection.uvToST(uv.u)),
            j: S2Projection.stToIJ(S2Projection.uvToST(uv.v)))
    }

    /// The leaf cell containing a position, via `LatLng/unitVector` (`S2CellId(S2LatLng)`).
    @inlinable
    public init(_ latLng: LatLng) {
        self.init(latLng.unitVector)
    }

    /// The cell at `level` containing a position (`S2CellId(S2LatLng).parent(level)`).
    @inlinable
    public init(_ latLng: LatLng, level: Int) {
        self = CellID(latLng.unitVector).parent(level: level)
    }

    // MARK: Structure

    /// The cube face, 0...5 for a valid id.
    @inlinable public var face: Int { Int(truncatingIfNeeded: rawValue >> 61) }

    /// The position along the Hilbert curve within the face: the low 61 bits.
    @inlinable public var position: UInt64 { rawValue & (~0 >> 3) }

    /// The lowest set bit: marks the level (S2's `lsb()`).
    @inlinable public var lsb: UInt64 { rawValue & (0 &- rawValue) }

    /// The lowest set bit of a cell at `level`: `1 << 2 (30 - level)`.
    @inlinable
    public static func lsb(forLevel level: Int) -> UInt64 {
        1 << UInt64(truncatingIfNeeded: 2 &* (maxLevel &- level))
    }

    /// The level, 0 (face) ... 30 (leaf), of a valid id.
    @inlinable
    public var level: Int { CellID.maxLevel &- (rawValue.trailingZeroBitCount >> 1) }

    /// Whether this is a leaf cell (level 30).
    @inlinable public var isLeaf: Bool { rawValue & 1 != 0 }

    /// Whether this is a face cell (level 0).
    @inlinable
    public var isFace: Bool { rawValue & (CellID.lsb(forLevel: 0) &- 1) == 0 }

    /// Whether this is a valid cell id: face < 6 and the lowest set bit at an even position.
    @inlinable
    public var isValid: Bool {
        // 0x1555...: the even bit positions 0, 2, ..., 60 where a level marker may sit.
        face < 6 && (lsb & 0x1555_5555_5555_5555) != 0
    }

    /// The edge length of this cell in leaf (i, j) units: 2^(30 - level).
    @inlinable
    public static func sizeIJ(level: Int) -> Int { 1 << (maxLevel &- level) }

    /// Which child (0...3) of its level-`level` ancestor's parent this cell's ancestor at
    /// `level` is (`child_position(level)`), `level` in 1...self.level.
    @inlinable
    public func childPosition(level: Int) -> Int {
        Int(truncatingIfNeeded: (rawValue >> UInt64(2 &* (CellID.maxLevel &- level) &+ 1)) & 3)
    }

    // MARK: Hierarchy

    /// The parent cell (one level up). Requires level >= 1.
    @inlinable
    public func parent() -> CellID {
        let newLsb = lsb << 2
        return CellID(rawValue: (rawValue & (0 &- newLsb)) | newLsb)
    }

    /// The ancestor at `level` (0...self.level); `self` when `level == self.level`.
    @inlinable
    public func parent(level: Int) -> CellID {
        let newLsb = CellID.lsb(forLevel: level)
        return CellID(rawValue: (rawValue & (0 &- newLsb)) | newLsb)
    }

    /// Child `k` (0...3) in Hilbert-curve (ascending id) order. Requires a non-leaf cell.
    @inlinable
    public func child(_ k: Int) -> CellID {
        let newLsb = lsb >> 2
        // Children sit at id - 3, -1, +1, +3 times the child lsb.
        return CellID(rawValue: rawValue &+ UInt64(bitPattern: Int64(2 &* k &- 3)) &* newLsb)
    }

    /// The four children in ascending order. Requires a non-leaf cell.
    @inlinable
    public var children: [CellID] { [child(0), child(1), child(2), child(3)] }

    /// The first child (one level down), for iterating `childBegin() ..< childEnd()` by
    /// ``next``.
    @inlinable
    public func childBegin() -> CellID {
        let oldLsb = lsb
        return CellID(rawValue: rawValue &- oldLsb &+ (oldLsb >> 2))
    }

    /// The first descendant at `level` (>= self.level).
    @inlinable
    public func childBegin(level: Int) -> CellID {
        CellID(rawValue: rawValue &- lsb &+ CellID.lsb(forLevel: level))
    }

    /// One past the last child (an exclusive bound; may be an invalid id).
    @inlinable
    public func childEnd() -> CellID {
        let oldLsb = lsb
        return CellID(rawValue: rawValue &+ oldLsb &+ (oldLsb >> 2))
    }

    /// One past the last descendant at `level` (exclusive bound).
    @inlinable
    public func childEnd(level: Int) -> CellID {
        CellID(rawValue: rawValue &+ lsb &+ CellID.lsb(forLevel: level))
    }

    /// The next cell at this level along the Hilbert curve (may pass the end of face 5).
    @inlinable public var next: CellID { CellID(rawValue: rawValue &+ (lsb << 1)) }

    /// The previous cell at this level along the Hilbert curve (may pass the start of face 0).
    @inlinable public var prev: CellID { CellID(rawValue: rawValue &- (lsb << 1)) }

    /// Like ``next`` but wraps from the last cell of face 5 to the first of face 0.
    @inlinable
    public var nextWrap: CellID {
        let n = next
        if n.rawValue < CellID.wrapOffset { return n }
        return CellID(rawValue: n.rawValue &- CellID.wrapOffset)
    }

    /// Like ``prev`` but wraps from the first cell of face 0 to the last of face 5.
    @inlinable
    public var prevWrap: CellID {
        let p = prev
        if p.rawValue < CellID.wrapOffset { return p }
        return CellID(rawValue: p.rawValue &+ CellID.wrapOffset)
    }

    /// The first cell of the Hilbert curve at `level` (`S2CellId::Begin`).
    @inlinable
    public static func begin(level: Int) -> CellID { CellID(face: 0).childBegin(level: level) }

    /// One past the last cell of the Hilbert curve at `level` (`S2CellId::End`).
    @inlinable
    public static func end(level: Int) -> CellID { CellID(face: 5).childEnd(level: level) }

    /// The smallest leaf id inside this cell. Note that `rangeMax` is inclusive.
    @inlinable public var rangeMin: CellID { CellID(rawValue: rawValue &- (lsb &- 1)) }

    /// The largest leaf id inside this cell (inclusive).
    @inlinable public var rangeMax: CellID { CellID(rawValue: rawValue &+ (lsb &- 1)) }

    /// Whether `other` is this cell or one of its descendants.
    @inlinable
    public func contains(_ other: CellID) -> Bool {
        other.rawValue >= rangeMin.rawValue && other.rawValue <= rangeMax.rawValue
    }

    /// Whether the two cells share any leaf (one contains the other).
    @inlinable
    public func intersects(_ other: CellID) -> Bool {
        other.rangeMin.rawValue <= rangeMax.rawValue && other.rangeMax.rawValue >= rangeMin.rawValue
    }

    /// The level of the lowest common ancestor of the two cells, or nil if they are on
    /// different faces (`GetCommonAncestorLevel`).
    @inlinable
    public func commonAncestorLevel(_ other: CellID) -> Int? {
        let bits = max(rawValue ^ other.rawValue, max(lsb, other.lsb))
        // The highest differing bit; face bits 61-63 differing means no common ancestor.
        let highest = 63 - bits.leadingZeroBitCount
        if highest > 60 { return nil }
        return (60 - highest) >> 1
    }

    // MARK: Protocols

    /// Order by id: the Hilbert-curve order of S2, a cell before its descendants' range.
    @inlinable
    public static func < (a: CellID, b: CellID) -> Bool { a.rawValue < b.rawValue }

    /// S2's debug form: `"face/digits"` with one child position (0...3) per level, e.g.
    /// `"3/0213"`, or `"Invalid: <16 hex digits>"`.
    public var description: String {
        if !isValid {
            return "Invalid: " + CellID.hex(rawValue, digits: 16)
        }
        var out = String(face) + "/"
        let lvl = level
        if lvl > 0 {
            for l in 1...lvl { out.append(Character(String(childPosition(level: l)))) }
        }
        return out
    }
}
