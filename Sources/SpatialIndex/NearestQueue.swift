import Geodesy

/// The priority queue of the trees' best-first nearest search (Hjaltason & Samet's
/// incremental nearest neighbor): a binary min-heap of nodes keyed by a lower bound of the
/// distance of anything inside, and of fences keyed by their exact distance.
///
/// Order: key, then nodes before fences (so that a node whose bound equals a fence's distance is
/// opened before that fence is reported: it may hold an equal-distance fence of smaller id),
/// then fence id. Fences therefore leave the queue in (distance, id) order.
struct NearestQueue {
    struct Entry {
        /// Meters: a lower bound for a node, the exact distance for a fence.
        var key: Double
        /// `Int64.min` for a node; the fence id (>= 0) for a fence.
        var order: Int64
        /// Node or fence position in the index's arrays.
        var ref: Int32

        var isFence: Bool { order >= 0 }

        static func < (a: Entry, b: Entry) -> Bool {
            a.key < b.key || (a.key == b.key && a.order < b.order)
        }
    }

    /// The heap: positions below `inline.count` live in caller-provided (stack) storage, the
    /// rest in `overflow`, which allocates only when a search's frontier outgrows the storage.
    private let inline: UnsafeMutableBufferPointer<Entry>
    private var overflow: [Entry] = []
    private(set) var count = 0

    /// Entries of inline storage a search gets (4 KB of stack): enough for the frontier of
    /// k <= ~100 on the benchmark's indexes.
    static var inlineCapacity: Int { 256 }

    /// Runs `body` with an empty queue whose storage is a stack allocation.
    static func withQueue<R>(_ body: (inout NearestQueue) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Entry.self, capacity: inlineCapacity) { storage in
            var queue = NearestQueue(storage)
            return body(&queue)
        }
    }

    /// The best-first search of the trees: starting from node `root`, pops entries in order;
    /// a fence is appended to `results` (until `k`), a node is handed to `expand`, which pushes
    /// its children with ``pushFence(_:id:ref:within:)`` and ``pushNode(_:bound:within:)``.
    /// Stops at the first entry beyond `maxDistanceMeters`. `results` is replaced.
    static func search(
        root: Int32, k: Int, maxDistanceMeters: Double, into results: inout [FenceNeighbor],
        _ expand: (Int, inout NearestQueue) -> Void
    ) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        withQueue { queue in
            queue.push(.init(key: -.infinity, order: .min, ref: root))
            while !queue.isEmpty {
                let e = queue.pop()
                if e.key > maxDistanceMeters { break }
                if e.isFence {
                    results.append(FenceNeighbor(id: Int32(truncatingIfNeeded: e.order), distanceMeters: e.key))
                    if results.count == k { break }
                    continue
                }
                expand(Int(e.ref), &queue)
            }
        }
    }

    /// Pushes fence `id` (position `ref`) at `distance` meters, if within `limit`.
    mutating func pushFence(_ distance: Double, id: Int32, ref: Int32, within limit: Double) {
        if distance <= limit { push(.init(key: distance, order: Int64(id), ref: ref)) }
    }

    /// Pushes node `ref` with lower bound `bound` meters, if within `limit`.
    mutating func pushNode(_ ref: Int32, bound: Double, within limit: Double) {
        if bound <= limit { push(.init(key: bound, order: .min, ref: ref)) }
    }

    init(_ storage: UnsafeMutableBufferPointer<Entry>) {
        inline = storage
    }

    var isEmpty: Bool { count == 0 }

    private subscript(i: Int) -> Entry {
        get { i < inline.count ? inline[i] : overflow[i - inline.count] }
        set {
            if i < inline.count { inline[i] = newValue } else { overflow[i - inline.count] = newValue }
        }
    }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }

    mutating func push(_ e: Entry) {
        if count < inline.count { inline[count] = e } else { overflow.append(e) }
        count += 1
        var i = count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if !(self[i] < self[parent]) { break }
            swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Entry {
        let top = self[0]
        count -= 1
        let last = self[count]
        if count >= inline.count { overflow.removeLast() }
        if count > 0 {
            self[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                if l >= count { break }
                var m = l
                if l + 1 < count && self[l + 1] < self[l] { m = l + 1 }
                if !(self[m] < self[i]) { break }
                swapAt(i, m)
                i = m
            }
        }
        return top
    }
}

/// Bounded selection of the `k` best neighbors into a caller's array, with no allocation once
/// the array has room for `k`: `results` is kept as a max-heap (worst first) of at most `k`
/// entries under (distance, id) order, then sorted in place.
enum NearestSelection {
    /// Offers `n` to the selection in `heap` (a max-heap of at most `k` entries).
    static func offer(_ n: FenceNeighbor, k: Int, into heap: inout [FenceNeighbor]) {
        if heap.count < k {
            heap.append(n)
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if !FenceNeighbor.precedes(heap[parent], heap[i]) { break }
                heap.swapAt(i, parent)
                i = parent
            }
        } else if FenceNeighbor.precedes(n, heap[0]) {
            heap[0] = n
            siftDown(&heap, from: 0, count: heap.count)
        }
    }

    /// Sorts the selection ascending by (distance, id), in place (heap sort).
    static func finish(_ heap: inout [FenceNeighbor]) {
        var end = heap.count
        while end > 1 {
            end -= 1
            heap.swapAt(0, end)
            siftDown(&heap, from: 0, count: end)
        }
    }

    private static func siftDown(_ heap: inout [FenceNeighbor], from start: Int, count: Int) {
        var i = start
        while true {
            let l = 2 * i + 1
            if l >= count { return }
            var m = l
            if l + 1 < count && FenceNeighbor.precedes(heap[l], heap[l + 1]) { m = l + 1 }
            if !FenceNeighbor.precedes(heap[i], heap[m]) { return }
            heap.swapAt(i, m)
            i = m
        }
    }
}

/// Lower bound in meters of the `measure` distance from `p` to any fence inside a box, less a
/// 1e-6 m safety margin (rounding of the bound is ~1e-9 m).
/// For `.edge`, a box that contains `p` may hold a fence containing `p`, whose edge distance is
/// as low as minus its radius: the bound there is `-maxRadius` of the whole index.
@inlinable
func lowerBoundMeters(boxDistance e: Double, measure: FenceDistance, maxRadius: Double) -> Double {
    if measure == .edge && e == 0 { return -maxRadius - 1e-6 }
    return meters(forChord2: e * e) - 1e-6
}
