/// The ledger's per-task records by task slot: an open-addressing hash table (linear probing,
/// at most half full) over two flat arrays, so a decision finds its record with one multiply
/// and, almost always, one compare, and no hashing of a `Hasher`.
///
/// Encoded as the occupied slots in increasing order with their records (the same JSON for the
/// same contents, whatever the insertion order); equality compares contents.
public struct TaskRecordTable: Sendable, Codable, Hashable {
    /// Key per bucket; `-1` = empty. The count is a power of two (or 0).
    private var keys: [Int32] = []
    private var values: [ReminderLedger.TaskRecord] = []
    /// Occupied buckets.
    public private(set) var count = 0

    /// An empty table.
    public init() {}

    @inline(__always)
    private func bucket(_ slot: Int32) -> Int {
        // Fibonacci hashing: the top bits of slot × 2^32/φ.
        let h = UInt32(bitPattern: slot) &* 0x9E37_79B9
        return Int(h) & (keys.count - 1)
    }

    /// The bucket holding `slot`, or nil.
    func find(_ slot: Int32) -> Int? {
        guard !keys.isEmpty else { return nil }
        var b = bucket(slot)
        while true {
            let k = keys[b]
            if k == slot { return b }
            if k == -1 { return nil }
            b = (b + 1) & (keys.count - 1)
        }
    }

    /// The bucket of `slot`, inserting a fresh record if absent.
    mutating func findOrInsert(_ slot: Int32) -> Int {
        precondition(slot >= 0, "task slots are >= 0")
        if let b = find(slot) { return b }
        if 2 * (count + 1) > keys.count { grow() }
        var b = bucket(slot)
        while keys[b] != -1 { b = (b + 1) & (keys.count - 1) }
        keys[b] = slot
        values[b] = ReminderLedger.TaskRecord()
        count += 1
        return b
    }

    private mutating func grow() {
        let old = zip(keys, values).filter { $0.0 != -1 }
        keys = [Int32](repeating: -1, count: max(16, keys.count * 2))
        values = [ReminderLedger.TaskRecord](repeating: ReminderLedger.TaskRecord(), count: keys.count)
        count = 0
        for (k, v) in old { values[findOrInsert(k)] = v }
    }

    /// The record of `slot`, nil if it has none. Setting stores one; setting nil does nothing
    /// (records are never forgotten).
    public subscript(slot: Int32) -> ReminderLedger.TaskRecord? {
        get { find(slot).map { values[$0] } }
        set {
            if let newValue { values[findOrInsert(slot)] = newValue }
        }
    }

    /// The record of `slot`, created on first write.
    public subscript(slot: Int32, default value: @autoclosure () -> ReminderLedger.TaskRecord) -> ReminderLedger.TaskRecord {
        get { find(slot).map { values[$0] } ?? value() }
        _modify {
            let b = findOrInsert(slot)
            yield &values[b]
        }
    }

    /// (slot, record) pairs in increasing slot order.
    public var sorted: [(slot: Int32, record: ReminderLedger.TaskRecord)] {
        zip(keys, values).filter { $0.0 != -1 }.map { (slot: $0.0, record: $0.1) }.sorted { $0.slot < $1.slot }
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
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "slots and records must pair up, slots unique and >= 0"))
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
