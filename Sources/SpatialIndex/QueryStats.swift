/// Work counters of queries, accumulated across calls: how many tree nodes were opened, how
/// many bounding boxes were tested and passed, how many exact (squared-chord) tests were done,
/// and how many of them were hits. `exactTests - hits` is the number of false candidates.
public struct QueryStats: Hashable, Sendable {
    /// Nodes whose children were scanned.
    public var nodesVisited: Int = 0
    /// Bounding boxes tested against the query.
    public var boxTests: Int = 0
    /// Bounding boxes that passed.
    public var boxesPassed: Int = 0
    /// Exact distance tests done (the candidates).
    public var exactTests: Int = 0
    /// Exact tests that succeeded (results reported).
    public var hits: Int = 0

    @inlinable public init() {}

    /// False candidates per candidate: `(exactTests - hits) / exactTests` (0 when none).
    @inlinable
    public var falsePositiveRate: Double {
        exactTests == 0 ? 0 : Double(exactTests - hits) / Double(exactTests)
    }
}

/// The counting hook of the query loops. ``NoStats`` compiles to nothing once specialised,
/// so the plain query entry points pay nothing for the counting variant's existence.
@usableFromInline
protocol StatsSink {
    mutating func node()
    mutating func box(passed: Bool)
    mutating func exact(hit: Bool)
}

@usableFromInline
struct NoStats: StatsSink {
    @inlinable init() {}
    @inlinable @inline(__always) mutating func node() {}
    @inlinable @inline(__always) mutating func box(passed: Bool) {}
    @inlinable @inline(__always) mutating func exact(hit: Bool) {}
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
}
