/// The ledger's per-task records by task slot: an open-addressing hash table (linear probing,
/// at most half full) over one flat array of (slot, record) buckets, so a decision finds its
/// record with one multiply, almost always one compare and one cache line, and no `Hasher`.
/// (Separate key and record arrays cost two cache misses per lookup when a thousand devices'
/// tables do not fit in cache: measured with perf, most of the lookup's time was those loads.)
///
/// Encoded as the occupied slots in increasing order with their records (the same JSON for the
/// same contents, whatever the insertion order); equality compares contents.
public struct TaskRecordTable: Sendable, Codable, Hashable {
    /// A slot and its record side by side (56 bytes), so a lookup loads one place in memory.
    struct Bucket: Sendable {
        /// The slot; `-1` = empty.
        var key: Int32
        var record: ReminderLedger.TaskRecord
    }

    /// The buckets; the count is a power of two (or 0).
    private var buckets: [Bucket] = []
    /// Occupied buckets.
    public private(set) var count = 0
    /// 32 - log2(bucket count): a bucket is the top bits of the product.
    private var shift: UInt32 = 32

    /// An empty table.
    public init() {}

    @inline(__always)
    private func bucket(_ slot: Int32) -> Int {
        // Fibonacci hashing: the top log2(buckets) bits of slot × 2^32/φ, so every bit of the
        // slot moves the bucket.
        Int((UInt32(bitPattern: slot) &* 0x9E37_79B9) >> shift)
    }

    /// The bucket holding `slot`, or nil.
    @inline(__always)
    func find(_ slot: Int32) -> Int? {
        guard !buckets.isEmpty else { return nil }
        var b = bucket(slot)
        while true {
            let k = buckets[b].key
            if k == slot { return b }
            if k == -1 { return nil }
            b = (b + 1) & (buckets.count - 1)
        }
    }

    /// The bucket of `slot`, inserting a fresh record if absent.
    mutating func findOrInsert(_ slot: Int32) -> Int {
        precondition(slot >= 0, "task slots are >= 0")
        if let b = find(slot) { return b }
        if 2 * (count + 1) > buckets.count { grow() }
        var b = bucket(slot)
        while buckets[b].key != -1 { b = (b + 1) & (buckets.count - 1) }
        buckets[b] = Bucket(key: slot, record: ReminderLedger.TaskRecord())
        count += 1
        return b
    }

    private mutating func grow() {
        let old = buckets.filter { $0.key != -1 }
        buckets = [Bucket](repeating: Bucket(key: -1, record: ReminderLedger.TaskRecord()), count: max(16, buckets.count * 2))
        shift = UInt32(32 - buckets.count.trailingZeroBitCount)
        count = 0
        for x in old { buckets[findOrInsert(x.key)].record = x.record }
    }

    /// The record of `slot`, nil if it has none. Setting stores one; setting nil does nothing
    /// (records are never forgotten).
    /// - Precondition: setting: `slot >= 0` (slots come from ``TaskBook``; -1 marks an empty bucket).
    public subscript(slot: Int32) -> ReminderLedger.TaskRecord? {
        get { find(slot).map { buckets[$0].record } }
        set {
            if let newValue { buckets[findOrInsert(slot)].record = newValue }
        }
    }

    /// The record of `slot`, created on first write.
    /// - Precondition: writing: `slot >= 0`.
    public subscript(slot: Int32, default value: @autoclosure () -> ReminderLedger.TaskRecord) -> ReminderLedger.TaskRecord {
        get { find(slot).map { buckets[$0].record } ?? value() }
        _modify {
            let b = findOrInsert(slot)
            yield &buckets[b].record
        }
    }

    /// (slot, record) pairs in increasing slot order.
    public var sorted: [(slot: Int32, record: ReminderLedger.TaskRecord)] {
        buckets.filter { $0.key != -1 }.map { (slot: $0.key, record: $0.record) }.sorted { $0.slot < $1.slot }
    }

    private enum CodingKeys: String, CodingKey { case slots, records }

    /// Encodes the occupied slots in increasing order and their records.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let pairs = sorted
        try c.encode(pairs.map(\.slot), forKey: .slots)
        try c.encode(pairs.map(\.record), forKey: .records)
    }

    /// Decodes; slots must be unique and >= 0, one record each (else `DecodingError.dataCorrupted`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let slots = try c.decode([Int32].self, forKey: .slots)
        let records = try c.decode([ReminderLedger.TaskRecord].self, forKey: .records)
        guard slots.count == records.count, slots.allSatisfy({ $0 >= 0 }), Set(slots).count == slots.count else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: c.codingPath, debugDescription: "slots and records must pair up, slots unique and >= 0"))
        }
        for (s, r) in zip(slots, records) { self[s] = r }
    }

    /// Same slots with equal records, whatever the insertion order.
    public static func == (a: TaskRecordTable, b: TaskRecordTable) -> Bool {
        a.count == b.count && a.sorted.elementsEqual(b.sorted) { $0.slot == $1.slot && $0.record == $1.record }
    }

    /// Hashes the contents in slot order.
    public func hash(into hasher: inout Hasher) {
        for (s, r) in sorted { hasher.combine(s); hasher.combine(r) }
    }
}
