/// A region that ``RegionCoverer`` can cover: the three queries S2's `S2RegionCoverer` asks of
/// an `S2Region`. ``Cap`` and ``Polygon`` conform.
public protocol CoverableRegion {
    /// True when the region may meet the cell (never false for a cell that it meets).
    func mayIntersect(_ cell: Cell) -> Bool
    /// True when the region contains the whole cell (never true for a cell it does not).
    func contains(_ cell: Cell) -> Bool
    /// A few cells (at most 6) whose union contains the region, replacing `cells`' contents
    /// (S2's `GetCellUnionBound`).
    func cellUnionBound(into cells: inout [CellID])
    /// `mayIntersect(cell)`, and, when it is true and `needContains`, `contains(cell)` (false
    /// otherwise); a region may share work between the two.
    func coverTest(_ cell: Cell, needContains: Bool) -> (intersects: Bool, contains: Bool)
}

extension CoverableRegion {
    /// The two queries one after the other.
    @inlinable
    public func coverTest(_ cell: Cell, needContains: Bool) -> (intersects: Bool, contains: Bool) {
        if !mayIntersect(cell) { return (false, false) }
        return (true, needContains && contains(cell))
    }
}
