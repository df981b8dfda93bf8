import Geodesy

/// The priority queue of the trees' best-first nearest search (Hjaltason & Samet's
/// incremental nearest neighbour): a binary min-heap of nodes keyed by a lower bound of the
/// distance of anything inside, and of fences keyed by their exact distance.
///
/// Order: key, then nodes before fences (so that a node whose bound equals a fence's distance is
/// opened before that fence is reported: it may hold an equal-distance fence of smaller id),
/// then fence id. Fences therefore leave the queue in (distance, id) order.
struct NearestQueue {
    struct Entry {
        /// Metres: a lower bound for a node, the exact distance for a fence.
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

    private(set) var heap: [Entry] = []

    init() {
        heap.reserveCapacity(64)  // a typical k-NN frontier; grows if needed
    }

    var isEmpty: Bool { heap.isEmpty }

    mutating func push(_ e: Entry) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if !(heap[i] < heap[parent]) { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            let n = heap.count
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var m = l
                if l + 1 < n && heap[l + 1] < heap[l] { m = l + 1 }
                if !(heap[m] < heap[i]) { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}

/// Lower bound in metres of the `measure` distance from `p` to any fence inside a box, less a
/// 1e-6 m safety margin (rounding of the bound is ~1e-9 m).
/// For `.edge`, a box that contains `p` may hold a fence containing `p`, whose edge distance is
/// as low as minus its radius: the bound there is `-maxRadius` of the whole index.
@inlinable
func lowerBoundMetres(boxDistance e: Double, measure: FenceDistance, maxRadius: Double) -> Double {
    if measure == .edge && e == 0 { return -maxRadius - 1e-6 }
    return meters(forChord2: e * e) - 1e-6
}
