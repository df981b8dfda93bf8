import Geodesy

/// The cells of Google S2's `MutableS2ShapeIndex` over one polygon, built exactly as S2 builds
/// them (mutable_s2shape_index.cc, version 0.10, default options: at most 10 "short" edges per
/// cell, long-edge ratio 1, minimum short-edge fraction 0.2, cell padding
/// `2 · (kFaceClipErrorUVCoord + kEdgeClipErrorUVCoord)`).
///
/// Representation: flat arrays sorted by cell id. Cell `k` is ``cellIDs``[k]; its edges (the
/// polygon edges whose padded clip meets the cell, as edge ids in increasing order) are
/// `edges[edgeStart[k] ..< edgeStart[k + 1]]`; ``containsCenter``[k] says whether the polygon
/// contains the cell's center. Cells with no edges exist only where the polygon contains them.
/// The index answers point containment in O(log cells + edges per cell) and gives
/// ``Polygon`` S2's exact `Contains(S2Cell)`, `MayIntersect(S2Cell)` and `GetCellUnionBound`.
public struct PolygonIndex: Sendable {
    /// The index cells, increasing and disjoint.
    public private(set) var cellIDs: [CellID] = []
    @usableFromInline var edgeStart: [Int32] = [0]
    @usableFromInline var edges: [Int32] = []
    /// Whether the polygon contains each cell's center.
    public private(set) var containsCenter: [Bool] = []

    /// S2's `MutableS2ShapeIndex::kCellPadding`.
    public static let cellPadding = 2 * (EdgeClipping.faceClipErrorUVCoord + EdgeClipping.edgeClipErrorUVCoord)
    /// S2's default `max_edges_per_cell`.
    static let maxEdgesPerCell = 10
    /// S2's default `s2shape_index_min_short_edge_fraction`.
    static let minShortEdgeFraction = 0.2

    /// An edge clipped to one face: its id, (u, v) endpoints and the level from which it
    /// counts as long (S2's `FaceEdge`).
    struct FaceEdge {
        var id: Int32
        var a: UVPoint
        var b: UVPoint
        var maxLevel: Int
    }

    /// A face edge with its bound clipped to the current cell (S2's `ClippedEdge`).
    struct ClippedEdge {
        var faceEdge: Int32
        var bound: UVRect
    }

    /// Builds the index of the edges `edgeCount` edges given by `edge(id) -> (v0, v1)`;
    /// `contains` is the polygon's exact point containment. Like S2's interior tracker, the
    /// builder calls `contains` only for the cells it reaches without edges (a face's root cell
    /// and the tiles around it, a few hundred at most); inside a cell with edges it counts the
    /// crossings of that cell's edges from a point whose containment it knows, which gives the
    /// same answer (``EdgeCrosser``'s semi-open counting).
    /// - Complexity: O(n log n) for n edges on ordinary polygons (brute force per cell made a
    ///   200,000-vertex ring take minutes: O(n) per cell for O(n) cells).
    init(edgeCount: Int, edge: (Int) -> (UnitVector, UnitVector), contains: (UnitVector) -> Bool) {
        var faceEdges: [[FaceEdge]] = Array(repeating: [], count: 6)
        let maxUV = 1 - PolygonIndex.cellPadding
        for e in 0..<edgeCount {
            let (v0, v1) = edge(e)
            let maxLevel = CellMetric.avgEdge.levelForMaxValue((v0 - v1).norm)
            let aFace = S2Projection.face(of: v0)
            if aFace == S2Projection.face(of: v1) {
                let a = S2Projection.validFaceXYZToUV(aFace, v0)
                let b = S2Projection.validFaceXYZToUV(aFace, v1)
                if abs(a.u) <= maxUV && abs(a.v) <= maxUV && abs(b.u) <= maxUV && abs(b.v) <= maxUV {
                    faceEdges[aFace].append(FaceEdge(id: Int32(e), a: a, b: b, maxLevel: maxLevel))
                    continue
                }
            }
            for face in 0..<6 {
                if let (a, b) = EdgeClipping.clipToPaddedFace(v0, v1, face: face, padding: PolygonIndex.cellPadding) {
                    faceEdges[face].append(FaceEdge(id: Int32(e), a: a, b: b, maxLevel: maxLevel))
                }
            }
        }
        let built = withoutActuallyEscaping(contains) { contains in
            withoutActuallyEscaping(edge) { edge in
                var builder = Builder(contains: contains, edge: edge)
                for face in 0..<6 {
                    builder.faceEdges = faceEdges[face]
                    builder.updateFace(face)
                }
                return (builder.cellIDs, builder.edgeStart, builder.edges, builder.containsCenter)
            }
        }
        (cellIDs, edgeStart, edges, containsCenter) = built
    }

    /// The number of index cells.
    public var count: Int { cellIDs.count }

    /// The edge ids of cell `k`, increasing.
    @inlinable
    public func edges(ofCell k: Int) -> ArraySlice<Int32> {
        edges[Int(edgeStart[k])..<Int(edgeStart[k + 1])]
    }

