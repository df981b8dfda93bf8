import Geodesy

/// The stabbing index ("which circular fences contain this fix?") over latitude/longitude
/// cells: each fence's cap is classified against the cells of one level, and a fix looks up
/// its own cell in a hash table to get the few fences that can contain it, many already known to.
///
/// Representation:
/// - **Cells.** ``LatLngGrid``: rows of `1/D` degree (`D` = 1 ... 128 rows per degree over 25
///   levels), cut into columns about as wide as the row is tall (twice as many degrees of
///   longitude per cell past 60 degrees, four times past 75.5, ...). A fix finds its cell
///   from its degrees with two multiplications, so a fix whose cell lists no fence costs no
///   trigonometry at all (the unit vector for the exact test is computed only when the cell
///   has entries). The cell key is 32 bits.
/// - **Centre groups.** Fences with bit-identical centres form a group (the concentric 1/3/5
///   mile tiers of a POI are one group) of at most ``maxGroupSize`` fences (more same-centre
///   fences make several groups), sorted by squared chord *descending*, so that their hits for
///   any point are a prefix. One squared chord `d2` per group answers all its fences.
///   `records` holds the groups back to back in Hilbert order of their centres (nearby groups
///   share cache lines), 8 words (64 bytes) each: the centre, 3 ids and 3 squared chords, a
///   missing fence having squared chord -1 (it never passes, so no count is needed).
/// - **Classification.** A group gets level L from its largest radius (rows about
///   1/``cellsPerRadius`` of the radius tall). Its cells are those of the bounding box of its
///   largest cap (padded); per cell the squared-chord range `[minC2, maxC2]` from the centre
///   to the cell is computed once (`CellIndex+Geometry.swift`); then `a` = how many fences
///   (largest first) surely contain the whole cell (`maxC2 <= chord2 - margin`: "interior")
///   and `b` = how many may meet it (`minC2 <= chord2 + margin`).
/// - **Entries.** One `UInt32` per (cell, group) with `b > 0`:
///   `record offset << 7 | last << 6 | a << 3 | b`; a cell's entries are contiguous and the
///   last is flagged, so the table needs only a cell's first entry.
/// - **Table.** ``CellTable``: per level, cuckoo hashing with two buckets of four slots per
///   key, 90% full, 8 bytes per slot; a lookup compares both buckets' keys with two vector
///   compares and has no branch but "found or not". `levelMask` has bit L set per level in
///   use; a fix does one lookup per level (one in the benchmark: all groups have the same
///   largest radius).
/// - **Query.** Per entry: one squared chord; the ids of fences 0...2 are written to a stack
///   buffer at fixed places and the hit count advances once by the number of passing fences
///   (a prefix: the caps are nested), with no branch per fence and no loop (groups of at most 3).
///   The buffer is handed to `body` once per fix. The batch query
///   (``forEachContaining(latitudes:longitudes:_:)``, `CellIndex+Batch.swift`) does the same
///   in passes over blocks of fixes.
///
/// Exactness: results equal ``BruteForceIndex``'s bit for bit (for the degree entry point:
/// for `UnitVector(fastLatitude:longitude:)` of the degrees). A tested fence uses the same
/// expression (`squaredChord(p, centre) <= chord2`); an interior fence's cap holds its whole
/// cell with a margin of 1e-12 in squared chord (~1 mm at 1 mile, ~6 m for a 0 m fence), so
/// its test passes too; and every fence whose padded cap meets a cell has an entry there. The
/// margin exceeds by far the rounding of the fix -> cell mapping (`lat + 90` and `lon + 180`,
/// < 2^-45 degrees), of the cell geometry, and of the squared chord itself (~1e-15 near 4).
///
/// Why this design: one table lookup per fix and no trigonometry for fixes far from fences
/// (the earlier S2-face cells needed the unit vector and a face projection for every fix:
/// 57 ns against 47 ns per fix at 3k fences, 160 against 126 at 30k, same minutes, one call
/// per fix); centre groups cut distance tests and stored geometry by the number of tiers;
/// 4-byte entries and a 90%-full table keep 30k fences in ~2.2 MB. Tried and measured
/// without gain: entries whose fences are all interior taken first without a distance,
/// touching a cell's records before using them, records aligned to cache lines, the batch's
/// unit vectors in a pass of their own (slower), and inlining the batch query (slower).
///
/// ``forEachWithin(meters:of:_:)`` and ``nearest(to:k:by:maxDistanceMeters:into:)`` scan the
/// groups (one distance per centre); stabbing is what this index is for.
///
/// Statistics: interior fences count as ``QueryStats/acceptedWithoutTest``, the other fences
/// of an entry's `b` as exact tests (one squared chord per group serves them all).
///
/// - Complexity: build O(n log n + cells visited); stabbing O(levels + entries in the fix's
///   cells + hits).
public struct CellIndex: FenceIndex, Sendable {
    /// Most fences per centre group: the query tests three per group, unrolled, with no loop
    /// (more fences on one centre make several groups, one squared chord each).
    public static let maxGroupSize = 3
    /// Target ratio of a group's largest radius to the height of its cells' rows: the level is
    /// the deepest whose rows (`1/D` degrees) are at least `radius / cellsPerRadius` tall.
    /// Default 2 (24 rows per degree for 8 km fences), 4 from ``largeIndexFences`` fences on
    /// (48 per degree). Measured with the batch query on the 3k/30k/300k-fence workloads
    /// (`GEOFENCE_BENCH_CELLS_PER_RADIUS=c geofence-bench stab ...`): at 3k, 2 ran 29.7 ns per
    /// fix in 0.27 MB, 2.5 ran 28.1 ns in 0.37 MB; at 30k, 2 ran 107 ns in 2.2 MB, 2.1 (28 rows
    /// per degree) 105 ns in 2.5 MB (a tenth of the grid reference's memory is ~2.3 MB there);
    /// at 300k, 1.5 ran 872 ns in 17 MB, 4 ran 714 ns in 42 MB, 6 ran 674 ns in 90 MB.
    public let cellsPerRadius: Double
    /// Squared-chord margin of the interior and may-intersect classifications (see above).
    @usableFromInline static var margin: Double { 1e-12 }

