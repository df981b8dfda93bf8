import Geodesy

/// The stabbing index ("which circular fences contain this fix?") over latitude/longitude
/// cells: each fence's cap is classified against the cells of one level, and a fix looks up
/// its own cell in a hash table to get the few fences that can contain it, many already known to.
///
/// Representation:
/// - **Cells.** `LatLngGrid`: rows of `1/D` degree (`D` = 1 ... 128 rows per degree over 25
///   levels), cut into columns about as wide as the row is tall (twice as many degrees of
///   longitude per cell past 60 degrees, four times past 75.5, ...). A fix finds its cell
///   from its degrees with two multiplications, so a fix whose cell lists no fence costs no
///   trigonometry at all (the unit vector for the exact test is computed only when the cell
///   has entries). The cell key is 32 bits.
/// - **Center groups.** Fences with bit-identical centers form a group (the concentric 1/3/5
///   mile tiers of a POI are one group) of at most ``maxGroupSize`` fences (more same-center
///   fences make several groups), sorted by squared chord *descending*, so that their hits for
///   any point are a prefix. One squared chord `d2` per group answers all its fences.
///   `records` holds the groups back to back by level (below), then in Hilbert order of their
///   centers (nearby groups share cache lines), 5 words (40 bytes) each: the center, 3 ids and
///   the group's *kind*.
/// - **Kinds.** Groups with the same radii share one kind (every POI's 1/3/5-mile tiers are
///   one kind): its 3 squared chords, a missing fence having -1 (it never passes, so the query
///   needs no count), the fence count, and the radii. Tiered fences use a handful of radii, so
///   the kinds are a few cache lines; the worst case (every group its own radii) costs 56
///   bytes per group, as much as storing them in the records.
/// - **Classification.** A group gets level L from its largest radius (rows about
///   1/``cellsPerRadius`` of the radius tall). Its cells are those of the bounding box of its
///   largest cap (padded); per cell the squared-chord range `[minC2, maxC2]` from the center
///   to the cell is computed once (`LatLngGridIndex+Geometry.swift`); the group is listed in the
///   cell if its largest cap may meet it (`minC2 <= chord2 + margin`), with `a` = how many of
///   its fences surely contain the whole cell (`maxC2 <= chord2 - margin`: "interior"; 3
///   when all of them do).
/// - **Entries: runs of groups.** A cell's groups, in record order, are mostly consecutive
///   (Hilbert order keeps a neighborhood's groups together): on the 300k-fence workload a
///   cell's ~10 groups form ~2 runs. So an entry is a run: one `UInt32`
///   `first group << 8 | last << 7 | a << 5 | (length - 1)`, at most ``maxRun`` groups, `a`
///   the least of its groups'. A cell's entries are contiguous and the last is flagged, so
///   the table needs only a cell's first entry. A run whose `a` is 3 (every fence of every
///   group holds the cell) is answered without a distance.
/// - **Table.** `CellTable`: per level, cuckoo hashing with two buckets of four slots per
///   key, 90% full, 8 bytes per slot; a lookup compares both buckets' keys with two vector
///   compares and has no branch but "found or not". `levelMask` has bit L set per level in
///   use; a fix does one lookup per level (one in the benchmark: all groups have the same
///   largest radius).
/// - **Build.** Centers ordered by a radix sort of `Hilbert key << 29 | position`, the
///   fences gathered once in that order; (level, cell, group, interior) packed into one
///   `UInt64` per listed cell and radix-sorted; grid-line trigonometry computed once per
///   build (`GridTrigonometry`) and most cells decided by their corners (`CellClassifier`).
///   The result is identical to the plain build kept in the tests (`LatLngGridReferenceBuild`).
///   O(n log n) in the listed cells; docs/INDEXES.md gives build times.
/// - **Query.** Per group of a run: one squared chord, compared with the kind's three; the ids
///   of fences 0...2 are written to a stack buffer at fixed places and the hit count advances
///   once by the number of passing fences (a prefix: the caps are nested), with no branch per
///   fence and no loop (groups of at most 3). A run's records are read in sequence.
///   The buffer is handed to `body` once per fix. The batch query
///   (``forEachContaining(latitudes:longitudes:_:)``, `LatLngGridIndex+Batch.swift`) does the same
///   in passes over blocks of fixes.
///
/// Exactness: results equal ``BruteForceIndex``'s bit for bit (for the degree entry point:
/// for `UnitVector(fastLatitude:longitude:)` of the degrees). A tested fence uses the same
/// expression (`squaredChord(p, center) <= chord2`); an interior fence's cap holds its whole
/// cell with a margin of 1e-12 in squared chord (~1 mm at 1 mile, ~6 m for a 0 m fence), so
/// its test passes too; and every fence whose padded cap meets a cell has an entry there. The
/// margin exceeds by far the rounding of the fix -> cell mapping (`lat + 90` and `lon + 180`,
/// < 2^-45 degrees), of the cell geometry, and of the squared chord itself (~1e-15 near 4).
///
/// Complexity: a query is one table lookup per level in use (one for fences of one radius), then
/// O(k) for the k groups listed in the fix's cell; memory grows with the cells the caps reach.
/// docs/INDEXES.md explains the design against the alternatives measured.
///
/// ``forEachWithin(meters:of:_:)`` and ``nearest(to:k:by:maxDistanceMeters:into:)`` scan the
/// groups (one distance per center); stabbing is what this index is for.
///
/// Statistics: interior fences count as ``QueryStats/acceptedWithoutTest``, every other fence
/// of a listed group as an exact test (one squared chord per group serves them all).
///
/// - Complexity: build O(n log n + cells visited); stabbing O(levels + entries in the fix's
///   cells + hits).
public struct LatLngGridIndex: FenceIndex, Sendable {
    /// Most fences per center group: the query tests three per group, unrolled, with no loop
    /// (more fences on one center make several groups, one squared chord each).
    public static let maxGroupSize = 3
    /// Target ratio of a group's largest radius to the height of its cells' rows: the level is
    /// the deepest whose rows (`1/D` degrees) are at least `radius / cellsPerRadius` tall.
    /// Larger: more, smaller cells, fewer candidates, more memory. The default
    /// (``defaultCellsPerRadius(fenceCount:)``) spends memory where an index is small: 4 below
    /// 10k fences (48 rows per degree for 8 km fences), 2.5 below 100k (32), 2.25 from 100k on
    /// (28). Measured with the batch query on the 3k/30k/300k-fence workloads
    /// (`GEOFENCE_BENCH_CELLS_PER_RADIUS=c geofence-bench stab ...`): at 3k,
    /// 2 ran 25.9 M fixes/s in 0.18 MB, 3 ran 27.1-27.5 M in 0.39 MB, 4 ran 27.7 M in 0.52 MB;
    /// at 30k, 2 ran 8.0 M in 1.1 MB, 2.5 ran 8.4 M in 1.6 MB, 3 ran 8.5-8.6 M in 2.1 MB; at
    /// 300k, 2 ran 1.17 M in 7.7 MB, 2.25 ran 1.26 M in 8.8 MB, 2.5 ran 1.26 M in 10.0 MB (a
    /// tenth of the grid reference's memory is 1.4, 2.3 and 9.9 MB at the three sizes).
    public let cellsPerRadius: Double
    /// Squared-chord margin of the interior and may-intersect classifications (see above).
    @usableFromInline static var margin: Double { 1e-12 }

