/// The region coverer's priority queue: a binary max-heap of `(priority, candidate)` that
/// compares priorities only, with the exact sift rules of libstdc++'s `std::push_heap` /
/// `std::pop_heap` (`__push_heap`, `__adjust_heap` in bits/stl_heap.h).
///
/// Why replicate a particular standard library: S2RegionCoverer keeps its candidates in a
/// `std::priority_queue<pair<int, Candidate*>>` whose comparator looks at the priority alone, so
/// candidates of equal priority leave the queue in an order fixed by the heap's sift
/// algorithm. Reproducing S2's coverings cell for cell therefore needs the same algorithm, not
/// just any heap. (Google's reference builds use libstdc++ on Linux.)
@usableFromInline
struct CandidateHeap: Sendable {
    /// One queue entry: the priority (larger pops first) and an index into the candidate pool.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var priority: Int32
        @usableFromInline var candidate: Int32
        @inlinable init(priority: Int32, candidate: Int32) {
            self.priority = priority
            self.candidate = candidate
        }
    }

    @usableFromInline var entries: [Entry] = []

    @inlinable init() {}

    @inlinable var isEmpty: Bool { entries.isEmpty }
    @inlinable var count: Int { entries.count }

    @inlinable mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// `priority_queue::push`: append, then `__push_heap` from the last slot.
    @inlinable
    mutating func push(_ e: Entry) {
        entries.append(e)
        siftUp(hole: entries.count - 1, top: 0, value: e)
    }

    /// `__push_heap(first, holeIndex, topIndex, value)`: move parents down while they compare
    /// strictly less than `value`.
    @inlinable
    mutating func siftUp(hole start: Int, top: Int, value: Entry) {
        var hole = start
        var parent = (hole - 1) / 2
        while hole > top && entries[parent].priority < value.priority {
            entries[hole] = entries[parent]
            hole = parent
            parent = (hole - 1) / 2
        }
        entries[hole] = value
    }

    /// `priority_queue::top` followed by `pop`: `__pop_heap` moves the last element into a hole
    /// made at the root by `__adjust_heap` (always descend to the larger child, preferring the
    /// left one on ties, then sift the moved element back up), then the vector shrinks.
    @inlinable
    mutating func pop() -> Entry {
        let top = entries[0]
        let len = entries.count - 1
        if len > 0 {
            let value = entries[len]
            entries[len] = top
            adjust(length: len, value: value)
        }
        entries.removeLast()
        return top
    }

    /// `__adjust_heap(first, 0, len, value)`.
    @inlinable
    mutating func adjust(length len: Int, value: Entry) {
        var hole = 0
        var second = 0
        while second < (len - 1) / 2 {
            second = 2 * (second + 1)
            if entries[second].priority < entries[second - 1].priority { second -= 1 }
            entries[hole] = entries[second]
            hole = second
        }
        if len & 1 == 0 && second == (len - 2) / 2 {
            second = 2 * (second + 1)
            entries[hole] = entries[second - 1]
            hole = second - 1
        }
        siftUp(hole: hole, top: 0, value: value)
    }
}
