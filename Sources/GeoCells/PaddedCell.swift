import Geodesy

/// A cell with its (u, v) bounds expanded by a padding, as the polygon index subdivides it:
/// a port of Google S2's `S2PaddedCell` (s2padded_cell.cc, version 0.10). Children take their
/// bounds from the parent's ``middle`` band, so the bounds are exactly S2's.
@usableFromInline
struct PaddedCell {
    @usableFromInline let id: CellID
    @usableFromInline let padding: Double
    /// The padded (u, v) bounds.
    @usableFromInline var bound: UVRect
    @usableFromInline let level: Int
    /// The (i, j) of the cell's lower-left leaf.
    @usableFromInline let iLo: Int
    @usableFromInline let jLo: Int
    /// The Hilbert curve orientation of the cell.
    @usableFromInline let orientation: Int

    /// The padded cell of `id`.
    @usableFromInline
    init(_ id: CellID, padding: Double) {
        self.id = id
        self.padding = padding
        if id.isFace {
            let limit = 1 + padding
            bound = UVRect(uLo: -limit, uHi: limit, vLo: -limit, vHi: limit)
            iLo = 0
            jLo = 0
            orientation = id.face & 1
            level = 0
        } else {
            let f = id.toFaceIJOrientation()
            level = id.level
            bound = CellID.ijLevelToBoundUV(i: f.i, j: f.j, level: level).expanded(by: padding)
            let size = CellID.sizeIJ(level: level)
            iLo = f.i & -size
            jLo = f.j & -size
            orientation = f.orientation
        }
    }

    /// The child at (i, j) ∈ {0, 1}² in (u, v) position.
    @usableFromInline
    init(parent: PaddedCell, i: Int, j: Int) {
        padding = parent.padding
        level = parent.level + 1
        let pos = HilbertTables.ijToPos[parent.orientation][2 * i + j]
        id = parent.id.child(pos)
        let size = CellID.sizeIJ(level: level)
        iLo = parent.iLo + i * size
        jLo = parent.jLo + j * size
        orientation = parent.orientation ^ HilbertTables.posToOrientation[pos]
        let m = parent.middle
        var b = parent.bound
        if i == 0 { b.uHi = m.uHi } else { b.uLo = m.uLo }
        if j == 0 { b.vHi = m.vHi } else { b.vLo = m.vLo }
        bound = b
    }

    /// The (i, j) position of the child at Hilbert position `pos`.
    @usableFromInline
    func childIJ(_ pos: Int) -> (i: Int, j: Int) {
        let ij = HilbertTables.posToIJ[orientation][pos]
        return (ij >> 1, ij & 1)
    }

    /// The band of (u, v) shared by all four padded children.
    @usableFromInline
    var middle: UVRect {
        let size = CellID.sizeIJ(level: level)
        let u = S2Projection.stToUV(S2Projection.siTiToST(UInt32(2 * iLo + size)))
        let v = S2Projection.stToUV(S2Projection.siTiToST(UInt32(2 * jLo + size)))
        return UVRect(uLo: u - padding, uHi: u + padding, vLo: v - padding, vHi: v + padding)
    }

    /// The cell's center (S2's `GetCenter`).
    @usableFromInline
    var center: UnitVector {
        let size = CellID.sizeIJ(level: level)
        return S2Projection.faceSiTiToXYZ(id.face, UInt32(2 * iLo + size), UInt32(2 * jLo + size)).normalized
    }

    /// Where the Hilbert curve enters the cell (S2's `GetEntryVertex`).
    @usableFromInline
    var entryVertex: UnitVector {
        var i = iLo, j = jLo
        if orientation & HilbertTables.invertMask != 0 {
            let size = CellID.sizeIJ(level: level)
            i += size
            j += size
        }
        return S2Projection.faceSiTiToXYZ(id.face, UInt32(2 * i), UInt32(2 * j)).normalized
    }

    /// The smallest descendant (or self) whose padded bound contains `rect` (S2's
    /// `ShrinkToFit`). Requires `rect` to meet the bound.
    @usableFromInline
    func shrinkToFit(_ rect: UVRect) -> CellID {
        let size = CellID.sizeIJ(level: level)
        if level == 0 {
            if (rect.uLo <= 0 && 0 <= rect.uHi) || (rect.vLo <= 0 && 0 <= rect.vHi) { return id }
        } else {
            let u = S2Projection.stToUV(S2Projection.siTiToST(UInt32(2 * iLo + size)))
            let v = S2Projection.stToUV(S2Projection.siTiToST(UInt32(2 * jLo + size)))
            if (rect.uLo <= u && u <= rect.uHi) || (rect.vLo <= v && v <= rect.vHi) { return id }
        }
        let padded = rect.expanded(by: padding + 1.5 * Double.ulpOfOne)
        let iMin = max(iLo, S2Projection.stToIJ(S2Projection.uvToST(padded.uLo)))
        let iMax = min(iLo + size - 1, S2Projection.stToIJ(S2Projection.uvToST(padded.uHi)))
        let jMin = max(jLo, S2Projection.stToIJ(S2Projection.uvToST(padded.vLo)))
        let jMax = min(jLo + size - 1, S2Projection.stToIJ(S2Projection.uvToST(padded.vHi)))
        let levelMSB = (((iMin ^ iMax) | (jMin ^ jMax)) << 1) + 1
        let newLevel = CellID.maxLevel - (Int.bitWidth - 1 - levelMSB.leadingZeroBitCount)
        if newLevel <= level { return id }
        return CellID(face: id.face, i: iMin, j: jMin).parent(level: newLevel)
    }
}