    /// Group records, back to back, by level then in Hilbert order of their centers, ``recordWords`` (5 words,
    /// 40 bytes) each: x, y, z of the center (Double bits), ids 0 and 1 (0 in the low half),
    /// id 2 | kind << 32. A group of fewer than 3 fences has id 0 in the missing places.
    @usableFromInline var records: [UInt64]
    /// Group kinds, ``kindWords`` each: the squared chords of fences 0...2 (descending; -1 for
    /// a missing fence, which never passes) and the number of fences.
    @usableFromInline var kinds: [Double]
    /// Radii in meters of the fences of each kind, 3 per kind (0 for a missing fence).
    @usableFromInline var kindRadii: [Double]
    /// Number of fences.
    @usableFromInline var fenceCount: Int
    /// Runs: `first group << 8 | last << 7 | interior << 5 | (length - 1)`, grouped by cell;
    /// `last` marks a cell's final run, `interior` (0...3) the fences of every group of the run
    /// that hold the whole cell (3: all of them).
    @usableFromInline var entries: [UInt32]
    /// Cell key -> index of the cell's first entry, one table per level.
    @usableFromInline var cells: CellTable
    /// Per level (0...``maxIndexLevel``): the grid constants of the fix -> cell mapping.
    @usableFromInline var grids: [LatLngGrid.Level]
    /// Bit L set when some group uses level L.
    @usableFromInline var levelMask: UInt32

