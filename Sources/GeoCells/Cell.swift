import Geodesy

/// An S2 cell with its geometry precomputed (S2's `S2Cell`): the ``CellID`` plus face, level,
/// Hilbert orientation and (u, v) bounds on its face, from which vertices, edge normals,
/// areas and containment follow cheaply.
///
/// The cell is the region of the sphere bounded by the four great-circle edges through its
/// vertices; its (u, v) bounds are exact images of the (i, j) grid under the quadratic
/// projection, computed exactly as S2 does so that every derived value is bit-identical.
public struct Cell: Hashable, Sendable {
    /// The cell's id (valid).
    public let id: CellID
    /// Cube face, 0...5.
    public let face: Int
    /// Level, 0...30.
    public let level: Int
    /// Hilbert-curve orientation (swap bit 1, invert bit 2).
    public let orientation: Int
    /// The cell's bounds in its face's (u, v) plane.
    public let uvBounds: UVRect

    /// The cell of a valid id.
    @inlinable
    public init(_ id: CellID) {
        let f = id.toFaceIJOrientation()
        let level = id.level
        self.id = id
        face = f.face
        self.level = level
        orientation = f.orientation
        uvBounds = CellID.ijLevelToBoundUV(i: f.i, j: f.j, level: level)
    }

    /// The leaf cell containing `point`.
    @inlinable
    public init(_ point: UnitVector) {
        self.init(CellID(point))
    }

    @inlinable
    init(id: CellID, face: Int, level: Int, orientation: Int, uvBounds: UVRect) {
        self.id = id
        self.face = face
        self.level = level
        self.orientation = orientation
        self.uvBounds = uvBounds
    }

    /// Whether this is a leaf cell.
    @inlinable public var isLeaf: Bool { level == CellID.maxLevel }

    /// Edge length in (s, t) units and in leaf (i, j) units.
    @inlinable public var sizeIJ: Int { CellID.sizeIJ(level: level) }

    // MARK: Vertices and edges

    /// Vertex `k` (0...3, counter-clockwise from (uLo, vLo)), not unit length
    /// (`GetVertexRaw`).
    @inlinable
    public func vertexRaw(_ k: Int) -> UnitVector {
        S2Projection.faceUVToXYZ(face, uvBounds.vertex(k))
    }

    /// Vertex `k` (0...3, counter-clockwise from (uLo, vLo)) as a unit vector (`GetVertex`).
    @inlinable
    public func vertex(_ k: Int) -> UnitVector { vertexRaw(k).normalized }

    /// The inward-facing normal (not unit length) of edge `k`: 0 bottom (v = vLo), 1 right
    /// (u = uHi), 2 top (v = vHi), 3 left (u = uLo); edge k runs from vertex k to k + 1
    /// (`GetEdgeRaw`).
    @inlinable
    public func edgeRaw(_ k: Int) -> UnitVector {
        switch k & 3 {
        case 0: return S2Projection.vNorm(face, uvBounds.vLo)
        case 1: return S2Projection.uNorm(face, uvBounds.uHi)
        case 2: return -S2Projection.vNorm(face, uvBounds.vHi)
        default: return -S2Projection.uNorm(face, uvBounds.uLo)
        }
    }

    /// ``edgeRaw(_:)`` as a unit vector (`GetEdge`).
    @inlinable
    public func edge(_ k: Int) -> UnitVector { edgeRaw(k).normalized }

    /// The u or v coordinate of edge `k`'s line: vLo, uHi, vHi, uLo for k = 0...3
    /// (`GetUVCoordOfEdge`).
    @inlinable
    public func uvCoordOfEdge(_ k: Int) -> Double {
        switch k & 3 {
        case 0: return uvBounds.vLo
        case 1: return uvBounds.uHi
        case 2: return uvBounds.vHi
        default: return uvBounds.uLo
        }
    }

    /// The i or j leaf coordinate of edge `k`'s line, in [0, 2^30] (`GetIJCoordOfEdge`).
    @inlinable
    public func ijCoordOfEdge(_ k: Int) -> Int {
        let f = id.toFaceIJOrientation()
        let size = sizeIJ
        switch k & 3 {
        case 0: return f.j & -size
        case 1: return (f.i & -size) + size
        case 2: return (f.j & -size) + size
        default: return f.i & -size
        }
    }

    /// The center in (s, t) space, not unit length (`GetCenterRaw`).
    @inlinable public var centerRaw: UnitVector { id.centerPointRaw }

    /// The center in (s, t) space as a unit vector (`GetCenter`).
    @inlinable public var center: UnitVector { centerRaw.normalized }

    // MARK: Hierarchy

    /// The four children in Hilbert order (`Subdivide`), about 2.5 times faster than
    /// `Cell(child)` for each: the (u, v) bounds are split at the parent's center, which lies
    /// on the (i, j) grid, so each child's bounds equal `Cell(childID).uvBounds` exactly.
    /// Empty for a leaf.
    public func children() -> [Cell] {
        if isLeaf { return [] }
        let mid = id.centerUV
        var result: [Cell] = []
        result.reserveCapacity(4)
        var childID = id.childBegin()
        for pos in 0..<4 {
            // Which half in u and v the child takes follows from its (i, j) quadrant.
            let ij = HilbertTables.posToIJ[orientation][pos]
            let i = ij >> 1, j = ij & 1
            var b = uvBounds
            b[0, 1 - i] = mid.u
            b[1, 1 - j] = mid.v
            result.append(
                Cell(
                    id: childID, face: face, level: level + 1,
                    orientation: orientation ^ HilbertTables.posToOrientation[pos],
                    uvBounds: b))
            childID = childID.next
        }
        return result
    }

    // MARK: Containment

    /// Whether the cell contains `point` (not necessarily unit length), boundary included
    /// (`S2Cell::Contains(S2Point)`). The (u, v) bounds are widened by one machine epsilon so
    /// that `Cell(CellID(p)).contains(p)` always holds despite (u, v) -> (s, t) rounding;
    /// a point on a face edge is contained by the cells on both sides.
    @inlinable
    public func contains(_ point: UnitVector) -> Bool {
        guard let uv = S2Projection.faceXYZToUV(face, point) else { return false }
        return uvBounds.expanded(by: Double.ulpOfOne).contains(uv)
    }

    /// Whether `other` is this cell or inside it.
    @inlinable public func contains(_ other: Cell) -> Bool { id.contains(other.id) }

    /// Whether the two cells overlap (one contains the other).
    @inlinable public func mayIntersect(_ other: Cell) -> Bool { id.intersects(other.id) }
}
