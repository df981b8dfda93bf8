import SpatialIndex

/// The indexes a stabbing measurement can run, by their `--index` names (`cell` holds circles and
/// polygons; the others circles only).
public enum IndexKind: String, CaseIterable, Sendable {
    case packed, dynamic, grid, brute, cell

    /// Whether the index has a batch query of its own (the packed tree's goes down level by
    /// level for 64 fixes at a time, the grid index's looks up a block's cells first). The
    /// dynamic tree's batch entry point is the generic one-fix-at-a-time loop: measured against
    /// calling it per fix directly, it was as fast at 3k fences but 6-9 % slower at 30k, so it
    /// is called per fix.
    public var hasBatchQuery: Bool { self == .grid || self == .packed }

    /// The index's type name.
    public var label: String {
        switch self {
        case .packed: return "PackedRTree"
        case .dynamic: return "DynamicRTree"
        case .grid: return "LatLngGridIndex"
        case .brute: return "BruteForce"
        case .cell: return "CellFenceIndex"
        }
    }
}