    /// 2^64 / golden ratio, odd: Fibonacci hashing spreads neighboring cell keys.
    @usableFromInline static var hashMultiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// Number of fences.
    @inlinable public var count: Int { fenceCount }

    /// Bytes of the index's own storage: group records, kinds, entries and the hash table.
    public var memoryBytes: Int {
        records.capacity * 8 + kinds.capacity * 8 + kindRadii.capacity * 8 + entries.capacity * 4
            + cells.memoryBytes
    }

    /// Number of center groups.
    public var groupCount: Int { records.count / LatLngGridIndex.recordWords }
    /// Number of entries (runs of groups in a cell).
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

    /// As ``forEachContaining(latitude:longitude:_:)``, counting candidates in `stats` (interior
    /// fences as accepted without a test).
    @inlinable
    public func forEachContaining(
        latitude: Double, longitude: Double, stats: inout QueryStats,
        _ body: (Int32) -> Void
    ) {
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

    /// As ``forEachContaining(_:_:)``, counting candidates in `stats` (interior fences as accepted
    /// without a test).
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        let ll = p.latLng
        stab(latitude: ll.latitude, longitude: ll.longitude, vector: p, &stats, body)
    }

    /// The stabbing query. `vector` is the point for the exact test, or nil to compute it from
    /// the degrees (``UnitVector/init(fastLatitude:longitude:)``) once a cell is found.
    @inlinable @inline(__always)
    func stab<S: StatsSink>(
        latitude: Double, longitude: Double, vector: UnitVector?, _ stats: inout S,
        _ body: (Int32) -> Void
    ) {
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
                    kinds.withUnsafeBufferPointer { kinds in
                        // Hits are gathered into a small stack buffer with branch-free writes (write the id,
                        // advance by 0 or 1) and handed to `body` in one loop per fix: the number of hits
                        // of each group is data-dependent, and a branch per fence would mispredict often.
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: LatLngGridIndex.hitBufferSize) { buffer in
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
                                    let interior = Int((entry >> 5) & 3)
                                    var r = Int(entry >> 8) &* LatLngGridIndex.recordWords
                                    let end = r &+ (Int(entry & 31) &+ 1) &* LatLngGridIndex.recordWords
                                    repeat {
                                        if n > LatLngGridIndex.hitBufferSize &- LatLngGridIndex.maxGroupSize {
                                            for t in 0..<n { body(buffer[t]) }
                                            n = 0
                                        }
                                        let ids01 = records[r &+ 3]
                                        UnsafeMutableRawPointer(buffer.baseAddress! + n).storeBytes(of: ids01, as: UInt64.self)
                                        buffer[n &+ 2] = Int32(truncatingIfNeeded: records[r &+ 4])
                                        if interior == 3 {
                                            // Every fence of every group of the run holds the cell: no distance.
                                            let present = LatLngGridIndex.presentFences(records, r, kinds)
                                            n &+= present
                                            stats.accepted(present)
                                        } else {
                                            let hits = LatLngGridIndex.groupHits(records, r, p, kinds)
                                            if S.self != NoStats.self {
                                                let present = LatLngGridIndex.presentFences(records, r, kinds)
                                                let accepted = Swift.min(interior, present)
                                                stats.accepted(accepted)
                                                for k in 0..<(present &- accepted) { stats.exact(hit: k < hits &- accepted) }
                                            }
                                            n &+= hits
                                        }
                                        r &+= LatLngGridIndex.recordWords
                                    } while r < end
                                } while entry & 128 == 0
                            } while mask != 0
                            for t in 0..<n { body(buffer[t]) }
                        }
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
    /// of 1 or 2) has squared chord -1 in the group's kind and never passes. `kinds` is
    /// ``kinds``' storage.
    @inlinable @inline(__always)
    static func groupHits(
        _ records: UnsafeBufferPointer<UInt64>, _ r: Int, _ p: UnitVector,
        _ kinds: UnsafeBufferPointer<Double>
    ) -> Int {
        let d2 = squaredChord(
            p.x, p.y, p.z, Double(bitPattern: records[r]),
            Double(bitPattern: records[r &+ 1]), Double(bitPattern: records[r &+ 2]))
        let k = kindOffset(records, r)
        return bit(d2 <= kinds[k]) &+ bit(d2 <= kinds[k &+ 1]) &+ bit(d2 <= kinds[k &+ 2])
    }

    /// Words per group kind: three squared chords and the fence count.
    @inlinable static var kindWords: Int { 4 }

    /// The offset in `kinds` of the kind of the record at word `r`.
    @inlinable @inline(__always)
    static func kindOffset(_ records: UnsafeBufferPointer<UInt64>, _ r: Int) -> Int {
        Int(truncatingIfNeeded: records[r &+ 4] >> 32) &* kindWords
    }

    /// Number of fences in the record at word `r` (1 to 3).
    @inlinable @inline(__always)
    static func presentFences(
        _ records: UnsafeBufferPointer<UInt64>, _ r: Int,
        _ kinds: UnsafeBufferPointer<Double>
    ) -> Int {
        Int(kinds[kindOffset(records, r) &+ 3])
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
        Int32(truncatingIfNeeded: records[r &+ 3 &+ (k >> 1)] >> UInt64((k & 1) &* 32))
    }

    /// Words per group record: x, y, z, ids 0 and 1, chord2 0, chord2 1, id 2, chord2 2.
    @inlinable static var recordWords: Int { 5 }

    /// Calls `body(record offset, fence count, kind)` for every group.
    @inlinable
    func forEachGroup(_ body: (Int, Int, Int) -> Void) {
        records.withUnsafeBufferPointer { records in
            kinds.withUnsafeBufferPointer { kinds in
                for r in Swift.stride(from: 0, to: records.count, by: LatLngGridIndex.recordWords) {
                    body(r, LatLngGridIndex.presentFences(records, r, kinds), LatLngGridIndex.kindOffset(records, r) / LatLngGridIndex.kindWords)
                }
            }
        }
    }

    // MARK: Within and nearest (group scans)

    /// Calls `body` with the id of every fence whose edge is within `meters` of `p`: a scan of the
    /// groups, one distance per center. O(groups).
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        records.withUnsafeBufferPointer { records in
            forEachGroup { r, n, _ in
                let d2 = squaredChord(
                    p.x, p.y, p.z, Double(bitPattern: records[r]),
                    Double(bitPattern: records[r + 1]), Double(bitPattern: records[r + 2]))
                if d2 <= limit {
                    for k in 0..<n { body(LatLngGridIndex.id(records, r, k)) }
                }
            }
        }
    }

    /// The `k` fences nearest to `p` by `measure`, within `maxDistanceMeters`, nearest first (ties
    /// by id), into `results`: a scan of the groups. O(groups log k).
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance,
        maxDistanceMeters: Double, into results: inout [FenceNeighbor]
    ) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        records.withUnsafeBufferPointer { records in
            forEachGroup { r, n, kind in
                let center = meters(
                    forChord2: squaredChord(
                        p.x, p.y, p.z, Double(bitPattern: records[r]), Double(bitPattern: records[r + 1]),
                        Double(bitPattern: records[r + 2])))
                for f in 0..<n {
                    let d = measure == .edge ? center - kindRadii[kind &* LatLngGridIndex.maxGroupSize &+ f] : center
                    if d <= maxDistanceMeters {
                        NearestSelection.offer(
                            FenceNeighbor(id: LatLngGridIndex.id(records, r, f), distanceMeters: d),
                            k: k, into: &results)
                    }
                }
            }
        }
        NearestSelection.finish(&results)
    }
}
