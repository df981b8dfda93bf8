extension CellID {
    /// The leaf at (i, j) of `face` where (i, j) may lie up to one leaf beyond the face
    /// (used for neighbors), reprojected onto the adjacent face (`FromFaceIJWrap`).
    @usableFromInline
    static func fromFaceIJWrap(face: Int, i: Int, j: Int) -> CellID {
        // Clamp to one leaf beyond the face, then go through (x, y, z) with the linear
        // projection u = 2s - 1, keeping (u, v) within 1 + epsilon of the face so that the
        // division in the reprojection cannot move the point into the wrong leaf.
        let i = max(-1, min(maxSize, i))
        let j = max(-1, min(maxSize, j))
        let scale = 1.0 / Double(maxSize)
        let limit = 1.0 + Double.ulpOfOne
        let u = max(-limit, min(limit, scale * Double(2 * (i - maxSize / 2) + 1)))
        let v = max(-limit, min(limit, scale * Double(2 * (j - maxSize / 2) + 1)))
        let (newFace, uv) = S2Projection.xyzToFaceUV(S2Projection.faceUVToXYZ(face, u, v))
        return CellID(
            face: newFace, i: S2Projection.stToIJ(0.5 * (uv.u + 1)),
            j: S2Projection.stToIJ(0.5 * (uv.v + 1)))
    }

    /// ``init(face:i:j:)`` when `sameFace`, otherwise ``fromFaceIJWrap(face:i:j:)``
    /// (`FromFaceIJSame`).
    @usableFromInline
    static func fromFaceIJSame(face: Int, i: Int, j: Int, sameFace: Bool) -> CellID {
        sameFace ? CellID(face: face, i: i, j: j) : fromFaceIJWrap(face: face, i: i, j: j)
    }

    /// The four same-level cells sharing an edge with this one, in the order of
    /// ``Cell/edge(_:)``: bottom (v = vLo), right (u = uHi), top (v = vHi), left (u = uLo)
    /// in the face's (u, v) frame; across a face boundary they lie on the adjacent face
    /// (`GetEdgeNeighbors`).
    public var edgeNeighbors: [CellID] {
        let level = self.level
        let size = CellID.sizeIJ(level: level)
        let (face, i, j, _) = toFaceIJOrientation()
        let maxSize = CellID.maxSize
        return [
            CellID.fromFaceIJSame(face: face, i: i, j: j - size, sameFace: j - size >= 0)
                .parent(level: level),
            CellID.fromFaceIJSame(face: face, i: i + size, j: j, sameFace: i + size < maxSize)
                .parent(level: level),
            CellID.fromFaceIJSame(face: face, i: i, j: j + size, sameFace: j + size < maxSize)
                .parent(level: level),
            CellID.fromFaceIJSame(face: face, i: i - size, j: j, sameFace: i - size >= 0)
                .parent(level: level)
        ]
    }

    /// Appends the cells at `level` (< self.level) that share the vertex of
    /// `parent(level: level)` closest to this cell: 4 cells, or 3 at the 8 cube corners
    /// (`AppendVertexNeighbors`). The first appended cell is `parent(level: level)`.
    public func appendVertexNeighbors(level: Int, to output: inout [CellID]) {
        precondition(level < self.level, "vertex neighbors need a level above the cell's")
        let (face, i, j, _) = toFaceIJOrientation()
        let maxSize = CellID.maxSize
        // The next bit of i and j says which quadrant of parent(level) this cell lies in,
        // hence which of its vertices is closest.
        let halfSize = CellID.sizeIJ(level: level + 1)
        let size = halfSize << 1
        let iSame: Bool, jSame: Bool
        let iOffset: Int, jOffset: Int
        if i & halfSize != 0 {
            iOffset = size
            iSame = i + size < maxSize
        } else {
            iOffset = -size
            iSame = i - size >= 0
        }
        if j & halfSize != 0 {
            jOffset = size
            jSame = j + size < maxSize
        } else {
            jOffset = -size
            jSame = j - size >= 0
        }
        output.append(parent(level: level))
        output.append(
            CellID.fromFaceIJSame(face: face, i: i + iOffset, j: j, sameFace: iSame)
                .parent(level: level))
        output.append(
            CellID.fromFaceIJSame(face: face, i: i, j: j + jOffset, sameFace: jSame)
                .parent(level: level))
        // Both edge neighbors on other faces: a cube corner, where only 3 cells meet.
        if iSame || jSame {
            output.append(
                CellID.fromFaceIJSame(
                    face: face, i: i + iOffset, j: j + jOffset,
                    sameFace: iSame && jSame
                ).parent(level: level))
        }
    }

    /// Appends every cell at `level` (>= self.level) that touches this cell's boundary
    /// (edge or vertex) from outside, in S2's order (`AppendAllNeighbors`). At a cube corner
    /// one diagonal neighbor is appended twice, as in S2.
    public func appendAllNeighbors(level nbrLevel: Int, to output: inout [CellID]) {
        precondition(nbrLevel >= level, "neighbor level must be at or below the cell's")
        let start = toFaceIJOrientation()
        let face = start.face
        var i = start.i, j = start.j
        let maxSize = CellID.maxSize
        // Move (i, j) to the cell's lower-left leaf: nbrLevel may be deeper than the cell.
        let size = CellID.sizeIJ(level: level)
        i &= -size
        j &= -size
        let nbrSize = CellID.sizeIJ(level: nbrLevel)
        var k = -nbrSize
        while true {
            let sameFace: Bool
            if k < 0 {
                sameFace = j + k >= 0
            } else if k >= size {
                sameFace = j + k < maxSize
            } else {
                sameFace = true
                // Bottom and top neighbors.
                output.append(
                    CellID.fromFaceIJSame(
                        face: face, i: i + k, j: j - nbrSize,
                        sameFace: j - size >= 0
                    ).parent(level: nbrLevel))
                output.append(
                    CellID.fromFaceIJSame(
                        face: face, i: i + k, j: j + size,
                        sameFace: j + size < maxSize
                    ).parent(level: nbrLevel))
            }
            // Left, right and diagonal neighbors.
            output.append(
                CellID.fromFaceIJSame(
                    face: face, i: i - nbrSize, j: j + k,
                    sameFace: sameFace && i - size >= 0
                ).parent(level: nbrLevel))
            output.append(
                CellID.fromFaceIJSame(
                    face: face, i: i + size, j: j + k,
                    sameFace: sameFace && i + size < maxSize
                ).parent(level: nbrLevel))
            if k >= size { break }
            k += nbrSize
        }
    }
}