    /// Group records, back to back, in Hilbert order of their centres, 8 words (64 bytes) each:
    /// x, y, z of the centre (Double bits), ids 0 and 1 (0 in the low half), chord2 0, chord2 1,
    /// id 2, chord2 2 (Double bits, descending). A group of fewer than 3 fences has id 0 and
    /// squared chord -1 (never passes) in the missing places, so the query needs no count.
    @usableFromInline var records: [UInt64]
    /// Radii in metres in record order (group by group, descending chord2): edge distances.
    @usableFromInline var radii: [Double]
    /// `record offset << 7 | last << 6 | interior << 3 | mayIntersect` per (cell, group),
    /// grouped by cell; `last` marks a cell's final entry.
    @usableFromInline var entries: [UInt32]
    /// Cell key -> index of the cell's first entry, one table per level.
    @usableFromInline var cells: CellTable
    /// Per level (0...``maxIndexLevel``): the grid constants of the fix -> cell mapping.
    @usableFromInline var grids: [LatLngGrid.Level]
    /// Bit L set when some group uses level L.
    @usableFromInline var levelMask: UInt32

    /// 2^64 / golden ratio, odd: Fibonacci hashing spreads neighbouring cell keys.
    @usableFromInline static var hashMultiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    @inlinable public var count: Int { radii.count }

    /// Bytes of the index's own storage: group records, radii, entries and the hash table.
    public var memoryBytes: Int {
        records.capacity * 8 + radii.capacity * 8 + entries.capacity * 4
            + cells.memoryBytes
    }

    /// Number of centre groups.
    public var groupCount: Int { records.count / CellIndex.recordWords }
    /// Number of (cell, group) entries.
    public var entryCount: Int { entries.count }
    /// Number of distinct cells in the table.
    public var cellCount: Int { cells.count }
    /// The levels in use, ascending.
    public var levels: [Int] { (0...LatLngGrid.maxLevel).filter { levelMask & (1 << UInt32($0)) != 0 } }

