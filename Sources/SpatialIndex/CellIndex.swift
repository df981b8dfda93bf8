import GeoCells
import Geodesy

/// A fence index over S2 cells: every fence is covered by cells of one level
/// (``RegionCoverer`` with `minLevel == maxLevel`); a fix finds its candidates with one hash
/// probe per level in use, and fences whose *interior* covering holds the fix's cell are
/// reported with no distance test.
///
/// Levels: a base level is chosen from the median radius (see `cellEdgeFraction`); each fence
/// uses the base level, or a coarser one if it is larger than the median would allow. Smaller
/// fences share the base level rather than adding a probe per fix: measured on the 30k-fence
/// workload, one probe at level 11 beat levels {13, 11} by 1.4x although it tests ~10 % more
/// candidates (the probe, a likely cache miss, costs more than a few squared-chord tests).
///
/// Representation:
/// - Fence data (x, y, z, chord2, id, radius) lives once, in the Hilbert order of an embedded
///   ``PackedRTree`` (`tree`), which also answers ``forEachWithin(meters:of:_:)`` and
///   ``nearest(to:k:by:maxDistanceMeters:into:)``.
/// - Every covering cell has a row. `interiorIDs[rowInterior[row] ..< rowInterior[row + 1]]`
///   are the ids of the fences for which the cell is interior (the cell lies inside the fence:
///   accept, no lookup). `rowBoundary[row] ..< rowBoundary[row + 1]` index the fences the cell
///   merely touches (exact test), stored inline: `boundaryData` (x, y, z, chord2) and
///   `boundaryIDs`, so that a lookup reads one contiguous run instead of gathering fence data
///   from all over memory (36 bytes per boundary entry: memory traded for speed; on 300k
///   fences it took the index from the packed tree's speed to 2-4x it).
/// - An open-addressing hash table (`tableKeys`, `tableRows`; linear probing, load <= 1/2,
///   key 0 = empty since no valid cell id is 0) maps a cell id to its row.
/// - `levels`: the distinct cover levels, finest first; a query probes the fix's ancestor
///   at each.
///
/// Exactness: exterior covers are made for the cap grown by 1e-9 (chord units, ~6 mm) and
/// interior covers for the cap shrunk by 1e-9, so rounding in cell assignment (~1e-15) cannot
/// lose a hit or accept a miss: answers equal ``BruteForceIndex``'s.
public struct CellIndex: FenceIndex, Sendable {
    /// The embedded packed tree: fence storage and within/nearest queries.
    @usableFromInline var tree: PackedRTree
    /// Distinct cover levels, finest first.
    @usableFromInline var levels: [Int]
    @usableFromInline var tableKeys: [UInt64]
    @usableFromInline var tableRows: [Int32]
    @usableFromInline var tableMask: Int
    @usableFromInline var rowInterior: [Int32] = []
    @usableFromInline var interiorIDs: [Int32] = []
    @usableFromInline var rowBoundary: [Int32] = []
    @usableFromInline var boundaryIDs: [Int32] = []
    /// x, y, z, chord2 per boundary entry.
    @usableFromInline var boundaryData: [Double] = []

