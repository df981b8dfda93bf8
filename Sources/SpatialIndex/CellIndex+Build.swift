import Geodesy
import GeoCells

extension CellIndex {
    /// Deepest level used: a level-16 cell is ~150 m wide, far wider than the ~6 m that the
    /// squared-chord margin pads a zero-radius cap by, so tiny fences still meet 1-4 cells.
    public static let maxIndexLevel = 16

    /// Builds the index.
    /// - Parameter cellsPerRadius: see ``cellsPerRadius``; larger values give more, smaller
    ///   cells per fence (fewer candidates, more memory).
    /// - Precondition: fewer than 2^26 centre groups; `cellsPerRadius > 0`.
    /// - Complexity: O(n log n) plus the flood fill of each group's cells.
    public init(_ fences: some Sequence<Fence>, cellsPerRadius: Double = 2) {
        precondition(cellsPerRadius > 0, "cellsPerRadius must be positive")
        self.cellsPerRadius = cellsPerRadius
        let input = Array(fences)
        let n = input.count

        // Centre groups: sort by Hilbert key of the centre (locality), then the centre's bits
        // (identical centres become adjacent), then chord2 descending, then input order.
        var order = input.indices.map { (key: HilbertCurve.key(input[$0].centreVector), index: $0) }
        order.sort { l, r in
            if l.key != r.key { return l.key < r.key }
            let a = input[l.index], b = input[r.index]
            let ac = a.centreVector, bc = b.centreVector
            if ac.x.bitPattern != bc.x.bitPattern { return ac.x.bitPattern < bc.x.bitPattern }
            if ac.y.bitPattern != bc.y.bitPattern { return ac.y.bitPattern < bc.y.bitPattern }
            if ac.z.bitPattern != bc.z.bitPattern { return ac.z.bitPattern < bc.z.bitPattern }
            if a.chord2 != b.chord2 { return a.chord2 > b.chord2 }
            return l.index < r.index
        }
        var groups: [Group] = []
        var ids: [Int32] = []
        var chord2s: [Double] = []
        var radii: [Double] = []
        ids.reserveCapacity(n)
        chord2s.reserveCapacity(n)
        radii.reserveCapacity(n)
        for (_, index) in order {
            let f = input[index]
            let c = f.centreVector
            if let last = groups.last, last.count < UInt32(CellIndex.maxGroupSize),
               last.x.bitPattern == c.x.bitPattern, last.y.bitPattern == c.y.bitPattern,
               last.z.bitPattern == c.z.bitPattern {
                groups[groups.count - 1].count += 1
            } else {
                groups.append(Group(x: c.x, y: c.y, z: c.z, start: UInt32(ids.count), count: 1))
            }
            ids.append(f.id)
            chord2s.append(f.chord2)
            radii.append(f.radiusMeters)
        }
        precondition(groups.count < 1 << 26, "too many centre groups for 26-bit entry fields")

        // Cells of every group, as (cell key, entry) pairs.
        var keys: [UInt64] = []
        var packed: [UInt32] = []
        var levelMask: UInt32 = 0
        var fill = CellFloodFill()
        for g in groups.indices {
            let group = groups[g]
            let first = Int(group.start), count = Int(group.count)
            let largest = radii[first]  // chord2 descending: the first fence is the largest
            let level = CellIndex.level(forRadiusMeters: largest, cellsPerRadius: cellsPerRadius)
            levelMask |= 1 << UInt32(level)
            let centre = UnitVector(x: group.x, y: group.y, z: group.z)
            fill.run(centre: centre, level: level) { cell, minC2, maxC2 in
                var b = 0
                while b < count && minC2 <= chord2s[first + b] + CellIndex.margin { b += 1 }
                if b == 0 { return false }
                var a = 0
                while a < b && maxC2 <= chord2s[first + a] - CellIndex.margin { a += 1 }
                keys.append(cell)
                packed.append(UInt32(g) << 6 | UInt32(a) << 3 | UInt32(b))
                return true
            }
        }

        // Entries grouped by cell (then by group, for determinism and locality).
        var perm = Array(keys.indices)
        perm.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : packed[$0] < packed[$1] }
        var entries: [UInt32] = []
        entries.reserveCapacity(perm.count)
        var distinct = 0
        var previous: UInt64 = 0
        for p in perm {
            if keys[p] != previous { distinct += 1; previous = keys[p] }
            entries.append(packed[p])
        }
        precondition(entries.count < Int(UInt32.max), "too many cell entries")
        // Capacity: a power of two at most 70% full (linear probing stays short below that).
        var capacity = 8
        while capacity * 7 < distinct * 10 { capacity <<= 1 }
        var slots = [Slot](repeating: Slot(key: 0, start: 0, end: 0), count: capacity)
        let shift = UInt64(64 - capacity.trailingZeroBitCount)
        var e = 0
        while e < perm.count {
            let key = keys[perm[e]]
            var end = e + 1
            while end < perm.count && keys[perm[end]] == key { end += 1 }
            var h = Int(truncatingIfNeeded: (key &* CellIndex.hashMultiplier) >> shift)
            while slots[h].key != 0 { h = (h + 1) & (capacity - 1) }
            slots[h] = Slot(key: key, start: UInt32(e), end: UInt32(end))
            e = end
        }

