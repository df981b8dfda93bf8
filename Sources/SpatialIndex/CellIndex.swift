import Geodesy
import GeoCells

/// The stabbing index ("which circular fences contain this fix?") over S2 cells: each fence's
/// cap is classified against the cells of one S2 level, and a fix looks up its own cell in a
/// hash table to get the few fences that can contain it, most of them already known to.
///
/// Representation:
/// - **Centre groups.** Fences with bit-identical centres form a group (the concentric 1/3/5
///   mile tiers of a POI are one group); a group holds at most ``maxGroupSize`` fences (larger
///   sets of same-centre fences are split into several groups). `groups[g]` holds the centre
///   (x, y, z) once and the group's first slot; its fences occupy consecutive slots of `ids`,
///   `chord2s` and `radii`, sorted by squared chord *descending*. One squared chord per group
///   answers every fence of the group: fence k contains p iff `chord2s[k] >= d2`, and the
///   first failure ends the group. Groups are ordered by the Hilbert key of their centre, so
///   nearby groups share cache lines.
/// - **Cells.** Each group gets one S2 level `L` from its largest radius (cells about
///   ``cellsPerRadius`` times narrower than the radius, so a group meets ~10-30 cells). The
///   cells of level `L` that meet the (slightly padded) largest cap are found by a flood fill
///   from the centre's cell over edge neighbours. For each such cell the squared-chord range
///   `[minC2, maxC2]` from the centre to the cell is computed once (exactly up to rounding,
///   see `CellIndex+Geometry.swift`); then `a` = number of fences (largest first) whose cap
///   surely contains the whole cell (`maxC2 <= chord2 - margin`), `b` = number that may meet
///   it (`minC2 <= chord2 + margin`).
/// - **Entries.** One `UInt32` per (cell, group) with `b > 0`: `group << 6 | a << 3 | b`.
///   The query emits the first `a` fences of the group with no distance test ("interior"), and
///   tests fences `a..<b` with one squared chord. Entries of one cell are contiguous.
/// - **Table.** Open addressing, power-of-two capacity, load <= 0.7, multiplicative (Fibonacci)
///   hash, linear probing; a slot is (cell key, first entry, one past the last entry). The cell
///   key of (level L, face, i, j) is `1 << (2L + 3) | face << 2L | i << L | j`: the marker bit
///   makes keys of different levels distinct, and 0 marks an empty slot. `levelMask` has bit L
///   set for every level in use: a fix does one probe per level (one in the benchmark, where
///   every group has the same largest radius).
/// - **Lookup.** The fix's leaf (face, i, j) is computed from its unit vector by S2's own
///   projection (`S2Projection.xyzToFaceUV`, `uvToST`, `stToIJ`: two divisions, two square
///   roots, no Hilbert-curve table walk) and shifted to each level.
///
/// Exactness: results equal ``BruteForceIndex``'s bit for bit, because every reported fence
/// is either tested with the same squared-chord expression (`squaredChord(p, centre) <=
/// chord2`), or lies in a cell whose farthest point is at least ``margin`` (in squared chord,
/// about 1 mm at 1 mile) inside the cap; and every fence that may contain a point of a cell
/// (within the margin) has an entry for it. The margin (1e-12) exceeds by orders of magnitude
/// the rounding of the point -> cell mapping (~1e-15 in (u, v)), of the vertex and edge
/// geometry, and of the squared-chord test itself (~1e-15 near chord2 = 4).
///
/// Why this design (measured on the 3k/30k/300k-fence workloads, see the report): a single
/// hash probe per fix keeps the lookup at a few nanoseconds, centre groups cut the distance
/// tests and the stored geometry by the number of tiers, and interior cells answer most hits
/// of large fences with no test at all. A sorted cell-range table would need a binary search
/// (tens of ns); Hilbert cell ids would need a table walk per fix (~30 ns).
///
/// ``forEachWithin(meters:of:_:)`` and ``nearest(to:k:by:maxDistanceMeters:into:)`` scan the
/// groups (one distance per centre); stabbing is what this index is for.
///
/// - Complexity: build O(n · c + E log E) for n fences meeting c cells each and E entries;
///   stabbing O(levels + entries in the fix's cells + hits).
public struct CellIndex: FenceIndex, Sendable {
    /// Most fences per centre group: `a` and `b` are 3-bit fields of an entry.
    public static let maxGroupSize = 7
    /// Target ratio of a group's largest radius to the width of its cells: the level is the
    /// deepest whose average cell edge is at least `radius / cellsPerRadius`.
    public let cellsPerRadius: Double
    /// Squared-chord margin of the interior and may-intersect classifications (see above).
    @usableFromInline static var margin: Double { 1e-12 }

    /// A centre group: the centre once, and the first of its fence slots.
    @usableFromInline
    struct Group: Sendable {
        @usableFromInline var x: Double
        @usableFromInline var y: Double
        @usableFromInline var z: Double
        /// First slot of the group in `ids`, `chord2s`, `radii`.
        @usableFromInline var start: UInt32
        /// Number of fences in the group, 1...maxGroupSize.
        @usableFromInline var count: UInt32