    /// Builds the index.
    /// - Parameters:
    ///   - cellEdgeFraction: a radius r asks for the deepest level whose average cell edge is
    ///     at least `r * cellEdgeFraction`; the base level is that of the median radius, and a
    ///     fence uses the coarser of its own level and the base level. Default 0.5: with
    ///     3-mile median fences the base is level 11 (~4.5 km cells); a 5-mile fence gets ~25
    ///     cells, about a third of them interior. Smaller fractions mean more cells (memory,
    ///     build time) and fewer false candidates.
    ///   - minLevel, maxLevel: bounds on the chosen levels (default 0...16; level 16 cells are
    ///     ~150 m, so tiny fences share one level rather than each adding a probe).
    ///   - levelStep: chosen levels are rounded down (coarser) to `minLevel + k * levelStep`,
    ///     trading false candidates for fewer probes per query.
    /// - Complexity: one cover per fence, O(cells per fence) each; dominated by the coverer.
    public init(_ fences: some Collection<Fence>, cellEdgeFraction: Double = 0.5,
                minLevel: Int = 0, maxLevel: Int = 16, levelStep: Int = 1) {
        precondition(0 <= minLevel && minLevel <= maxLevel && maxLevel <= CellID.maxLevel, "bad levels")
        precondition(levelStep >= 1 && cellEdgeFraction > 0, "bad cover options")
        tree = PackedRTree(fences)
        let n = tree.count
        func ownLevel(_ radiusMeters: Double) -> Int {
            CellMetric.avgEdge.levelForMinValue(radiusMeters / Earth.meanRadius * cellEdgeFraction)
        }
        let sortedRadii = tree.radii.sorted()
        let baseLevel = sortedRadii.isEmpty ? maxLevel : ownLevel(sortedRadii[sortedRadii.count / 2])

        // (cell, part (0 interior, 1 boundary), position) for every cover cell of every fence.
        var rows: [(cell: UInt64, part: Int32, position: Int32)] = []
        var levelUsed = [Bool](repeating: false, count: CellID.maxLevel + 1)
        var scratch = RegionCoverer.Scratch()
        var outer: [CellID] = [], inner: [CellID] = []
        for i in 0..<n {
            let o = 4 * i
            let centre = UnitVector(x: tree.itemData[o], y: tree.itemData[o + 1], z: tree.itemData[o + 2])
            let chord2 = tree.itemData[o + 3]
            var level = Swift.min(ownLevel(tree.radii[i]), baseLevel)
            level = Swift.min(Swift.max(level, minLevel), maxLevel)
            level = minLevel + (level - minLevel) / levelStep * levelStep
            levelUsed[level] = true
            let coverer = try! RegionCoverer(maxCells: Int(Int32.max), minLevel: level, maxLevel: level)
            let chord = chord2.squareRoot()
            let grown = Swift.min(4, (chord + 1e-9) * (chord + 1e-9))
            coverer.covering(of: Cap(center: centre, radius: ChordAngle(length2: grown)),
                             into: &outer, scratch: &scratch)
            if chord > 1e-9 {
                let shrunk = (chord - 1e-9) * (chord - 1e-9)
                coverer.interiorCovering(of: Cap(center: centre, radius: ChordAngle(length2: shrunk)),
                                         into: &inner, scratch: &scratch)
            } else {
                inner.removeAll(keepingCapacity: true)
            }
            // Both lists are sorted by id; interior cells are a subset of the exterior ones.
            var k = 0
            for c in outer {
                while k < inner.count && inner[k] < c { k += 1 }
                let interior = k < inner.count && inner[k] == c
                rows.append((c.rawValue, interior ? 0 : 1, Int32(i)))
            }
        }
        rows.sort { ($0.cell, $0.part, $0.position) < ($1.cell, $1.part, $1.position) }

        var cellIDs: [UInt64] = []
        for (r, row) in rows.enumerated() {
            if r == 0 || row.cell != rows[r - 1].cell {
                cellIDs.append(row.cell)
                rowInterior.append(Int32(interiorIDs.count))
                rowBoundary.append(Int32(boundaryIDs.count))
            }
            let i = Int(row.position)
            if row.part == 0 {
                interiorIDs.append(tree.ids[i])
            } else {
                boundaryIDs.append(tree.ids[i])
                boundaryData.append(contentsOf: tree.itemData[(4 * i)..<(4 * i + 4)])
            }
        }
        rowInterior.append(Int32(interiorIDs.count))
        rowBoundary.append(Int32(boundaryIDs.count))

        var capacity = 16
        while capacity < 2 * cellIDs.count { capacity <<= 1 }
        tableMask = capacity - 1
        tableKeys = [UInt64](repeating: 0, count: capacity)
        tableRows = [Int32](repeating: -1, count: capacity)
        for (row, cell) in cellIDs.enumerated() {
            var h = Self.slot(cell, tableMask)
            while tableKeys[h] != 0 { h = (h + 1) & tableMask }
            tableKeys[h] = cell
            tableRows[h] = Int32(row)
        }
        levels = (0...CellID.maxLevel).reversed().filter { levelUsed[$0] }
    }

