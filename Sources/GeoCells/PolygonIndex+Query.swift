import Geodesy

/// Lookups in the index (S2's `S2ShapeIndex::Iterator::Locate`).
extension PolygonIndex {
    /// How a cell relates to the index cells (S2's `CellRelation`).
    public enum CellRelation: Equatable, Sendable {
        /// The cell is an index cell or inside one (its position).
        case indexed(Int)
        /// The cell contains several index cells (or a smaller one).
        case subdivided
        /// The cell meets no index cell.
        case disjoint
    }

    /// The first position whose cell id is at least `id`.
    @inlinable
    func lowerBound(_ id: CellID) -> Int {
        var lo = 0, hi = cellIDs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cellIDs[mid].rawValue < id.rawValue { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The relation of `target` to the index cells (S2's `LocateImpl(S2CellId)`).
    public func locate(_ target: CellID) -> CellRelation {
        let i = lowerBound(target.rangeMin)
        if i < cellIDs.count {
            let id = cellIDs[i]
            if id.rawValue >= target.rawValue && id.rangeMin.rawValue <= target.rawValue { return .indexed(i) }
            if id.rawValue <= target.rangeMax.rawValue { return .subdivided }
        }
        if i > 0 && cellIDs[i - 1].rangeMax.rawValue >= target.rawValue { return .indexed(i - 1) }
        return .disjoint
    }

    /// The position of the index cell containing `p`, or nil (S2's `Locate(S2Point)`).
    @inlinable
    public func locate(_ p: UnitVector) -> Int? {
        let target = CellID(p)
        let i = lowerBound(target)
        if i < cellIDs.count && cellIDs[i].rangeMin.rawValue <= target.rawValue { return i }
        if i > 0 && cellIDs[i - 1].rangeMax.rawValue >= target.rawValue { return i - 1 }
        return nil
    }
}
