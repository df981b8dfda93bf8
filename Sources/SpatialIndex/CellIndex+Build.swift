import Geodesy
import GeoCells

extension CellIndex {
    /// Deepest level used: cell keys of levels up to 14 fit 32 bits, and a level-14 cell
    /// (~600 m wide) is far wider than the ~6 m that the squared-chord margin pads a
    /// zero-radius cap by, so tiny fences still meet 1-4 cells.
    public static let maxIndexLevel = 14

    /// Builds the index.
    /// - Parameter cellsPerRadius: see ``cellsPerRadius``; larger values give more, smaller
    ///   cells per fence (fewer candidates, more memory). Default (nil): 2, or 4 from
    ///   ``largeIndexFences`` fences on.
    /// - Precondition: `cellsPerRadius > 0`; the group records fit 2^25 words (25-bit entry
    ///   offsets): about 10M fences in 3-tier groups, 6.7M single fences.
    /// - Complexity: O(n log n) plus the flood fill of each group's cells.
    public init(_ fences: some Sequence<Fence>, cellsPerRadius: Double? = nil) {
        let input = Array(fences)
        let n = input.count
        let cellsPerRadius = cellsPerRadius ?? CellIndex.defaultCellsPerRadius(fenceCount: n)
        precondition(cellsPerRadius > 0, "cellsPerRadius must be positive")
        self.cellsPerRadius = cellsPerRadius

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
        // Groups: runs of identical centres, at most maxGroupSize fences each.
        var groupFirst: [Int] = []  // position in `order` of each group's first fence
        for (position, item) in order.enumerated() {
            if let g = groupFirst.last, position - g < CellIndex.maxGroupSize,
               CellIndex.sameCentre(input[order[g].index], input[item.index]) {
                continue
            }
            groupFirst.append(position)
        }
        groupFirst.append(n)
        let groupCount = groupFirst.count - 1
        var records: [UInt64] = []
        var groupOffsets: [UInt32] = []
        var radii: [Double] = []
        radii.reserveCapacity(n)
        groupOffsets.reserveCapacity(groupCount + 1)
        records.reserveCapacity((0..<groupCount).reduce(CellIndex.recordPadding) {
            $0 + CellIndex.recordLength(groupFirst[$1 + 1] - groupFirst[$1])
        })
        for g in 0..<groupCount {
            groupOffsets.append(UInt32(truncatingIfNeeded: records.count))
            let members = order[groupFirst[g]..<groupFirst[g + 1]].map { input[$0.index] }
            let c = members[0].centreVector
            records.append(c.x.bitPattern)
            records.append(c.y.bitPattern)
            records.append(c.z.bitPattern)
            var k = 0
            while k < members.count {
                let low = UInt64(UInt32(bitPattern: members[k].id))
                if k + 1 < members.count {
                    records.append(low | UInt64(UInt32(bitPattern: members[k + 1].id)) << 32)
                    records.append(members[k].chord2.bitPattern)
                    records.append(members[k + 1].chord2.bitPattern)
                } else {
                    records.append(low)
                    records.append(members[k].chord2.bitPattern)
                }
                k += 2
            }
            for f in members { radii.append(f.radiusMeters) }
        }
        groupOffsets.append(UInt32(truncatingIfNeeded: records.count))
        // Padding: the query reads the words of fences 0...2 of every record unconditionally.
        records.append(contentsOf: repeatElement(0, count: CellIndex.recordPadding))
        precondition(records.count < 1 << 25, "too many fences for 25-bit record offsets")

        // Cells of every group, as (cell key, entry) pairs.
        var keys: [UInt32] = []
        var packed: [UInt32] = []
        var levelMask: UInt32 = 0
        var fill = CellFloodFill()
        for g in 0..<groupCount {
            let first = groupFirst[g], count = groupFirst[g + 1] - first
            let chord2s = (0..<count).map { input[order[first + $0].index].chord2 }
            let largest = input[order[first].index].radiusMeters  // chord2 descending
            let centre = input[order[first].index].centreVector
            let level = CellIndex.level(radiusMeters: largest, cellsPerRadius: cellsPerRadius)
            levelMask |= 1 << UInt32(level)
            let offset = groupOffsets[g]
            fill.run(centre: centre, level: level) { cell, minC2, maxC2 in
                var b = 0
                while b < count && minC2 <= chord2s[b] + CellIndex.margin { b += 1 }
                if b == 0 { return false }
                var a = 0
                while a < b && maxC2 <= chord2s[a] - CellIndex.margin { a += 1 }
                keys.append(cell)
                packed.append(offset << 7 | UInt32(a) << 3 | UInt32(b))
                return true
            }
        }

        // Entries grouped by cell (then by record offset: determinism and locality), the last
        // of each cell flagged.
        var perm = Array(keys.indices)
        perm.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : packed[$0] < packed[$1] }
        var entries = perm.map { packed[$0] }
        var distinct = 0
        for e in 0..<perm.count where e + 1 == perm.count || keys[perm[e + 1]] != keys[perm[e]] {
            entries[e] |= 64
            distinct += 1
        }
        // Capacity: a power of two at most 70% full (linear probing stays short below that).
        var capacity = 8
        while capacity * 7 < distinct * 10 { capacity <<= 1 }
        self.hashShift = UInt64(64 - capacity.trailingZeroBitCount)
        self.tableMask = capacity - 1
        var slots = [Slot](repeating: Slot(key: 0, start: 0), count: capacity)
        var e = 0
        while e < perm.count {
            let key = keys[perm[e]]
            var h = Int(truncatingIfNeeded: (UInt64(key) &* CellIndex.hashMultiplier) >> hashShift)
            while slots[h].key != 0 { h = (h + 1) & (capacity - 1) }
            slots[h] = Slot(key: key, start: UInt32(e))
            while entries[e] & 64 == 0 { e += 1 }
            e += 1
        }