    /// Fibonacci hashing of a cell id into a table of `mask + 1` slots.
    @inlinable @inline(__always)
    static func slot(_ cell: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (cell &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Number of fences.
    @inlinable public var count: Int { tree.count }

    /// Number of distinct cover cells.
    public var cellCount: Int { rowInterior.count - 1 }

    /// Number of (cell, fence) entries.
    public var entryCount: Int { interiorIDs.count + boundaryIDs.count }

    /// The cover levels in use (one hash probe each per query), finest first.
    public var coverLevels: [Int] { levels }

    /// Bytes held by the arrays (capacity), including the embedded tree.
    public var memoryBytes: Int {
        tree.memoryBytes + tableKeys.capacity * 8 + tableRows.capacity * 4 + rowInterior.capacity * 4
            + interiorIDs.capacity * 4 + rowBoundary.capacity * 4 + boundaryIDs.capacity * 4
            + boundaryData.capacity * 8 + levels.capacity * 8
    }

    // MARK: Stabbing

    /// Calls `body` with the id of every fence containing `p` (a unit vector), boundary
    /// inclusive: fences of the fix's interior cells with no test, the others after the exact
    /// squared-chord test. Allocation-free.
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        stabSearch(p, &s, body)
    }

    /// As ``forEachContaining(_:_:)``, adding the work done to `stats` (`nodesVisited` counts
    /// hash probes).
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        stabSearch(p, &stats, body)
    }

    @inlinable
    func stabSearch<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        guard !rowBoundary.isEmpty else { return }
        let leaf = CellID(p).rawValue
        let foundCapacity = 64  // hits buffered per batch: 256 bytes of stack
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: foundCapacity) { found in
        levels.withUnsafeBufferPointer { levels in
            tableKeys.withUnsafeBufferPointer { keys in
                tableRows.withUnsafeBufferPointer { tableRows in
                    rowInterior.withUnsafeBufferPointer { rowInterior in
                        rowBoundary.withUnsafeBufferPointer { rowBoundary in
                            interiorIDs.withUnsafeBufferPointer { interiorIDs in
                                boundaryData.withUnsafeBufferPointer { d in
                                    boundaryIDs.withUnsafeBufferPointer { ids in
                                        for level in levels {
                                            let lsb = CellID.lsb(forLevel: level)
                                            let cell = (leaf & (0 &- lsb)) | lsb
                                            stats.node()
                                            var h = Self.slot(cell, tableMask)
                                            var row = -1
                                            while true {
                                                let k = keys[h]
                                                if k == cell { row = Int(tableRows[h]); break }
                                                if k == 0 { break }
                                                h = (h &+ 1) & tableMask
                                            }
                                            guard row >= 0 else { continue }
                                            let start = Int(rowInterior[row]), stop = Int(rowInterior[row &+ 1])
                                            stats.accepted(stop &- start)
                                            for e in start..<stop { body(interiorIDs[e]) }
                                            let mid = Int(rowBoundary[row]), end = Int(rowBoundary[row &+ 1])
                                            // Branch-free exact tests (see PackedRTree), hits
                                            // compacted into `found`, then reported.
                                            var e = mid
                                            while e < end {
                                                let chunk = Swift.min(end &- e, foundCapacity)
                                                var n = 0
                                                for i in e..<(e &+ chunk) {
                                                    let o = i &* 4
                                                    let margin = d[o &+ 3]
                                                        - squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2])
                                                    let inside = Int(truncatingIfNeeded: ~margin.bitPattern >> 63)
                                                    stats.exact(hit: inside != 0)
                                                    found[n] = ids[i]
                                                    n &+= inside
                                                }
                                                for j in 0..<n { body(found[j]) }
                                                e &+= chunk
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        }
    }

    // MARK: Within, nearest (the embedded packed tree)

    /// Calls `body` with the id of every fence whose centre is within `meters` of `p`.
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        tree.forEachWithin(meters: meters, of: p, body)
    }

    /// The `k` nearest fences by `measure`, within `maxDistanceMeters`, in (distance, id) order.
    public func nearest(to p: UnitVector, k: Int, by measure: FenceDistance = .centre,
                        maxDistanceMeters: Double = .infinity, into results: inout [FenceNeighbor]) {
        tree.nearest(to: p, k: k, by: measure, maxDistanceMeters: maxDistanceMeters, into: &results)
    }
}