        self.groups = groups
        self.ids = ids
        self.chord2s = chord2s
        self.radii = radii
        self.entries = entries
        self.slots = slots
        self.tableMask = capacity - 1
        self.hashShift = shift
        self.levelMask = levelMask
    }

    /// The level of a group whose largest radius is `meters`: the deepest level (at most
    /// ``maxIndexLevel``) whose average cell edge is at least `radius / cellsPerRadius`.
    static func level(forRadiusMeters meters: Double, cellsPerRadius: Double) -> Int {
        let angle = Swift.min(meters / Earth.meanRadius, Double.pi)
        return Swift.min(CellIndex.maxIndexLevel,
                         CellMetric.avgEdge.levelForMinValue(angle / cellsPerRadius))
    }
}

/// The flood fill of the cells of one level that meet a cap: from the centre's cell over edge
/// neighbours, visiting each cell once; the caller's visitor decides (from the cell's squared
/// chord range to the centre) whether the cell meets the cap and so whether to spread.
struct CellFloodFill {
    private var visited: Set<UInt64> = []
    private var stack: [(face: Int, i: Int, j: Int)] = []

    /// Calls `visit(key, minC2, maxC2)` for the centre's cell and, while `visit` returns true,
    /// for the unvisited edge neighbours of the cells it accepted.
    mutating func run(centre: UnitVector, level: Int,
                      _ visit: (_ key: UInt64, _ minC2: Double, _ maxC2: Double) -> Bool) {
        visited.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        let shift = CellID.maxLevel - level
        let (face, uv) = S2Projection.xyzToFaceUV(centre)
        let start = (face: face, i: S2Projection.stToIJ(S2Projection.uvToST(uv.u)) >> shift,
                     j: S2Projection.stToIJ(S2Projection.uvToST(uv.v)) >> shift)
        visited.insert(CellIndex.cellKey(level: level, face: start.face, i: start.i, j: start.j))
        stack.append(start)
        let size = 1 << level
        while let cell = stack.popLast() {
            let key = CellIndex.cellKey(level: level, face: cell.face, i: cell.i, j: cell.j)
            let range = CellGeometry.chord2Range(from: centre, face: cell.face, i: cell.i, j: cell.j, level: level)
            guard visit(key, range.min, range.max) else { continue }
            let offsets = [(0, -1), (1, 0), (0, 1), (-1, 0)]
            for (k, (di, dj)) in offsets.enumerated() {
                let ni = cell.i + di, nj = cell.j + dj
                var next: (face: Int, i: Int, j: Int)
                if ni >= 0 && ni < size && nj >= 0 && nj < size {
                    next = (cell.face, ni, nj)
                } else {
                    // Across a cube edge: let CellID reproject (its neighbour order is the same).
                    let id = CellID(face: cell.face, i: cell.i << shift, j: cell.j << shift).parent(level: level)
                    let f = id.edgeNeighbors[k].toFaceIJOrientation()
                    next = (f.face, f.i >> shift, f.j >> shift)
                }
                if visited.insert(CellIndex.cellKey(level: level, face: next.face, i: next.i, j: next.j)).inserted {
                    stack.append(next)
                }
            }
        }
    }
}
