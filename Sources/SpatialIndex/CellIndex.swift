import Geodesy
import GeoCells

/// The stabbing index ("which circular fences contain this fix?") over cube-face cells: each
/// fence's cap is classified against the cells of one level, and a fix looks up its own cell
/// in a hash table to get the few fences that can contain it, many already known to.
///
/// Representation:
/// - **Cells.** S2's cube faces (`S2Projection.xyzToFaceUV`: face, gnomonic u and v in
///   [-1, 1]) cut into `2^L x 2^L` equal steps of (u, v): S2's cell layout with the *linear*
///   u -> s mapping (S2's `S2_LINEAR_PROJECTION` option) instead of the quadratic one, so a
///   fix's cell costs two divisions and no square root (with the quadratic form the query
///   measured 61 ns per fix at 3k fences, level 11, against 51 ns linear). Cell edges are still great-circle arcs; cells near face corners are
///   up to ~2-3 times narrower than at face centres. Cell (face, i, j) of level L has key
///   `1 << (2L + 3) | face << 2L | i << L | j` (a marker bit keeps levels apart; 0 = empty
///   slot); L <= ``maxIndexLevel`` (14), so keys fit 32 bits.
/// - **Centre groups.** Fences with bit-identical centres form a group (the concentric 1/3/5
///   mile tiers of a POI are one group) of at most ``maxGroupSize`` fences (more same-centre
///   fences make several groups), sorted by squared chord *descending*. One squared chord
///   `d2` per group answers all its fences: fence k contains p iff `d2 <= chord2[k]`.
///   `records` holds the groups back to back in Hilbert order of their centres (nearby groups
///   share cache lines): x, y, z, then per pair of fences one word with both ids and the two
///   squared chords (Double bits); 8 words (one cache line) for a 3-tier POI.
/// - **Classification.** A group gets level L from its largest radius (cells about
///   1/``cellsPerRadius`` of the radius wide on average: ~20 cells per 3-tier group in the
///   benchmark). Its cells are found by a flood fill from the centre's cell over edge
///   neighbours while the largest cap (padded) meets the cell. Per cell the squared-chord
///   range `[minC2, maxC2]` from the centre to the cell is computed once
///   (`CellIndex+Geometry.swift`); then `a` = how many fences (largest first) surely contain
///   the whole cell (`maxC2 <= chord2 - margin`: "interior", no test needed) and `b` = how
///   many may meet it (`minC2 <= chord2 + margin`).
/// - **Entries.** One `UInt32` per (cell, group) with `b > 0`:
///   `record offset << 7 | last << 6 | a << 3 | b`; a cell's entries are contiguous and the
///   last is flagged, so a slot needs no end.
/// - **Table.** Open addressing, power-of-two capacity at most 70% full, Fibonacci hash,
///   linear probing; a slot is (32-bit cell key, first entry): 8 bytes. `levelMask` has bit L
///   set per level in use; a fix does one probe per level (one in the benchmark: all groups
///   have the same largest radius).
/// - **Query.** Per entry: one squared chord, then fences 0...2 unrolled and branch-free
///   (hit = `k < b && (k < a || d2 <= chord2[k])`; the id is written to a stack buffer and
///   the count advances by 0 or 1), a loop only for groups of more than 3. The buffer is
///   handed to `body` once per fix. Per-fence branches mispredicted often and cost ~35% more.
///
/// Exactness: results equal ``BruteForceIndex``'s bit for bit. A tested fence uses the same
/// expression (`squaredChord(p, centre) <= chord2`); an interior fence's cap holds its whole
/// cell with a margin of 1e-12 in squared chord (~1 mm at 1 mile, ~6 m for a 0 m fence); and
/// every fence whose padded cap meets a cell has an entry there. The margin exceeds by ~1000x
/// the rounding of the fix -> cell mapping (~2e-16 in u), of the cell geometry, and of the
/// squared chord itself (~1e-15 near chord2 = 4).
///
/// Why this design: one hash probe per fix, no Hilbert-curve walk (S2 `CellID(point)` costs
/// ~33 ns, a sorted cell-range table a binary search); centre groups cut distance tests and
/// stored geometry by the number of tiers; 4-byte entries and 8-byte slots keep 30k fences
/// in ~2.3 MB. Finer cells (cellsPerRadius 4, level 12) tripled memory and were not faster
/// at 3k/30k (fewer candidates, but more cache misses).
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
    /// Most fences per centre group: `a` and `b` are 3-bit fields of an entry.
    public static let maxGroupSize = 7
    /// Target ratio of a group's largest radius to the width of its cells: the level is the
    /// deepest whose cells are on average at least `radius / cellsPerRadius` wide. Default 2
    /// (level 11 for 8 km fences), 4 from ``largeIndexFences`` fences on. Measured on the 3k/30k/300k workloads: 1.5 (level 10)
    /// takes 0.66x the memory and is 8-15% slower; 4 (level 12) takes 2.4-3x the memory, is
    /// slower at 3k and only 6% faster at 300k.
    public let cellsPerRadius: Double
    /// Squared-chord margin of the interior and may-intersect classifications (see above).
    @usableFromInline static var margin: Double { 1e-12 }

    /// A hash slot: a cell key (0 = empty) and the index of the cell's first entry.
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var key: UInt32
        @usableFromInline var start: UInt32

        @inlinable
        init(key: UInt32, start: UInt32) {
            self.key = key
            self.start = start
        }
    }

    /// Group records, back to back, in Hilbert order of their centres. A group of n fences
    /// takes `3 + 3 * (n / 2) + 2 * (n % 2)` words: x, y, z of the centre (Double bits), then
    /// per pair of fences (k, k + 1) a word with both ids (k in the low half) and their two
    /// squared chords (Double bits), descending; an odd last fence has its id word and its
    /// squared chord. So fence k's words do not depend on n: the query needs no count.
    @usableFromInline var records: [UInt64]
    /// First word of each group's record, plus the end: `groupCount + 1` values.
    @usableFromInline var groupOffsets: [UInt32]
    /// Radii in metres in record order (group by group, descending chord2): edge distances.
    @usableFromInline var radii: [Double]
    /// `record offset << 7 | last << 6 | interior << 3 | mayIntersect` per (cell, group),
    /// grouped by cell; `last` marks a cell's final entry.
    @usableFromInline var entries: [UInt32]
    /// The hash table, `tableMask + 1` slots.
    @usableFromInline var slots: [Slot]
    @usableFromInline var tableMask: Int
    /// `64 - log2(capacity)`: the hash is the top bits of `key &* hashMultiplier`.
    @usableFromInline var hashShift: UInt64
    /// Bit L set when some group uses level L.
    @usableFromInline var levelMask: UInt32

    /// 2^64 / golden ratio, odd: Fibonacci hashing spreads neighbouring cell keys.
    @usableFromInline static var hashMultiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    @inlinable public var count: Int { radii.count }

    /// Bytes of the index's own storage: group records, radii, entries and the hash table.
    public var memoryBytes: Int {
        records.capacity * 8 + groupOffsets.capacity * 4 + radii.capacity * 8 + entries.capacity * 4
            + slots.capacity * MemoryLayout<Slot>.stride
    }

    /// Number of centre groups.
    public var groupCount: Int { groupOffsets.count - 1 }
    /// Number of (cell, group) entries.
    public var entryCount: Int { entries.count }
    /// Number of distinct cells in the table.
    public var cellCount: Int { slots.reduce(0) { $0 + ($1.key != 0 ? 1 : 0) } }
    /// The levels in use, ascending.
    public var levels: [Int] { (0...CellID.maxLevel).filter { levelMask & (1 << UInt32($0)) != 0 } }

    /// The column (or row) of coordinate `u` in [-1, 1] on a face divided into `2^level`
    /// equal steps: `floor((u + 1) 2^(level - 1))` clamped to `[0, 2^level - 1]` (NaN -> 0).
    /// Exact: scaling by a power of two and adding 1 to a number in [-1, 1] round only in the
    /// last bit, which moves a point at most ~1e-16 across a cell edge (inside the margin).
    @inlinable @inline(__always)
    static func cellCoordinate(_ u: Double, level: Int) -> Int {
        let cells = Double(sign: .plus, exponent: level, significand: 1)
        let t = (u + 1) * (0.5 * cells)
        let low = t >= 0 ? t : 0  // also maps NaN to 0
        let clamped = low < cells - 1 ? low : cells - 1
        return Int(clamped)
    }

    /// The key of the level-`level` cell holding face coordinates `uv` on `face`.
    @inlinable @inline(__always)
    static func cellKey(level: Int, face: Int, uv: UVPoint) -> UInt32 {
        cellKey(level: level, face: face, i: cellCoordinate(uv.u, level: level),
                j: cellCoordinate(uv.v, level: level))
    }

    /// The cell key of level-`level` cell (face, i, j) (i, j at that level), level <= 14.
    @inlinable @inline(__always)
    static func cellKey(level: Int, face: Int, i: Int, j: Int) -> UInt32 {
        let l = UInt32(truncatingIfNeeded: level)
        return (1 << (2 &* l &+ 3)) | UInt32(truncatingIfNeeded: face) << (2 &* l)
            | UInt32(truncatingIfNeeded: i) << l | UInt32(truncatingIfNeeded: j)
    }

    /// The home slot of `key`.
    @inlinable @inline(__always)
    func home(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* CellIndex.hashMultiplier) >> hashShift)
    }

    // MARK: Stabbing

    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        stab(p, &s, body)
    }

    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        stab(p, &stats, body)
    }

    @inlinable @inline(__always)
    func stab<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        var mask = levelMask
        if mask == 0 { return }
        let (face, uv) = S2Projection.xyzToFaceUV(p)
        slots.withUnsafeBufferPointer { slots in
        entries.withUnsafeBufferPointer { entries in
        records.withUnsafeBufferPointer { records in
        // Hits are gathered into a small stack buffer with branch-free writes (write the id,
        // advance by 0 or 1) and handed to `body` in one loop per fix: the number of hits
        // of each group is data-dependent, and a branch per fence would mispredict often.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: CellIndex.hitBufferSize) { buffer in
            var n = 0
            repeat {
                let level = mask.trailingZeroBitCount
                mask &= mask &- 1
                let key = CellIndex.cellKey(level: level, face: face, uv: uv)
                var h = home(key)
                var slot = slots[h]
                while slot.key != key {
                    if slot.key == 0 { break }
                    h = (h &+ 1) & tableMask
                    slot = slots[h]
                }
                if slot.key != key { continue }
                var e = Int(slot.start)
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
                    let d2 = squaredChord(p.x, p.y, p.z, Double(bitPattern: records[r]),
                                          Double(bitPattern: records[r &+ 1]), Double(bitPattern: records[r &+ 2]))
                    let before = n
                    // Fences 0, 1, 2 unrolled (the words of a short group's neighbour, or of
                    // the padding after the last record, are read and discarded).
                    let ids01 = records[r &+ 3]
                    buffer[n] = Int32(truncatingIfNeeded: ids01)
                    n &+= CellIndex.bit(0 < candidates) & (CellIndex.bit(0 < interior)
                        | CellIndex.bit(d2 <= Double(bitPattern: records[r &+ 4])))
                    buffer[n] = Int32(truncatingIfNeeded: ids01 >> 32)
                    n &+= CellIndex.bit(1 < candidates) & (CellIndex.bit(1 < interior)
                        | CellIndex.bit(d2 <= Double(bitPattern: records[r &+ 5])))
                    buffer[n] = Int32(truncatingIfNeeded: records[r &+ 6])
                    n &+= CellIndex.bit(2 < candidates) & (CellIndex.bit(2 < interior)
                        | CellIndex.bit(d2 <= Double(bitPattern: records[r &+ 7])))
                    if candidates > 3 {
                        for k in 3..<candidates where k < interior || d2 <= CellIndex.chord2(records, r, k) {
                            buffer[n] = CellIndex.id(records, r, k)
                            n &+= 1
                        }
                    }
                    // Interior fences (the first `interior`) are hits accepted with no test.
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

    /// The squared chord of fence `k` of the record at word `r`.
    @inlinable @inline(__always)
    static func chord2(_ records: UnsafeBufferPointer<UInt64>, _ r: Int, _ k: Int) -> Double {
        Double(bitPattern: records[r &+ 4 &+ (k >> 1) &* 3 &+ (k & 1)])
    }

    /// Record words of a group of `n` fences.
    @inlinable
    static func recordLength(_ n: Int) -> Int { 3 + 3 * (n >> 1) + 2 * (n & 1) }

    /// Calls `body(record offset, fence count, first fence ordinal)` for every group.
    @inlinable
    func forEachGroup(_ body: (Int, Int, Int) -> Void) {
        var ordinal = 0
        for g in 0..<(groupOffsets.count - 1) {
            let r = Int(groupOffsets[g])
            let length = Int(groupOffsets[g + 1]) - r
            let n = (2 * (length - 3) + 1) / 3  // inverts recordLength for n in 1...7
            body(r, n, ordinal)
            ordinal += n
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
                        results.append(FenceNeighbor(id: CellIndex.id(records, r, f), distanceMeters: d))
                    }
                }
            }
        }
        results.sort(by: FenceNeighbor.precedes)
        if results.count > k { results.removeLast(results.count - k) }
    }
}
