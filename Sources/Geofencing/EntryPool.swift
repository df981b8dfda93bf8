/// The fence entries of all of a detector's devices in one array: each device owns a block of
/// `1 << k` consecutive entries (its size class `k`), so a device costs no heap object, header
/// or reference count of its own. Freed blocks are kept per class and reused first.
/// Allocation and release are O(1) amortised.
///
/// The entries' due readings (``FenceEntry``'s odometer readings at which a fix could first
/// change it) are a parallel array, `dues[k]` for `storage[k]`, so a fix tests a device's due
/// readings eight at a time from contiguous memory. A block's readings past its device's
/// entry count are 65,535 (never due).
@usableFromInline
struct EntryPool {
    /// Block class meaning "no block".
    @usableFromInline static var noBlock: UInt8 { 31 }
    /// Largest block class (2^20 entries, the most a device can hold).
    @usableFromInline static var maxClass: UInt8 { 20 }

    @usableFromInline var storage: [FenceEntry] = []
    /// Due reading of each entry of ``storage``: the owner's odometer reading
    /// (``DeviceTrack/odometer``) at which a fix could first change it; 0 = look at every fix;
    /// 65,535 in the unused tail of a block.
    @usableFromInline var dues: [UInt16] = []
    /// Starts of free blocks, by class.
    @usableFromInline var free: [[UInt32]] = Array(repeating: [], count: Int(EntryPool.maxClass) + 1)
    /// Entries in the free blocks.
    @usableFromInline var freeEntries = 0

    @usableFromInline init() {}

    /// The smallest class whose blocks hold `n` entries (n >= 1).
    @inlinable static func sizeClass(for n: Int) -> UInt8 {
        precondition(n >= 1 && n <= 1 << Int(maxClass), "a device holds at most 2^20 fence entries")
        return UInt8(truncatingIfNeeded: Int.bitWidth - (n - 1).leadingZeroBitCount)
    }

    /// A block of class `k`: a freed one if any, else new entries at the end.
    @inlinable mutating func allocate(_ k: UInt8) -> UInt32 {
        if let start = free[Int(k)].popLast() {
            freeEntries -= 1 << Int(k)
            return start
        }
        let start = storage.count
        precondition(start + (1 << Int(k)) <= Int(UInt32.max), "entry pool beyond 2^32 entries")
        storage.append(contentsOf: repeatElement(FenceEntry(slot: 0, hasDwell: false, state: .unknown), count: 1 << Int(k)))
        dues.append(contentsOf: repeatElement(UInt16.max, count: 1 << Int(k)))
        return UInt32(start)
    }

    /// Returns the block at `start` of class `k` for reuse.
    @inlinable mutating func release(_ start: UInt32, _ k: UInt8) {
        guard k != Self.noBlock else { return }
        free[Int(k)].append(start)
        freeEntries += 1 << Int(k)
    }

    /// Whether free blocks hold a third of the storage (and over 4 Ki entries): time to
    /// ``compact(_:)``.
    @inlinable var isSparse: Bool { freeEntries > 4_096 && 3 * freeEntries > storage.count }

    /// Moves every block in use to the front of a new storage, in the order of `tracks`
    /// (rewriting their starts), and forgets the free blocks. The new storage has room for
    /// half as many entries again as are in use (never more than the old one held, since a
    /// third of that was free), so the blocks allocated next append without copying the pool.
    /// O(entries in use).
    @usableFromInline
    mutating func compact(_ tracks: inout [DeviceTrack]) {
        var used = 0
        for t in tracks where t.blockClass != Self.noBlock { used += 1 << Int(t.blockClass) }
        var fresh: [FenceEntry] = [], freshDues: [UInt16] = []
        fresh.reserveCapacity(used + used / 2)
        freshDues.reserveCapacity(used + used / 2)
        for k in tracks.indices where tracks[k].blockClass != Self.noBlock {
            let start = Int(tracks[k].entryStart), size = 1 << Int(tracks[k].blockClass)
            tracks[k].entryStart = UInt32(fresh.count)
            fresh.append(contentsOf: storage[start..<(start + size)])
            freshDues.append(contentsOf: dues[start..<(start + size)])
        }
        storage = fresh
        dues = freshDues
        free = Array(repeating: [], count: Int(Self.maxClass) + 1)
        freeEntries = 0
    }
}
