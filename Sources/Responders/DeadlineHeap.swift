/// A binary min-heap of (deadline, slot) pairs, the timer queue of ``LivenessMonitor``.
///
/// Flat arrays, no per-entry objects. Entries are never removed early: an entry whose deadline
/// no longer matches its slot's scheduled deadline is skipped when it surfaces (lazy
/// cancellation), so moving a deadline later costs nothing.
/// - Complexity: push and pop O(log n), top O(1).
struct DeadlineHeap: Sendable, Codable {
    private(set) var deadlines: [Double] = []
    private(set) var slots: [Int32] = []

    var count: Int { deadlines.count }

    /// The earliest deadline, or `.infinity` when empty.
    var topDeadline: Double { deadlines.first ?? .infinity }
    var topSlot: Int32 { slots[0] }

    mutating func push(_ deadline: Double, slot: Int32) {
        deadlines.append(deadline)
        slots.append(slot)
        var child = deadlines.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard deadlines[child] < deadlines[parent] else { break }
            deadlines.swapAt(child, parent)
            slots.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the top entry. - Precondition: not empty.
    mutating func pop() {
        let last = deadlines.count - 1
        deadlines.swapAt(0, last)
        slots.swapAt(0, last)
        deadlines.removeLast()
        slots.removeLast()
        var parent = 0
        let n = deadlines.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { break }
            var smallest = left
            if left + 1 < n && deadlines[left + 1] < deadlines[left] { smallest = left + 1 }
            guard deadlines[smallest] < deadlines[parent] else { break }
            deadlines.swapAt(parent, smallest)
            slots.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
