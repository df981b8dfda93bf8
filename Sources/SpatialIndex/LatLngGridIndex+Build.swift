import Geodesy

extension LatLngGridIndex {
    /// Deepest level (24: rows of 1/128 degree, ~870 m). Fences much smaller than a cell still
    /// meet only 1-4 cells; fixes in those cells are candidates.
    public static var maxIndexLevel: Int { LatLngGrid.maxLevel }

    /// Builds the index.
    /// - Parameter cellsPerRadius: see ``cellsPerRadius``; larger values give more, smaller
    ///   cells per fence (fewer candidates, more memory). Default (nil):
    ///   ``defaultCellsPerRadius(fenceCount:)``.
    /// - Precondition: `cellsPerRadius > 0`; fewer than 2^24 groups (24-bit group numbers in
    ///   the entries): about 50M fences in 3-tier groups, 16.7M single fences.
    /// - Complexity: O(n log n) plus the cells of each group's bounding box.
    public init(_ fences: some Sequence<Fence>, cellsPerRadius: Double? = nil) {
        let input = Array(fences)
        let n = input.count
        let cellsPerRadius = cellsPerRadius ?? LatLngGridIndex.defaultCellsPerRadius(fenceCount: n)
        precondition(cellsPerRadius > 0, "cellsPerRadius must be positive")
        self.cellsPerRadius = cellsPerRadius

        // Centre groups: sort by Hilbert key of the centre (locality), then the centre's bits
        // (identical centres become adjacent), then chord2 descending, then input order.
        var order = input.indices.map { (key: HilbertCurve.key(input[$0].centerVector), index: $0) }
        order.sort { l, r in
            if l.key != r.key { return l.key < r.key }
            let a = input[l.index], b = input[r.index]
            let ac = a.centerVector, bc = b.centerVector
            if ac.x.bitPattern != bc.x.bitPattern { return ac.x.bitPattern < bc.x.bitPattern }
            if ac.y.bitPattern != bc.y.bitPattern { return ac.y.bitPattern < bc.y.bitPattern }
            if ac.z.bitPattern != bc.z.bitPattern { return ac.z.bitPattern < bc.z.bitPattern }
            if a.chord2 != b.chord2 { return a.chord2 > b.chord2 }
            return l.index < r.index
        }
        // Groups: runs of identical centres, at most maxGroupSize fences each.
        var groupFirst: [Int] = []  // position in `order` of each group's first fence
        for (position, item) in order.enumerated() {
            if let g = groupFirst.last, position - g < LatLngGridIndex.maxGroupSize,
               LatLngGridIndex.sameCentre(input[order[g].index], input[item.index]) {
                continue
            }
            groupFirst.append(position)
        }
        groupFirst.append(n)
        let groupCount = groupFirst.count - 1
        // Records by level, then Hilbert order: a level's groups are contiguous, so the groups
        // of one cell form long runs even when tiers of different sizes are single fences.
        let groupLevel = (0..<groupCount).map {
            LatLngGridIndex.level(radiusMeters: input[order[groupFirst[$0]].index].radiusMeters, cellsPerRadius: cellsPerRadius)
        }
        let groupOrder = (0..<groupCount).sorted { (groupLevel[$0], $0) < (groupLevel[$1], $1) }
        var records: [UInt64] = []
        records.reserveCapacity(groupCount * LatLngGridIndex.recordWords)
        // Group kinds: one per distinct list of radii (a POI's three tiers are one kind shared
        // by every POI), holding the squared chords (-1 for a missing fence) and the count.
        var kinds: [Double] = [], kindRadii: [Double] = []
        var kindOf: [[UInt64]: UInt64] = [:]
        for g in groupOrder {
            let members = order[groupFirst[g]..<groupFirst[g + 1]].map { input[$0.index] }
            let radiusBits = members.map(\.radiusMeters.bitPattern)
            let kind: UInt64
            if let k = kindOf[radiusBits] {
                kind = k
            } else {
                kind = UInt64(kinds.count / LatLngGridIndex.kindWords)
                kindOf[radiusBits] = kind
                for k in 0..<LatLngGridIndex.maxGroupSize {
                    kinds.append(k < members.count ? members[k].chord2 : -1)
                    kindRadii.append(k < members.count ? members[k].radiusMeters : 0)
                }
                kinds.append(Double(members.count))
            }
            let c = members[0].centerVector
            func id(_ k: Int) -> UInt64 { k < members.count ? UInt64(UInt32(bitPattern: members[k].id)) : 0 }
            records.append(contentsOf: [c.x.bitPattern, c.y.bitPattern, c.z.bitPattern,
                                        id(0) | id(1) << 32, id(2) | kind << 32])
        }
        precondition(groupCount < 1 << 24, "too many fences for 24-bit group numbers")

        // Cells of every group, as ((level, cell key), entry) pairs.
        var keys: [UInt64] = []
        var packed: [UInt32] = []  // group << 8 | interior << 5
        var levelMask: UInt32 = 0
        for (record, g) in groupOrder.enumerated() {
            let first = groupFirst[g], count = groupFirst[g + 1] - first
            let chord2s = (0..<count).map { input[order[first + $0].index].chord2 }
            let largest = input[order[first].index]  // chord2 descending
            let level = groupLevel[g]
            levelMask |= 1 << UInt32(level)
            LatLngGridIndex.forEachCell(near: largest, level: level) { key, range in
                // Listed if its largest cap may meet the cell; `a` of its fences hold all of it.
                guard range.min <= chord2s[0] + LatLngGridIndex.margin else { return }
                var a = 0
                while a < count && range.max <= chord2s[a] - LatLngGridIndex.margin { a += 1 }
                keys.append(UInt64(level) << 32 | UInt64(key))
                // 3: every fence of the group holds the cell.
                let interior = a == count ? 3 : a
                packed.append(UInt32(record) << 8 | UInt32(interior) << 5)
            }
        }

        // Entries grouped by level and cell, then by group; consecutive groups of one cell form
        // a run (at most ``maxRun``) whose interior count is the least of its groups', the last
        // run of each cell flagged.
        var perm = Array(keys.indices)
        perm.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : packed[$0] < packed[$1] }
        var entries: [UInt32] = []
        var cellsPerLevel = [[(key: UInt32, value: UInt32)]](repeating: [], count: LatLngGrid.maxLevel + 1)
        for (e, i) in perm.enumerated() {
            let newCell = e == 0 || keys[perm[e - 1]] != keys[i]
            if newCell {
                if !entries.isEmpty { entries[entries.count - 1] |= 128 }
                let key = keys[i]
                cellsPerLevel[Int(key >> 32)].append((UInt32(truncatingIfNeeded: key), UInt32(entries.count)))
            } else if let last = entries.last, last & 31 < UInt32(LatLngGridIndex.maxRun - 1),
                      (last >> 8) + (last & 31) + 1 == packed[i] >> 8 {
                let interior = Swift.min(last & 0x60, packed[i] & 0x60)
                entries[entries.count - 1] = (last & ~0x60) + 1 | interior
                continue
            }
            entries.append(packed[i])
        }
        if !entries.isEmpty { entries[entries.count - 1] |= 128 }
        var exact: [UInt32] = []  // without the appends' spare capacity
        exact.reserveCapacity(entries.count)
        exact.append(contentsOf: entries)
        entries = exact
        let cells = CellTable(levels: cellsPerLevel)

