import Geodesy

/// Which of many polygons contain a point: each polygon is keyed by the cells of its covering
/// at one fixed level (a flat array sorted by cell id), and the exact ``Polygon/contains(_:)-(UnitVector)``
/// runs only on the candidates whose key cell holds the point. Key cells of the polygon's
/// interior covering at that level are marked, and a point in one of them is a hit without the
/// exact test (S2's `Contains(S2Cell)` is conservative, so this is exact too).
///
/// The level is a trade-off: finer keys mean fewer candidates per point but more keys per
/// polygon (level 16, cells of about 150 m, suits building outlines). A polygon too large for
/// the level is keyed at a coarser one: cells at least a quarter of its enclosing cap's
/// diameter wide, and coarser still while its covering exceeds `maxKeysPerPolygon` cells.
public struct PolygonStabIndex: Sendable {
    /// The polygons, in insertion order (their positions are the ids returned by queries).
    public let polygons: [Polygon]
    /// Key cells, sorted by id; `owners[k]` is the polygon of `keys[k]`, `interior[k]` whether
    /// the polygon contains the whole cell.
    @usableFromInline let keys: [CellID]
    @usableFromInline let owners: [Int32]
    @usableFromInline let interior: [Bool]
    /// The distinct key levels, finest first.
    @usableFromInline let levels: [Int]

    /// An index of `polygons` keyed at `level` (0...30), at most `maxKeysPerPolygon` keys each.
    /// - Complexity: one covering per polygon, then a sort of all keys.
    public init(_ polygons: [Polygon], level: Int = 16, maxKeysPerPolygon: Int = 64) {
        var entries: [(CellID, Int32, Bool)] = []
        var levelSet = Set<Int>()
        for (i, polygon) in polygons.enumerated() {
            // Cells at least a quarter of the enclosing cap's diameter wide: at most about 36
            // of them meet the polygon, so fixing the level never forces millions of cells.
            let cap = polygon.enclosingCap
            let fitting = cap.isFull ? 0 : CellMetric.minWidth.levelForMinValue(cap.radiusRadians / 2)
            var l = max(0, min(level, fitting))
            var cells: [CellID] = []
            while true {
                let coverer = RegionCoverer(unchecked: maxKeysPerPolygon, minLevel: l, maxLevel: l, levelMod: 1)
                cells = coverer.covering(of: polygon)
                if cells.count <= maxKeysPerPolygon || l == 0 { break }
                l -= 1
            }
            levelSet.insert(l)
            for id in cells {
                entries.append((id, Int32(i), polygon.contains(Cell(id))))
            }
        }
        entries.sort { $0.0.rawValue < $1.0.rawValue || ($0.0 == $1.0 && $0.1 < $1.1) }
        self.polygons = polygons
        keys = entries.map(\.0)
        owners = entries.map(\.1)
        interior = entries.map(\.2)
        levels = levelSet.sorted(by: >)
    }

    /// Appends to `hits` the ids (positions) of the polygons containing `p`, in increasing
    /// order; returns how many exact tests ran.
    @discardableResult
    public func stab(_ p: UnitVector, into hits: inout [Int]) -> Int {
        let leaf = CellID(p)
        let start = hits.count
        var tests = 0
        for level in levels {
            let key = leaf.parent(level: level)
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if keys[mid].rawValue < key.rawValue { lo = mid + 1 } else { hi = mid }
            }
            while lo < keys.count && keys[lo] == key {
                let owner = Int(owners[lo])
                if interior[lo] {
                    hits.append(owner)
                } else {
                    tests += 1
                    if polygons[owner].contains(p) { hits.append(owner) }
                }
                lo += 1
            }
        }
        if levels.count > 1 { hits[start...].sort() }
        return tests
    }

    /// The ids of the polygons containing `p`, increasing.
    public func stab(_ p: UnitVector) -> [Int] {
        var hits: [Int] = []
        stab(p, into: &hits)
        return hits
    }
}