        @inlinable
        init(x: Double, y: Double, z: Double, start: UInt32, count: UInt32) {
            self.x = x
            self.y = y
            self.z = z
            self.start = start
            self.count = count
        }
    }

    /// A hash slot: a cell key (0 = empty) and its entries `start..<end`.
    @usableFromInline
    struct Slot: Sendable {
        @usableFromInline var key: UInt64
        @usableFromInline var start: UInt32
        @usableFromInline var end: UInt32

        @inlinable
        init(key: UInt64, start: UInt32, end: UInt32) {
            self.key = key
            self.start = start
            self.end = end
        }
    }

    @usableFromInline var groups: [Group]
    /// Fence ids per slot (group order, chord2 descending within a group).
    @usableFromInline var ids: [Int32]
    /// Squared chords per slot.
    @usableFromInline var chord2s: [Double]
    /// Radii in metres per slot (edge distances of nearest queries).
    @usableFromInline var radii: [Double]
    /// `group << 6 | interior << 3 | mayIntersect` per (cell, group), grouped by cell.
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

    @inlinable public var count: Int { ids.count }

    /// Bytes of the index's own storage: groups, fence slots, entries and the hash table.
    public var memoryBytes: Int {
        groups.capacity * MemoryLayout<Group>.stride + ids.capacity * 4 + chord2s.capacity * 8
            + radii.capacity * 8 + entries.capacity * 4 + slots.capacity * MemoryLayout<Slot>.stride
    }

    /// Number of (cell, group) entries.
    public var entryCount: Int { entries.count }
    /// Number of distinct cells in the table.
    public var cellCount: Int { slots.reduce(0) { $0 + ($1.key != 0 ? 1 : 0) } }
    /// The levels in use, ascending.
    public var levels: [Int] { (0...CellID.maxLevel).filter { levelMask & (1 << UInt32($0)) != 0 } }

    /// The cell key of level-`level` cell (face, i, j) (i, j at that level).
    @inlinable @inline(__always)
    static func cellKey(level: Int, face: Int, i: Int, j: Int) -> UInt64 {
        let l = UInt64(truncatingIfNeeded: level)
        return (1 << (2 &* l &+ 3)) | UInt64(truncatingIfNeeded: face) << (2 &* l)
            | UInt64(truncatingIfNeeded: i) << l | UInt64(truncatingIfNeeded: j)
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
        let leafI = S2Projection.stToIJ(S2Projection.uvToST(uv.u))
        let leafJ = S2Projection.stToIJ(S2Projection.uvToST(uv.v))
        slots.withUnsafeBufferPointer { slots in
        entries.withUnsafeBufferPointer { entries in
        groups.withUnsafeBufferPointer { groups in
        chord2s.withUnsafeBufferPointer { chord2s in
        ids.withUnsafeBufferPointer { ids in
            repeat {
                let level = mask.trailingZeroBitCount
                mask &= mask &- 1
                let shift = CellID.maxLevel &- level
                let key = CellIndex.cellKey(level: level, face: face, i: leafI >> shift, j: leafJ >> shift)
                var h = Int(truncatingIfNeeded: (key &* CellIndex.hashMultiplier) >> hashShift)
                var slot = slots[h]
                while slot.key != key {
                    if slot.key == 0 { break }
                    h = (h &+ 1) & tableMask
                    slot = slots[h]
                }
                if slot.key != key { continue }
                var e = Int(slot.start)
                let end = Int(slot.end)
                while e < end {
                    let entry = entries[e]
                    e &+= 1
                    let group = groups[Int(entry >> 6)]
                    let first = Int(group.start)
                    let interior = first &+ Int((entry >> 3) & 7)
                    let candidates = first &+ Int(entry & 7)
                    var k = first
                    while k < interior {
                        stats.exact(hit: true)
                        body(ids[k])
                        k &+= 1
                    }
                    if k < candidates {
                        let d2 = squaredChord(p.x, p.y, p.z, group.x, group.y, group.z)
                        repeat {
                            let inside = d2 <= chord2s[k]
                            stats.exact(hit: inside)
                            if !inside { break }
                            body(ids[k])
                            k &+= 1
                        } while k < candidates
                    }
                }
            } while mask != 0
        }
        }
        }
        }
        }
    }

    // MARK: Within and nearest (group scans)

    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        for g in groups where squaredChord(p.x, p.y, p.z, g.x, g.y, g.z) <= limit {
            let first = Int(g.start)
            for k in first..<(first + Int(g.count)) { body(ids[k]) }
        }
    }

    public func nearest(to p: UnitVector, k: Int, by measure: FenceDistance,
                        maxDistanceMeters: Double, into results: inout [FenceNeighbor]) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        for g in groups {
            let centre = metres(fromChord2: squaredChord(p.x, p.y, p.z, g.x, g.y, g.z))
            let first = Int(g.start)
            for s in first..<(first + Int(g.count)) {
                let d = measure == .edge ? centre - radii[s] : centre
                if d <= maxDistanceMeters { results.append(FenceNeighbor(id: ids[s], distanceMeters: d)) }
            }
        }
        results.sort(by: FenceNeighbor.precedes)
        if results.count > k { results.removeLast(results.count - k) }
    }
}
