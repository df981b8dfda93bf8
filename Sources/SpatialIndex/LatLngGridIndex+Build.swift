import Geodesy

extension LatLngGridIndex {
    /// Deepest level (24: rows of 1/128 degree, ~870 m). Fences much smaller than a cell still
    /// meet only 1-4 cells; fixes in those cells are candidates.
    public static var maxIndexLevel: Int { LatLngGrid.maxLevel }

    /// Builds the index.
    /// - Parameters:
    ///   - fences: the fences to index (any order; ids need not be unique).
    ///   - cellsPerRadius: see ``cellsPerRadius``; larger values give more, smaller cells per
    ///     fence (fewer candidates, more memory). Default (nil):
    ///     ``defaultCellsPerRadius(fenceCount:)``.
    /// - Throws: ``IndexCapacityError`` when `cellsPerRadius` is not a finite number > 0, for
    ///   2^29 fences or more (29-bit positions in the sort keys), or for 2^24 groups or more
    ///   (24-bit group numbers in the entries): about 50M fences in 3-tier groups, 16.7M single
    ///   fences.
    /// - Complexity: O(n) radix sorts of 64-bit keys plus the cells of each group's bounding
    ///   box; trigonometry once per row and per column of a group's box, not per cell.
    public init(_ fences: some Sequence<Fence>, cellsPerRadius: Double? = nil) throws(IndexCapacityError) {
        let input = Array(fences)
        let n = input.count
        let cellsPerRadius = cellsPerRadius ?? LatLngGridIndex.defaultCellsPerRadius(fenceCount: n)
        guard cellsPerRadius.isFinite, cellsPerRadius > 0 else { throw .invalidCellsPerRadius(cellsPerRadius) }
        guard n < 1 << 29 else { throw .tooManyFences(count: n, limit: 1 << 29) }
        self.cellsPerRadius = cellsPerRadius

        let sorted = LatLngGridIndex.centerSorted(input)
        // Groups: runs of identical centers, at most maxGroupSize fences each.
        var groupFirst: [Int] = []  // position in `order` of each group's first fence
        groupFirst.reserveCapacity(n + 1)
        for position in 0..<n {
            if let g = groupFirst.last, position - g < LatLngGridIndex.maxGroupSize,
                LatLngGridIndex.sameCenter(sorted[g], sorted[position])
            {
                continue
            }
            groupFirst.append(position)
        }
        groupFirst.append(n)
        let groupCount = groupFirst.count - 1
        guard groupCount < 1 << 24 else { throw .tooManyGroups(count: groupCount, limit: 1 << 24) }

        // Records by level, then Hilbert order: a level's groups are contiguous, so the groups
        // of one cell form long runs even when tiers of different sizes are single fences.
        // A stable counting sort by level (equal radii share a level: one level computation
        // per distinct radius in a row of groups).
        var groupLevel = [UInt8](repeating: 0, count: groupCount)
        var levelCounts = [Int](repeating: 0, count: LatLngGrid.maxLevel + 2)
        var lastRadius = Double.nan, lastLevel = 0
        for g in 0..<groupCount {
            let radius = sorted[groupFirst[g]].radiusMeters
            if radius.bitPattern != lastRadius.bitPattern {
                lastRadius = radius
                lastLevel = LatLngGridIndex.level(radiusMeters: radius, cellsPerRadius: cellsPerRadius)
            }
            groupLevel[g] = UInt8(lastLevel)
            levelCounts[lastLevel + 1] += 1
        }
        for l in 1..<levelCounts.count { levelCounts[l] += levelCounts[l - 1] }
        var groupOrder = [Int](repeating: 0, count: groupCount)
        for g in 0..<groupCount {
            let l = Int(groupLevel[g])
            groupOrder[levelCounts[l]] = g
            levelCounts[l] += 1
        }

        // Group kinds: one per distinct list of radii (a POI's three tiers are one kind shared
        // by every POI), holding the squared chords (-1 for a missing fence) and the count.
        var records: [UInt64] = []
        records.reserveCapacity(groupCount * LatLngGridIndex.recordWords)
        var kinds: [Double] = [], kindRadii: [Double] = []
        var kindOf: [KindKey: UInt64] = [:]
        var lastKey = KindKey(count: 0, radii: (0, 0, 0)), lastKind: UInt64 = 0
        for (record, g) in groupOrder.enumerated() {
            let first = groupFirst[g], count = groupFirst[g + 1] - first
            func member(_ k: Int) -> Fence { sorted[first + k] }
            func bits(_ k: Int) -> UInt64 { k < count ? member(k).radiusMeters.bitPattern : 0 }
            let key = KindKey(count: count, radii: (bits(0), bits(1), bits(2)))
            let kind: UInt64
            if record > 0 && key == lastKey {
                kind = lastKind
            } else if let k = kindOf[key] {
                kind = k
            } else {
                kind = UInt64(kinds.count / LatLngGridIndex.kindWords)
                kindOf[key] = kind
                for k in 0..<LatLngGridIndex.maxGroupSize {
                    kinds.append(k < count ? member(k).chord2 : -1)
                    kindRadii.append(k < count ? member(k).radiusMeters : 0)
                }
                kinds.append(Double(count))
            }
            lastKey = key
            lastKind = kind
            let c = member(0).centerVector
            func id(_ k: Int) -> UInt64 { k < count ? UInt64(UInt32(bitPattern: member(k).id)) : 0 }
            records.append(c.x.bitPattern)
            records.append(c.y.bitPattern)
            records.append(c.z.bitPattern)
            records.append(id(0) | id(1) << 32)
            records.append(id(2) | kind << 32)
        }

        // Cells of every group, as `level << 57 | cell key (31 bits) << 26 | record << 2 |
        // interior` (see ``EntryKey``), generated in record order.
        var keys: [UInt64] = []
        keys.reserveCapacity(groupCount * 16)
        var levelMask: UInt32 = 0
        var classifier = CellClassifier()
        for (record, g) in groupOrder.enumerated() {
            let first = groupFirst[g], count = groupFirst[g + 1] - first
            var chord2s = (-1.0, -1.0, -1.0)  // descending; a missing fence never holds a cell
            chord2s.0 = sorted[first].chord2
            if count > 1 { chord2s.1 = sorted[first + 1].chord2 }
            if count > 2 { chord2s.2 = sorted[first + 2].chord2 }
            let level = Int(groupLevel[g])
            levelMask |= 1 << UInt32(level)
            classifier.appendCells(
                of: sorted[first], level: level, chord2s: chord2s, count: count,
                record: record, into: &keys)
        }

        // Entries grouped by level and cell, then by group: the keys are generated in record
        // order, so a stable sort by the level and cell bits alone orders them fully.
        RadixSort.sort(&keys, bits: EntryKey.cellShift..<EntryKey.levelShift + 5)
        // Consecutive groups of one cell form a run (at most ``maxRun``) whose interior count
        // is the least of its groups', the last run of each cell flagged.
        var entries: [UInt32] = []
        entries.reserveCapacity(keys.count)
        var cellsPerLevel = [[(key: UInt32, value: UInt32)]](repeating: [], count: LatLngGrid.maxLevel + 1)
        var previousCell = UInt64.max
        for key in keys {
            let cell = key >> EntryKey.cellShift
            let packed = EntryKey.packedEntry(key)
            if cell != previousCell {
                previousCell = cell
                if !entries.isEmpty { entries[entries.count - 1] |= 128 }
                cellsPerLevel[Int(key >> EntryKey.levelShift)].append(
                    (EntryKey.cellKey(key), UInt32(entries.count)))
            } else if let last = entries.last, last & 31 < UInt32(LatLngGridIndex.maxRun - 1),
                (last >> 8) + (last & 31) + 1 == packed >> 8
            {
                let interior = Swift.min(last & 0x60, packed & 0x60)
                entries[entries.count - 1] = (last & ~0x60) + 1 | interior
                continue
            }
            entries.append(packed)
        }
        if !entries.isEmpty { entries[entries.count - 1] |= 128 }
        var exact: [UInt32] = []  // without the spare capacity
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

    /// `input` in center order: the Hilbert key of the center (locality), then the center's
    /// bits (identical centers become adjacent), then squared chord descending, then input
    /// order. A radix sort of `hilbert << 29 | position` does all but the tie-breaks, which
    /// only fences with equal Hilbert keys (mostly one POI's tiers) need. The fences are
    /// gathered once, so the build's later passes read them in order (a random read per fence
    /// and pass was most of the build's time at 300k fences).
    static func centerSorted(_ input: [Fence]) -> [Fence] {
        var keys = [UInt64](repeating: 0, count: input.count)
        for i in input.indices { keys[i] = HilbertCurve.key(input[i].centerVector) << 29 | UInt64(i) }
        RadixSort.sort(&keys, bits: 29..<64)
        let positionMask: UInt64 = 1 << 29 - 1
        var sorted = keys.map { input[Int(truncatingIfNeeded: $0 & positionMask)] }
        // Runs of equal Hilbert keys, in input order so far: insertion sort by the tie-breaks.
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] >> 29 == keys[start] >> 29 { end += 1 }
            if end - start > 1 {
                for i in (start + 1)..<end {
                    let item = sorted[i], itemKey = keys[i]
                    var j = i
                    while j > start && centerTieOrder(item, itemKey & positionMask, sorted[j - 1], keys[j - 1] & positionMask) {
                        sorted[j] = sorted[j - 1]
                        keys[j] = keys[j - 1]
                        j -= 1
                    }
                    sorted[j] = item
                    keys[j] = itemKey
                }
            }
            start = end
        }
        return sorted
    }

    /// Whether fence `a` (input position `i`) goes before fence `b` (position `j`) among
    /// fences with equal Hilbert keys: center bits (x, y, z) ascending, then squared chord
    /// descending, then position.
    @inline(__always)
    static func centerTieOrder(_ a: Fence, _ i: UInt64, _ b: Fence, _ j: UInt64) -> Bool {
        let ac = a.centerVector, bc = b.centerVector
        if ac.x.bitPattern != bc.x.bitPattern { return ac.x.bitPattern < bc.x.bitPattern }
        if ac.y.bitPattern != bc.y.bitPattern { return ac.y.bitPattern < bc.y.bitPattern }
        if ac.z.bitPattern != bc.z.bitPattern { return ac.z.bitPattern < bc.z.bitPattern }
        if a.chord2 != b.chord2 { return a.chord2 > b.chord2 }
        return i < j
    }

    /// The identity of a group kind: its fence count and radii (bits; 0 for a missing fence).
    struct KindKey: Hashable {
        var count: Int
        var radii: (UInt64, UInt64, UInt64)

        static func == (a: KindKey, b: KindKey) -> Bool {
            a.count == b.count && a.radii.0 == b.radii.0 && a.radii.1 == b.radii.1 && a.radii.2 == b.radii.2
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            hasher.combine(radii.0)
            hasher.combine(radii.1)
            hasher.combine(radii.2)
        }
    }

    /// One (cell, group) pair of the build as a sortable `UInt64`: `level << 57 | (cell key &
    /// 0x7fff_ffff) << 26 | record << 2 | interior` (level < 32, cell keys always have bit 31
    /// set, record < 2^24, interior 0...3). Ascending keys are the entries' order: by level,
    /// cell, then record.
    enum EntryKey {
        static var levelShift: Int { 57 }
        static var cellShift: Int { 26 }

        @inline(__always)
        static func make(level: Int, cell: UInt32, record: Int, interior: Int) -> UInt64 {
            UInt64(level) << 57 | UInt64(cell & 0x7fff_ffff) << 26 | UInt64(record) << 2 | UInt64(interior)
        }

        /// The cell key (bit 31 set again).
        @inline(__always)
        static func cellKey(_ key: UInt64) -> UInt32 {
            1 << 31 | UInt32(truncatingIfNeeded: key >> 26) & 0x7fff_ffff
        }

        /// The one-group entry: `record << 8 | interior << 5`.
        @inline(__always)
        static func packedEntry(_ key: UInt64) -> UInt32 {
            UInt32(truncatingIfNeeded: (key >> 2) & 0xff_ffff) << 8 | UInt32(truncatingIfNeeded: key & 3) << 5
        }
    }

    /// From this many fences on, the default ``cellsPerRadius`` is 2.5 instead of 4.
    public static let mediumIndexFences = 10_000
    /// From this many fences on, the default ``cellsPerRadius`` is 2.25.
    public static let largeIndexFences = 100_000

    /// Most groups in one entry's run.
    public static let maxRun = 32

    /// The default ``cellsPerRadius`` for an index of `fenceCount` fences: 4, 2.5 from
    /// ``mediumIndexFences``, 2.25 from ``largeIndexFences`` (see ``cellsPerRadius`` for the
    /// measurements behind them).
    public static func defaultCellsPerRadius(fenceCount: Int) -> Double {
        fenceCount >= largeIndexFences ? 2.25 : fenceCount >= mediumIndexFences ? 2.5 : 4
    }

    /// Whether two fences have bit-identical centers (so one squared chord serves both).
    static func sameCenter(_ a: Fence, _ b: Fence) -> Bool {
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
}
