import Geodesy

/// The polygon as a region for ``RegionCoverer``: S2's `S2ShapeIndexRegion` (s2shape_index_region.h,
/// version 0.10), which `S2Polygon::Contains(S2Cell)`, `MayIntersect(S2Cell)` and
/// `GetCellUnionBound` delegate to. Both cell tests are conservative in S2's way: edges are
/// tested against the cell's (u, v) rectangle expanded by the clipping error, and a cell that
/// contains several index cells always "may intersect" and is never "contained".
extension Polygon: CoverableRegion {
    /// S2's `AnyEdgeIntersects(clipped, target)`.
    func anyEdgeIntersects(_ k: Int, _ target: Cell) -> Bool {
        let maxError = EdgeClipping.faceClipErrorUVCoord + EdgeClipping.intersectsRectErrorUVDist
        let bound = target.uvBounds.expanded(by: maxError)
        for e in index.edges(ofCell: k) {
            let (v0, v1) = edge(Int(e))
            if let (a, b) = EdgeClipping.clipToPaddedFace(v0, v1, face: target.face, padding: maxError),
                EdgeClipping.intersectsRect(a, b, bound)
            {
                return true
            }
        }
        return false
    }

    /// Whether the polygon contains the whole cell (S2's `S2Polygon::Contains(S2Cell)`).
    public func contains(_ target: Cell) -> Bool {
        guard case .indexed(let k) = index.locate(target.id) else { return false }
        if index.cellIDs[k] == target.id {
            return index.edges(ofCell: k).isEmpty && index.containsCenter[k]
        }
        return !anyEdgeIntersects(k, target) && cellContains(k, target.center)
    }

    /// Whether the polygon may meet the cell (S2's `S2Polygon::MayIntersect(S2Cell)`).
    public func mayIntersect(_ target: Cell) -> Bool {
        switch index.locate(target.id) {
        case .disjoint: return false
        case .subdivided: return true
        case .indexed(let k):
            if index.cellIDs[k] == target.id { return true }
            return anyEdgeIntersects(k, target) || cellContains(k, target.center)
        }
    }

    /// At most 6 cells covering the polygon, from the span of its index cells (S2's
    /// `S2ShapeIndexRegion::GetCellUnionBound`).
    public func cellUnionBound(into cells: inout [CellID]) {
        cells.removeAll(keepingCapacity: true)
        let ids = index.cellIDs
        guard let lastIndexID = ids.last else { return }
        var i = 0
        if ids[0] != lastIndexID {
            let level = (ids[0].commonAncestorLevel(lastIndexID) ?? -1) + 1
            let lastID = lastIndexID.parent(level: level)
            var id = ids[0].parent(level: level)
            while id != lastID {
                if id.rangeMax.rawValue < ids[i].rawValue {
                    id = id.next
                    continue
                }
                let first = ids[i]
                i = index.lowerBound(id.rangeMax.next) - 1
                Polygon.coverRange(first, ids[i], &cells)
                i += 1
                id = id.next
            }
        }
        Polygon.coverRange(ids[i], lastIndexID, &cells)
    }

    static func coverRange(_ first: CellID, _ last: CellID, _ cells: inout [CellID]) {
        if first == last {
            cells.append(first)
        } else {
            cells.append(first.parent(level: first.commonAncestorLevel(last) ?? 0))
        }
    }
}
