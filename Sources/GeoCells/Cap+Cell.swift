import Geodesy

/// Cap–cell relations, ported from Google S2's `S2Cap` (s2cap.cc): `Contains(S2Cell)`,
/// `MayIntersect(S2Cell)`, `Intersects(S2Cell, vertices)` and `GetCellUnionBound`, with the
/// same floating-point expressions so that the region coverer makes S2's decisions exactly.
extension Cap {
    /// True when the cell lies entirely inside the cap (S2's exact-but-conservative test: all
    /// four vertices inside, and the complement cap does not reach the interior of any edge).
    @inlinable
    public func contains(_ cell: Cell) -> Bool {
        // The vertices are checked before taking the complement, because the complement of a
        // tiny cap cannot be represented accurately (a height of 2 - ε rounds to 2).
        let v0 = cell.vertex(0), v1 = cell.vertex(1), v2 = cell.vertex(2), v3 = cell.vertex(3)
        if !contains(v0) || !contains(v1) || !contains(v2) || !contains(v3) { return false }
        return !complement.intersectsEdges(of: cell, v0, v1, v2, v3)
    }

    /// True when the cap and the cell may intersect: a cell vertex is inside the cap, or the
    /// cap reaches the interior of the cell or of an edge. Never false for an intersecting
    /// pair; may be true for a cell that only touches the cap within rounding.
    @inlinable
    public func mayIntersect(_ cell: Cell) -> Bool {
        let v0 = cell.vertex(0)
        if contains(v0) { return true }
        let v1 = cell.vertex(1)
        if contains(v1) { return true }
        let v2 = cell.vertex(2)
        if contains(v2) { return true }
        let v3 = cell.vertex(3)
        if contains(v3) { return true }
        return intersectsEdges(of: cell, v0, v1, v2, v3)
    }

    /// S2's `S2Cap::Intersects(cell, vertices)`: whether the cap meets the cell anywhere other
    /// than at its (normalized) vertices `v0...v3`, which the caller has already tested.
    @inlinable
    func intersectsEdges(of cell: Cell, _ v0: UnitVector, _ v1: UnitVector, _ v2: UnitVector, _ v3: UnitVector) -> Bool {
        // A hemisphere or larger: the cell and the cap's complement are both convex, so no
        // interior point is inside when no vertex is.
        if radius >= .right { return false }
        if isEmpty { return false }
        // The cell holds the center: they intersect (and half the edge tests are skipped).
        if cell.contains(center) { return true }
        let sin2Angle = radius.sinSquared
        for k in 0..<4 {
            let edge = cell.edgeRaw(k)
            let dot = center.x * edge.x + center.y * edge.y + center.z * edge.z
            // The center is on the inner side of this edge: the opposite edge decides.
            if dot > 0 { continue }
            // `edge` is not unit length, hence the norm² factor.
            if dot * dot > sin2Angle * edge.norm2 { return false }
            // The edge's great circle crosses the cap: is the closest point within the edge?
            let dir = edge.cross(center)
            let a: UnitVector, b: UnitVector
            switch k {
            case 0: a = v0; b = v1
            case 1: a = v1; b = v2
            case 2: a = v2; b = v3
            default: a = v3; b = v0
            }
            if dir.dot(a) < 0 && dir.dot(b) > 0 { return true }
        }
        return false
    }

    /// Writes a small set of cells covering the cap into `cells` (cleared first): the 4 cells
    /// sharing the cell vertex nearest the center, at the deepest level `L - 1` where `L` is
    /// the deepest level whose cells are at least as wide as the cap's radius (so that the cap
    /// holds at most one cell vertex), or the 6 face cells for caps too large for that.
    /// Port of `S2Cap::GetCellUnionBound`; the output is not sorted.
    public func cellUnionBound(into cells: inout [CellID]) {
        cells.removeAll(keepingCapacity: true)
        let level = CellMetric.minWidth.levelForMinValue(radius.radians) - 1
        if level < 0 {
            for face in 0..<6 { cells.append(CellID(face: face)) }
        } else {
            CellID(center).appendVertexNeighbors(level: level, to: &cells)
        }
    }
}

extension Cap: CoverableRegion {
    /// Both cell tests sharing the four cell vertices (the same arithmetic as
    /// ``GeoCells/Cap/mayIntersect(_:)`` and ``GeoCells/Cap/contains(_:)-(Cell)``, computed once).
    @inlinable
    public func coverTest(_ cell: Cell, needContains: Bool) -> (intersects: Bool, contains: Bool) {
        let v0 = cell.vertex(0), v1 = cell.vertex(1), v2 = cell.vertex(2), v3 = cell.vertex(3)
        let in0 = contains(v0), in1 = contains(v1), in2 = contains(v2), in3 = contains(v3)
        if !(in0 || in1 || in2 || in3) && !intersectsEdges(of: cell, v0, v1, v2, v3) { return (false, false) }
        if !needContains { return (true, false) }
        let containsCell = in0 && in1 && in2 && in3 && !complement.intersectsEdges(of: cell, v0, v1, v2, v3)
        return (true, containsCell)
    }
}