        self.records = records
        self.kinds = kinds
        self.kindRadii = kindRadii
        self.fenceCount = n
        self.entries = entries
        self.cells = cells
        // Grid constants for the levels in use (the others are never looked at).
        self.grids = (0...LatLngGrid.maxLevel).map { levelMask & (1 << UInt32($0)) != 0 ? LatLngGrid.Level($0) : LatLngGrid.Level(0) }
        self.levelMask = levelMask
    }

    /// Most groups in one entry's run.
    public static let maxRun = 32

    /// From this many fences on, the default ``cellsPerRadius`` is 2.5 instead of 4.
    public static let mediumIndexFences = 10_000
    /// From this many fences on, the default ``cellsPerRadius`` is 2.25.
    public static let largeIndexFences = 100_000

    /// The default ``cellsPerRadius`` for an index of `fenceCount` fences: 4, 2.5 from
    /// ``mediumIndexFences``, 2.25 from ``largeIndexFences`` (see ``cellsPerRadius`` for the
    /// measurements behind them).
    public static func defaultCellsPerRadius(fenceCount: Int) -> Double {
        fenceCount >= largeIndexFences ? 2.25 : fenceCount >= mediumIndexFences ? 2.5 : 4
    }

    /// Whether two fences have bit-identical centres (so one squared chord serves both).
    static func sameCentre(_ a: Fence, _ b: Fence) -> Bool {
        a.centerVector.x.bitPattern == b.centerVector.x.bitPattern
            && a.centerVector.y.bitPattern == b.centerVector.y.bitPattern
            && a.centerVector.z.bitPattern == b.centerVector.z.bitPattern
    }

    /// The level of a group whose largest radius is `meters`: the deepest level (at most
    /// ``maxIndexLevel``) whose rows are at least `radius / cellsPerRadius` (as an angle) tall.
    /// The level depends on the radius only, so fences of equal radius share one level: each
    /// level in use costs every fix one probe.
    static func level(radiusMeters meters: Double, cellsPerRadius: Double) -> Int {
        let degrees = Swift.min(meters / Earth.meanRadius, Double.pi) * (180 / Double.pi)
        // 1/D >= degrees / cellsPerRadius, i.e. D <= cellsPerRadius / degrees.
        let limit = cellsPerRadius / degrees
        var level = 0
        while level < LatLngGridIndex.maxIndexLevel && LatLngGrid.rowsPerDegree(level + 1) <= limit { level += 1 }
        return level
    }

    /// Calls `visit(key, squared-chord range)` for every cell of `level` that the bounding box
    /// of `fence`'s cap, padded by 10 m, meets. The pad exceeds the distance that the 1e-12
    /// squared-chord margin adds to any cap (at most ~6.4 m, at radius 0 and near π R), so
    /// every cell that the padded classification can keep is visited.
    static func forEachCell(near fence: Fence, level: Int,
                            _ visit: (UInt32, (min: Double, max: Double)) -> Void) {
        let box = LatLngBox.bounding(center: fence.center, radius: fence.radiusMeters + 10)
        let firstRow = LatLngGrid.row(latitude: Swift.max(-90, box.south), level: level)
        let lastRow = LatLngGrid.row(latitude: Swift.min(90, box.north), level: level)
        for row in firstRow...lastRow {
            let band = LatLngGrid.band(row: row, level: level)
            let columns = LatLngGrid.columnCount(band: band, level: level)
            let west = LatLngGrid.column(longitude: box.west, band: band, level: level)
            let east = LatLngGrid.column(longitude: box.east, band: band, level: level)
            // A box crossing the antimeridian wraps from its west column to its east column.
            let ranges: [ClosedRange<Int>]
            if box.spansAllLongitudes {
                ranges = [0...(columns - 1)]
            } else if box.crossesAntimeridian {
                ranges = [west...(columns - 1), 0...east]
            } else {
                ranges = [west...Swift.max(west, east)]
            }
            for range in ranges {
                for column in range {
                    let cell = LatLngGrid.bounds(level: level, row: row, column: column)
                    visit(LatLngGrid.key(row: row, column: column),
                          CellGeometry.chord2Range(from: fence.centerVector, center: fence.center, cell: cell))
                }
            }
        }
    }
}

