/// Work counters of queries, accumulated across calls: how many tree nodes (or cell lookups)
/// were made, how many bounding boxes were tested and passed, how many exact (squared-chord)
/// tests were done, how many fences were accepted with no test (a ``LatLngGridIndex`` interior
/// cell), and how many fences were reported. `candidates - hits` are the false candidates.
public struct QueryStats: Hashable, Sendable {
    /// Nodes whose children were scanned.
    public var nodesVisited: Int = 0
    /// Bounding boxes tested against the query.
    public var boxTests: Int = 0
    /// Bounding boxes that passed.
    public var boxesPassed: Int = 0
    /// Exact distance tests done (the candidates).
    public var exactTests: Int = 0
    /// Fences reported (exact tests that succeeded, plus interior acceptances).
    public var hits: Int = 0
    /// Fences reported without a distance test (their interior cell holds the point).
    public var acceptedWithoutTest: Int = 0

    /// All counts zero.
    @inlinable public init() {}

    /// Candidates: fences tested exactly or accepted without a test.
    @inlinable
    public var candidates: Int { exactTests + acceptedWithoutTest }

    /// False candidates per candidate: `(candidates - hits) / candidates` (0 when none).
    @inlinable
    public var falsePositiveRate: Double {
        candidates == 0 ? 0 : Double(candidates - hits) / Double(candidates)
    }
}

/// The counting hook of the query loops. ``NoStats`` compiles to nothing once specialised,
/// so the plain query entry points pay nothing for the counting variant's existence.
@usableFromInline
protocol StatsSink {
    mutating func node()
    mutating func box(passed: Bool)
    mutating func exact(hit: Bool)
    mutating func accepted(_ n: Int)
}

@usableFromInline
struct NoStats: StatsSink {
    @inlinable init() {}
    @inlinable @inline(__always) mutating func node() {}
    @inlinable @inline(__always) mutating func box(passed: Bool) {}
    @inlinable @inline(__always) mutating func exact(hit: Bool) {}
    @inlinable @inline(__always) mutating func accepted(_ n: Int) {}
}

extension QueryStats: StatsSink {
    @inlinable @inline(__always)
    mutating func node() { nodesVisited &+= 1 }
    @inlinable @inline(__always)
    mutating func box(passed: Bool) {
        boxTests &+= 1
        if passed { boxesPassed &+= 1 }
    }
    @inlinable @inline(__always)
    mutating func exact(hit: Bool) {
        exactTests &+= 1
        if hit { hits &+= 1 }
    }
    @inlinable @inline(__always)
    mutating func accepted(_ n: Int) {
        acceptedWithoutTest &+= n
        hits &+= n
    }
}