        self.records = records
        self.groupOffsets = groupOffsets
        self.radii = radii
        self.entries = entries
        self.slots = slots
        self.levelMask = levelMask
    }

    /// From this many fences on, the default ``cellsPerRadius`` is 4 instead of 2 (level 12
    /// instead of 11 for 8 km fences). On the 300k-fence workload it took 52 MB instead of
    /// 22 MB (a memory budget of 125 MB there) for 19% fewer instructions and 19% fewer L1
    /// misses per fix (callgrind, 50k fixes); at 3k it was slower and at 30k it would exceed
    /// the 2.3 MB budget (7 MB).
    public static let largeIndexFences = 100_000

    /// The default ``cellsPerRadius`` for an index of `fenceCount` fences.
    public static func defaultCellsPerRadius(fenceCount: Int) -> Double {
        fenceCount >= largeIndexFences ? 4 : 2
    }

    /// Words after the last record: a 1-fence record is 5 words, and the query reads 8.
    static var recordPadding: Int { 3 }

    /// Whether two fences have bit-identical centres (so one squared chord serves both).
    static func sameCentre(_ a: Fence, _ b: Fence) -> Bool {
        a.centreVector.x.bitPattern == b.centreVector.x.bitPattern
            && a.centreVector.y.bitPattern == b.centreVector.y.bitPattern
            && a.centreVector.z.bitPattern == b.centreVector.z.bitPattern
    }

    /// The level of a group whose largest radius is `meters`: the deepest level (at most
    /// ``maxIndexLevel``) whose cells are at least `radius / cellsPerRadius` wide on average.
    /// A level-L cell is `2 / 2^L` units of u wide, and a unit of u spans π/4 radians on
    /// average (a face spans 90 degrees over 2 units; from ~0.5 near face corners to 1 at
    /// the centre). The level depends on the radius only, so fences of equal radius share
    /// one level: each level in use costs every fix one probe.
    static func level(radiusMeters meters: Double, cellsPerRadius: Double) -> Int {
        let angle = Swift.min(meters / Earth.meanRadius, Double.pi)
        // 2^L <= 2 (π/4) cellsPerRadius / angle.
        let ratio = 0.5 * Double.pi * cellsPerRadius / angle
        guard ratio.isFinite else { return CellIndex.maxIndexLevel }
        guard ratio >= 1 else { return 0 }
        return Swift.min(CellIndex.maxIndexLevel, ratio.exponent)
    }
}

/// The flood fill of the cells of one level that meet a cap: from the centre's cell over edge
/// neighbours, visiting each cell once; the caller's visitor decides (from the cell's squared
/// chord range to the centre) whether the cell meets the cap and so whether to spread.
struct CellFloodFill {
    private var visited: Set<UInt32> = []
    private var stack: [(face: Int, i: Int, j: Int)] = []

    /// Calls `visit(key, minC2, maxC2)` for the centre's cell and, while `visit` returns true,
    /// for the unvisited edge neighbours of the cells it accepted.
    mutating func run(centre: UnitVector, level: Int,
                      _ visit: (_ key: UInt32, _ minC2: Double, _ maxC2: Double) -> Bool) {
        visited.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        let (face, uv) = S2Projection.xyzToFaceUV(centre)
        let start = (face: face, i: CellIndex.cellCoordinate(uv.u, level: level),
                     j: CellIndex.cellCoordinate(uv.v, level: level))
        visited.insert(CellIndex.cellKey(level: level, face: start.face, i: start.i, j: start.j))
        stack.append(start)
        let size = 1 << level
        while let cell = stack.popLast() {
            let key = CellIndex.cellKey(level: level, face: cell.face, i: cell.i, j: cell.j)
            let rect = CellGeometry.rect(i: cell.i, j: cell.j, level: level)
            let range = CellGeometry.chord2Range(from: centre, face: cell.face, rect: rect)
            guard visit(key, range.min, range.max) else { continue }
            for (di, dj) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let ni = cell.i + di, nj = cell.j + dj
                var next = (face: cell.face, i: ni, j: nj)
                if ni < 0 || ni >= size || nj < 0 || nj >= size {
                    // Across a cube edge: the cells of both faces meet edge to edge there (the
                    // edge is cut into 2^level equal steps on both), so the neighbour is the
                    // cell holding a point just beyond the middle of the shared edge.
                    let step = 2 / Double(size)
                    let beyond = 1e-3 * step  // well inside the neighbour, far from its edges
                    let u = ni < 0 ? -1 - beyond : ni >= size ? 1 + beyond : rect.uLo + 0.5 * step
                    let v = nj < 0 ? -1 - beyond : nj >= size ? 1 + beyond : rect.vLo + 0.5 * step
                    let (f2, uv2) = S2Projection.xyzToFaceUV(S2Projection.faceUVToXYZ(cell.face, u, v))
                    next = (f2, CellIndex.cellCoordinate(uv2.u, level: level),
                            CellIndex.cellCoordinate(uv2.v, level: level))
                }
                if visited.insert(CellIndex.cellKey(level: level, face: next.face, i: next.i, j: next.j)).inserted {
                    stack.append(next)
                }
            }
        }
    }
}