    // MARK: Stabbing

    /// Calls `body` with the id of every fence containing the fix at (`latitude`, `longitude`)
    /// (degrees), boundary inclusive: exactly the fences whose exact test passes for
    /// `UnitVector(fastLatitude: latitude, longitude: longitude)`. The cell is found from the
    /// degrees; the unit vector is computed only when the fix's cell lists a fence. A latitude
    /// outside [-90, 90] or a non-finite coordinate matches nothing.
    @inlinable
    public func forEachContaining(latitude: Double, longitude: Double, _ body: (Int32) -> Void) {
        var s = NoStats()
        stab(latitude: latitude, longitude: longitude, vector: nil, &s, body)
    }

    @inlinable
    public func forEachContaining(latitude: Double, longitude: Double, stats: inout QueryStats,
                                  _ body: (Int32) -> Void) {
        stab(latitude: latitude, longitude: longitude, vector: nil, &stats, body)
    }

    /// The fences containing `p`. The cell lookup needs `p`'s degrees (two `atan2`, ~40 ns):
    /// with degrees at hand, ``forEachContaining(latitude:longitude:_:)`` is faster.
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        let ll = p.latLng
        stab(latitude: ll.latitude, longitude: ll.longitude, vector: p, &s, body)
    }

    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        let ll = p.latLng
        stab(latitude: ll.latitude, longitude: ll.longitude, vector: p, &stats, body)
    }

    /// The stabbing query. `vector` is the point for the exact test, or nil to compute it from
    /// the degrees (``UnitVector/init(fastLatitude:longitude:)``) once a cell is found.
    @inlinable @inline(__always)
    func stab<S: StatsSink>(latitude: Double, longitude: Double, vector: UnitVector?, _ stats: inout S,
                            _ body: (Int32) -> Void) {
        var mask = levelMask
        if mask == 0 { return }
        guard latitude >= -90 && latitude <= 90 else { return }  // also rejects NaN
        var lon = longitude
        if !(lon >= -180 && lon <= 180) {
            guard lon.isFinite else { return }
            lon = lon.remainder(dividingBy: 360)  // [-180, 180]
        }
        cells.words.withUnsafeBufferPointer { words in
        entries.withUnsafeBufferPointer { entries in
        records.withUnsafeBufferPointer { records in
        // Hits are gathered into a small stack buffer with branch-free writes (write the id,
        // advance by 0 or 1) and handed to `body` in one loop per fix: the number of hits
        // of each group is data-dependent, and a branch per fence would mispredict often.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: CellIndex.hitBufferSize) { buffer in
            var n = 0
            var point = vector
            repeat {
                let level = mask.trailingZeroBitCount
                mask &= mask &- 1
                let key = grids[level].key(latitude: latitude, longitude: lon)
                let (found, start) = cells.lookup(key, level: level, words)
                if !found { continue }
                if point == nil { point = UnitVector(fastLatitude: latitude, longitude: longitude) }
                let p = point.unsafelyUnwrapped
                var e = Int(start)
                var entry: UInt32
                repeat {
                    entry = entries[e]
                    e &+= 1
                    if n > CellIndex.hitBufferSize &- CellIndex.maxGroupSize {
                        for t in 0..<n { body(buffer[t]) }
                        n = 0
                    }
                    let r = Int(entry >> 7)
                    let interior = Int((entry >> 3) & 7)
                    let candidates = Int(entry & 7)
                    let before = n
                    let ids01 = records[r &+ 3]
                    UnsafeMutableRawPointer(buffer.baseAddress! + n).storeBytes(of: ids01, as: UInt64.self)
                    buffer[n &+ 2] = Int32(truncatingIfNeeded: records[r &+ 6])
                    let hits = CellIndex.groupHits(records, r, p)
                    n &+= hits
                    // Interior fences (the first `interior`) count as accepted without a test.
                    let tested = n &- before &- interior
                    stats.accepted(interior)
                    for k in 0..<(candidates &- interior) { stats.exact(hit: k < tested) }
                } while entry & 64 == 0
            } while mask != 0
            for t in 0..<n { body(buffer[t]) }
        }
        }
        }
        }
    }

    /// How many fences of the group record at word `r` contain `p`.
    ///
    /// A group's caps are nested (chord2 descending), so its hits are a prefix: the count of
    /// passing fences is its length. Callers write the ids of fences 0...2 at fixed places
    /// and advance their count once by it, with no branch per fence. A missing fence (groups
    /// of 1 or 2) has squared chord -1 and never passes; a fence that cannot meet the fix's
    /// cell (beyond the entry's `b`) fails too; interior fences pass (their cap holds the cell
    /// with a margin).
    @inlinable @inline(__always)
    static func groupHits(_ records: UnsafeBufferPointer<UInt64>, _ r: Int, _ p: UnitVector) -> Int {
        let d2 = squaredChord(p.x, p.y, p.z, Double(bitPattern: records[r]),
                              Double(bitPattern: records[r &+ 1]), Double(bitPattern: records[r &+ 2]))
        return bit(d2 <= Double(bitPattern: records[r &+ 4])) &+ bit(d2 <= Double(bitPattern: records[r &+ 5]))
            &+ bit(d2 <= Double(bitPattern: records[r &+ 7]))
    }

    /// Ids gathered before `body` is called: 64 (256 bytes of stack), flushed when fewer
    /// than ``maxGroupSize`` places are left.
    @usableFromInline static var hitBufferSize: Int { 64 }

    /// 1 for true, 0 for false, without a branch.
    @inlinable @inline(__always)
    static func bit(_ b: Bool) -> Int { b ? 1 : 0 }

    /// The id of fence `k` of the record at word `r`.
    @inlinable @inline(__always)
    static func id(_ records: UnsafeBufferPointer<UInt64>, _ r: Int, _ k: Int) -> Int32 {
        Int32(truncatingIfNeeded: records[r &+ 3 &+ (k >> 1) &* 3] >> UInt64((k & 1) &* 32))
    }

    /// Words per group record: x, y, z, ids 0 and 1, chord2 0, chord2 1, id 2, chord2 2.
    @inlinable static var recordWords: Int { 8 }

    /// Calls `body(record offset, fence count, first fence ordinal)` for every group.
    @inlinable
    func forEachGroup(_ body: (Int, Int, Int) -> Void) {
        var ordinal = 0
        records.withUnsafeBufferPointer { records in
            for r in Swift.stride(from: 0, to: records.count, by: CellIndex.recordWords) {
                // Missing fences have squared chord -1; real ones are >= 0.
                let n = 1 + CellIndex.bit(Double(bitPattern: records[r + 5]) >= 0)
                    + CellIndex.bit(Double(bitPattern: records[r + 7]) >= 0)
                body(r, n, ordinal)
                ordinal += n
            }
        }
    }

    // MARK: Within and nearest (group scans)

    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        records.withUnsafeBufferPointer { records in
            forEachGroup { r, n, _ in
                let d2 = squaredChord(p.x, p.y, p.z, Double(bitPattern: records[r]),
                                      Double(bitPattern: records[r + 1]), Double(bitPattern: records[r + 2]))
                if d2 <= limit {
                    for k in 0..<n { body(CellIndex.id(records, r, k)) }
                }
            }
        }
    }

    public func nearest(to p: UnitVector, k: Int, by measure: FenceDistance,
                        maxDistanceMeters: Double, into results: inout [FenceNeighbor]) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        records.withUnsafeBufferPointer { records in
            forEachGroup { r, n, ordinal in
                let centre = meters(forChord2: squaredChord(
                    p.x, p.y, p.z, Double(bitPattern: records[r]), Double(bitPattern: records[r + 1]),
                    Double(bitPattern: records[r + 2])))
                for f in 0..<n {
                    let d = measure == .edge ? centre - radii[ordinal + f] : centre
                    if d <= maxDistanceMeters {
                        NearestSelection.offer(FenceNeighbor(id: CellIndex.id(records, r, f), distanceMeters: d),
                                               k: k, into: &results)
                    }
                }
            }
        }
        NearestSelection.finish(&results)
    }
}