    /// The recursive subdivision (S2's `UpdateFaceEdges`, `UpdateEdges`, `MakeIndexCell`).
    struct Builder {
        /// The polygon's containment by brute force: for the few cells reached without edges.
        let contains: (UnitVector) -> Bool
        /// The endpoints of an edge id.
        let edge: (Int) -> (UnitVector, UnitVector)
        var faceEdges: [FaceEdge] = []
        var cellIDs: [CellID] = []
        var edgeStart: [Int32] = [0]
        var edges: [Int32] = []
        var containsCenter: [Bool] = []

        mutating func updateFace(_ face: Int) {
            let faceID = CellID(face: face)
            let faceCell = PaddedCell(faceID, padding: PolygonIndex.cellPadding)
            if faceEdges.isEmpty {
                let entry = faceCell.entryVertex
                if contains(entry) { updateEdges(faceCell, [], from: Reference(point: entry, inside: true)) }
                return
            }
            var clipped: [ClippedEdge] = []
            clipped.reserveCapacity(faceEdges.count)
            var bound = UVRect(uLo: .infinity, uHi: -.infinity, vLo: .infinity, vHi: -.infinity)
            for (k, e) in faceEdges.enumerated() {
                let r = UVRect(
                    uLo: min(e.a.u, e.b.u), uHi: max(e.a.u, e.b.u),
                    vLo: min(e.a.v, e.b.v), vHi: max(e.a.v, e.b.v))
                clipped.append(ClippedEdge(faceEdge: Int32(k), bound: r))
                bound = UVRect(
                    uLo: min(bound.uLo, r.uLo), uHi: max(bound.uHi, r.uHi),
                    vLo: min(bound.vLo, r.vLo), vHi: max(bound.vHi, r.vHi))
            }
            let shrunk = faceCell.shrinkToFit(bound)
            if shrunk != faceID {
                skipCellRange(faceID.rangeMin, shrunk.rangeMin)
                updateEdges(PaddedCell(shrunk, padding: PolygonIndex.cellPadding), clipped, from: nil)
                skipCellRange(shrunk.rangeMax.next, faceID.rangeMax.next)
            } else {
                updateEdges(faceCell, clipped, from: nil)
            }
        }

        /// Index cells for the leaf range [begin, end) where the polygon covers it.
        mutating func skipCellRange(_ begin: CellID, _ end: CellID) {
            var id = begin.maximumTile(end)
            while id != end {
                let cell = PaddedCell(id, padding: PolygonIndex.cellPadding)
                let entry = cell.entryVertex
                if contains(entry) { updateEdges(cell, [], from: Reference(point: entry, inside: true)) }
                id = id.next.maximumTile(end)
            }
        }

        /// A point of the current cell (its closure) whose containment is known.
        struct Reference {
            var point: UnitVector
            var inside: Bool
        }

        /// Whether the polygon contains `p`, from `reference`: its containment flipped by each
        /// edge of `clipped` that the segment from it to `p` crosses (S2's `InteriorTracker`).
        /// Both points must lie in the closure of the cell whose edges `clipped` are: the cell is
        /// convex, so the segment stays in it, and the padded clipping kept every edge that
        /// meets it.
        func contains(_ p: UnitVector, from reference: Reference, _ clipped: [ClippedEdge]) -> Bool {
            if clipped.isEmpty || p == reference.point { return reference.inside }
            var inside = reference.inside
            var crosser = EdgeCrosser(reference.point, p, chainStart: reference.point)
            for e in clipped {
                let (c, d) = edge(Int(faceEdges[Int(e.faceEdge)].id))
                crosser.restart(at: c)
                if crosser.edgeOrVertexCrossing(d) { inside.toggle() }
            }
            return inside
        }

        /// `reference`: a point of `pcell`'s closure whose containment is known, nil for the
        /// root of a face (then the entry vertex is tested by brute force).
        mutating func updateEdges(_ pcell: PaddedCell, _ clipped: [ClippedEdge], from reference: Reference?) {
            let entry = pcell.entryVertex
            let entryInside = reference.map { contains(entry, from: $0, clipped) } ?? contains(entry)
            let start = Reference(point: entry, inside: entryInside)
            if makeIndexCell(pcell, clipped, entry: start) { return }
            var children: [[ClippedEdge]] = [[], [], [], []]  // [2 * i + j]
            let middle = pcell.middle
            for edge in clipped {
                if edge.bound.uHi <= middle.uLo {
                    clipVAxis(edge, middle, &children, i: 0)
                } else if edge.bound.uLo >= middle.uHi {
                    clipVAxis(edge, middle, &children, i: 1)
                } else if edge.bound.vHi <= middle.vLo {
                    children[0].append(clipUBound(edge, 1, middle.uHi))
                    children[2].append(clipUBound(edge, 0, middle.uLo))
                } else if edge.bound.vLo >= middle.vHi {
                    children[1].append(clipUBound(edge, 1, middle.uHi))
                    children[3].append(clipUBound(edge, 0, middle.uLo))
                } else {
                    let left = clipUBound(edge, 1, middle.uHi)
                    clipVAxis(left, middle, &children, i: 0)
                    let right = clipUBound(edge, 0, middle.uLo)
                    clipVAxis(right, middle, &children, i: 1)
                }
            }
            // The center is a corner of every child: the reference for each.
            let center = pcell.center
            let centerReference = Reference(point: center, inside: contains(center, from: start, clipped))
            for pos in 0..<4 {
                let (i, j) = pcell.childIJ(pos)
                let child = PaddedCell(parent: pcell, i: i, j: j)
                if !children[2 * i + j].isEmpty || centerReference.inside {
                    updateEdges(child, children[2 * i + j], from: centerReference)
                }
            }
        }

