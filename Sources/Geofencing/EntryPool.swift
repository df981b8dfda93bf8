/// The fence entries of all of a detector's devices in one array: each device owns a block of
/// `1 << k` consecutive entries (its size class `k`), so a device costs no heap object, header
/// or reference count of its own. Freed blocks are kept per class and reused first.
/// Allocation and release are O(1) amortised.
@usableFromInline
struct EntryPool {
    /// Block class meaning "no block".
    @usableFromInline static var noBlock: UInt8 { 31 }
    /// Largest block class (2^20 entries, the most a device can hold).
    @usableFromInline static var maxClass: UInt8 { 20 }

    @usableFromInline var storage: [FenceEntry] = []
    /// Starts of free blocks, by class.
    @usableFromInline var free: [[UInt32]] = Array(repeating: [], count: Int(EntryPool.maxClass) + 1)

    @usableFromInline init() {}

    /// The smallest class whose blocks hold `n` entries (n >= 1).
    @inlinable static func sizeClass(for n: Int) -> UInt8 {
        precondition(n >= 1 && n <= 1 << Int(maxClass), "a device holds at most 2^20 fence entries")
        return UInt8(truncatingIfNeeded: Int.bitWidth - (n - 1).leadingZeroBitCount)
    }

    /// A block of class `k`: a freed one if any, else new entries at the end.
    @inlinable mutating func allocate(_ k: UInt8) -> UInt32 {
        if let start = free[Int(k)].popLast() { return start }
        let start = storage.count
        precondition(start + (1 << Int(k)) <= Int(UInt32.max), "entry pool beyond 2^32 entries")
        storage.append(contentsOf: repeatElement(FenceEntry(slot: 0, hasDwell: false, state: .unknown), count: 1 << Int(k)))
        return UInt32(start)
    }

    /// Returns the block at `start` of class `k` for reuse.
    @inlinable mutating func release(_ start: UInt32, _ k: UInt8) {
        guard k != Self.noBlock else { return }
        free[Int(k)].append(start)
    }

    /// Entries in blocks now free.
    @usableFromInline var freeEntries: Int {
        free.indices.reduce(0) { $0 + free[$1].count << $1 }
    }
}
