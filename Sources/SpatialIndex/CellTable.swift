/// The hash map from cell key to first entry of ``LatLngGridIndex``: one table per level, bucketed
/// cuckoo hashing with two candidate buckets of four slots per key.
///
/// Representation: `words` holds buckets back to back, 8 words (32 bytes) each: four keys,
/// then their four values. Key 0 marks a free slot (cell keys are never 0). A key lives in one
/// of its two buckets, `bucket1` or `bucket2` (two multiply-shift hashes scaled to the level's
/// bucket count). A lookup reads both buckets' keys, compares all eight with two vector
/// compares and picks the matching value without a branch: its cost does not depend on how
/// full the table is or on whether the key is there, and the one data-dependent branch left
/// to the caller is "found or not".
///
/// Buckets of four with two choices fill to 90% (the build grows a level's table by 10% in the
/// rare case that an insertion does not settle). docs/INDEXES.md compares linear probing.
@usableFromInline
struct CellTable: Sendable {
    /// Buckets of four keys then four values.
    @usableFromInline var words: [UInt32]
    /// Per level (0...``LatLngGrid/maxLevel``): first bucket and bucket count (0 if unused).
    @usableFromInline var bases: [Int32]
    @usableFromInline var counts: [Int32]

    /// Target fill of the build: 90% of the slots.
    static var loadFactor: Double { 0.9 }
    /// Evictions before an insertion gives up and the level's table grows.
    static var maxKicks: Int { 500 }

    /// Builds the tables from each level's (key, value) pairs (keys nonzero and distinct within
    /// a level).
    init(levels: [[(key: UInt32, value: UInt32)]]) {
        var words: [UInt32] = []
        var bases: [Int32] = []
        var counts: [Int32] = []
        for pairs in levels {
            var count = pairs.isEmpty ? 0 : Swift.max(1, Int((Double(pairs.count) / (4 * CellTable.loadFactor)).rounded(.up)))
            var table: [UInt32] = []
            while count > 0 {
                if let built = CellTable.fill(pairs, buckets: count) {
                    table = built
                    break
                }
                count += count / 10 + 1
            }
            bases.append(Int32(words.count / 8))
            counts.append(Int32(count))
            words.append(contentsOf: table)
        }
        precondition(words.count / 8 < Int(Int32.max), "cell table too large")
        self.words = words
        self.bases = bases
        self.counts = counts
    }

    /// One level's buckets holding `pairs`, or nil if an insertion did not settle.
    static func fill(_ pairs: [(key: UInt32, value: UInt32)], buckets: Int) -> [UInt32]? {
        var table = [UInt32](repeating: 0, count: buckets * 8)
        for pair in pairs {
            var key = pair.key, value = pair.value
            var bucket = CellTable.bucket1(key, buckets)
            var settled = false
            for kick in 0..<CellTable.maxKicks {
                let other = CellTable.alternate(key, bucket, buckets)
                if let lane = (0..<4).first(where: { table[bucket * 8 + $0] == 0 }) {
                    table[bucket * 8 + lane] = key
                    table[bucket * 8 + 4 + lane] = value
                    settled = true
                    break
                }
                if let lane = (0..<4).first(where: { table[other * 8 + $0] == 0 }) {
                    table[other * 8 + lane] = key
                    table[other * 8 + 4 + lane] = value
                    settled = true
                    break
                }
                // Evict a resident of this bucket (lanes in turn) and move it to its other bucket.
                let lane = kick & 3
                swap(&key, &table[bucket * 8 + lane])
                swap(&value, &table[bucket * 8 + 4 + lane])
                bucket = CellTable.alternate(key, bucket, buckets)
            }
            if !settled { return nil }
        }
        return table
    }

    /// The first candidate bucket of `key` in a table of `count` buckets.
    @inlinable @inline(__always)
    static func bucket1(_ key: UInt32, _ count: Int) -> Int {
        scale((UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32, count)
    }

    /// The second candidate bucket of `key`.
    @inlinable @inline(__always)
    static func bucket2(_ key: UInt32, _ count: Int) -> Int {
        scale((UInt64(key) &* 0xC2B2_AE3D_27D4_EB4F) >> 32, count)
    }

    /// A 32-bit hash scaled to [0, count) (multiply-shift: any count, no division).
    @inlinable @inline(__always)
    static func scale(_ hash: UInt64, _ count: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* UInt64(UInt32(truncatingIfNeeded: count))) >> 32)
    }

    /// The candidate bucket of `key` other than `bucket`.
    static func alternate(_ key: UInt32, _ bucket: Int, _ count: Int) -> Int {
        let first = bucket1(key, count)
        return bucket == first ? bucket2(key, count) : first
    }

    /// The value of `key` at `level` (`found` false, value 0, if the key is absent), from
    /// `words` (this table's ``words``).
    @inlinable @inline(__always)
    func lookup(_ key: UInt32, level: Int, _ words: UnsafeBufferPointer<UInt32>) -> (found: Bool, value: UInt32) {
        let base = Int(bases[level]), count = Int(counts[level])
        let b1 = base &+ CellTable.bucket1(key, count), b2 = base &+ CellTable.bucket2(key, count)
        let raw = UnsafeRawPointer(words.baseAddress!)
        let keys1 = raw.loadUnaligned(fromByteOffset: b1 &* 32, as: SIMD4<UInt32>.self)
        let keys2 = raw.loadUnaligned(fromByteOffset: b2 &* 32, as: SIMD4<UInt32>.self)
        let target = SIMD4<UInt32>(repeating: key)
        let zero = SIMD4<UInt32>(repeating: 0)
        // 1...4 for a match in bucket 1, else 5...8 in bucket 2, else 0 (a key is in one bucket
        // and one lane; the two buckets may be the same one).
        let lane1 = zero.replacing(with: SIMD4(1, 2, 3, 4), where: keys1 .== target).wrappedSum()
        let lane2 = zero.replacing(with: SIMD4(5, 6, 7, 8), where: keys2 .== target).wrappedSum()
        let lane = lane1 != 0 ? lane1 : lane2
        let found = lane != 0
        // No match (lane 0) reads a key word of bucket 1 and returns 0 instead.
        let index = lane <= 4 ? b1 &* 8 &+ 3 &+ Int(lane) : b2 &* 8 &+ Int(lane) &- 1
        let value = words[index]
        return (found, found ? value : 0)
    }

    /// Number of keys stored.
    var count: Int {
        var n = 0
        for b in 0..<(words.count / 8) {
            for lane in 0..<4 where words[b * 8 + lane] != 0 { n += 1 }
        }
        return n
    }

    /// Bytes of storage.
    var memoryBytes: Int { words.capacity * 4 + (bases.capacity + counts.capacity) * 4 }
}