        func clipVAxis(_ edge: ClippedEdge, _ middle: UVRect, _ children: inout [[ClippedEdge]], i: Int) {
            if edge.bound.vHi <= middle.vLo {
                children[2 * i].append(edge)
            } else if edge.bound.vLo >= middle.vHi {
                children[2 * i + 1].append(edge)
            } else {
                children[2 * i].append(clipVBound(edge, 1, middle.vHi))
                children[2 * i + 1].append(clipVBound(edge, 0, middle.vLo))
            }
        }

        func clipUBound(_ edge: ClippedEdge, _ uEnd: Int, _ u: Double) -> ClippedEdge {
            if uEnd == 0 {
                if edge.bound.uLo >= u { return edge }
            } else {
                if edge.bound.uHi <= u { return edge }
            }
            let e = faceEdges[Int(edge.faceEdge)]
            let v = min(edge.bound.vHi, max(edge.bound.vLo, EdgeClipping.interpolate(u, e.a.u, e.b.u, e.a.v, e.b.v)))
            let vEnd = uEnd ^ (((e.a.u > e.b.u) != (e.a.v > e.b.v)) ? 1 : 0)
            return updateBound(edge, uEnd, u, vEnd, v)
        }

        func clipVBound(_ edge: ClippedEdge, _ vEnd: Int, _ v: Double) -> ClippedEdge {
            if vEnd == 0 {
                if edge.bound.vLo >= v { return edge }
            } else {
                if edge.bound.vHi <= v { return edge }
            }
            let e = faceEdges[Int(edge.faceEdge)]
            let u = min(edge.bound.uHi, max(edge.bound.uLo, EdgeClipping.interpolate(v, e.a.v, e.b.v, e.a.u, e.b.u)))
            let uEnd = vEnd ^ (((e.a.u > e.b.u) != (e.a.v > e.b.v)) ? 1 : 0)
            return updateBound(edge, uEnd, u, vEnd, v)
        }

        func updateBound(_ edge: ClippedEdge, _ uEnd: Int, _ u: Double, _ vEnd: Int, _ v: Double) -> ClippedEdge {
            var b = edge.bound
            if uEnd == 0 { b.uLo = u } else { b.uHi = u }
            if vEnd == 0 { b.vLo = v } else { b.vHi = v }
            return ClippedEdge(faceEdge: edge.faceEdge, bound: b)
        }

        /// S2's `MakeIndexCell`: false when the cell has too many short edges and must be
        /// subdivided; otherwise records the cell (if it has edges or lies inside).
        mutating func makeIndexCell(_ pcell: PaddedCell, _ clipped: [ClippedEdge], entry: Reference) -> Bool {
            let inside = entry.inside
            if clipped.isEmpty && !inside { return true }
            if clipped.count > PolygonIndex.maxEdgesPerCell {
                let maxShort = max(
                    PolygonIndex.maxEdgesPerCell,
                    Int(PolygonIndex.minShortEdgeFraction * Double(clipped.count + (inside ? 1 : 0))))
                var count = 0
                for e in clipped where pcell.level < faceEdges[Int(e.faceEdge)].maxLevel {
                    count += 1
                    if count > maxShort { return false }
                }
            }
            cellIDs.append(pcell.id)
            for e in clipped { edges.append(faceEdges[Int(e.faceEdge)].id) }
            edgeStart.append(Int32(edges.count))
            containsCenter.append(clipped.isEmpty ? inside : contains(pcell.center, from: entry, clipped))
            return true
        }
    }
}

extension CellID {
    /// The largest cell with the same `rangeMin` whose range ends before `limit` (S2's
    /// `S2CellId::maximum_tile`); `limit` itself when this cell starts at or after it.
    @inlinable
    public func maximumTile(_ limit: CellID) -> CellID {
        var id = self
        let start = id.rangeMin
        if start.rawValue >= limit.rangeMin.rawValue { return limit }
        if id.rangeMax.rawValue >= limit.rawValue {
            repeat { id = id.child(0) } while id.rangeMax.rawValue >= limit.rawValue
            return id
        }
        while !id.isFace {
            let parent = id.parent()
            if parent.rangeMin != start || parent.rangeMax.rawValue >= limit.rawValue { break }
            id = parent
        }
        return id
    }
}
