import Geodesy

/// The reference index: a linear scan of every fence with the squared-chord test.
///
/// Representation: fences in the order given, as flat arrays (`data` holds x, y, z, chord2 per
/// fence). Answers are the definition the tree indexes are tested against.
/// - Complexity: O(n) per query; O(n log n) for ``nearest(to:k:by:maxDistanceMeters:into:)``.
public struct BruteForceIndex: FenceIndex, Sendable {
    /// x, y, z, chord2 per fence.
    @usableFromInline var data: [Double]
    @usableFromInline var ids: [Int32]
    @usableFromInline var radii: [Double]

    /// An index over `fences`, in order.
    public init(_ fences: some Sequence<Fence>) {
        data = []
        ids = []
        radii = []
        for f in fences {
            data.append(f.centerVector.x)
            data.append(f.centerVector.y)
            data.append(f.centerVector.z)
            data.append(f.chord2)
            ids.append(f.id)
            radii.append(f.radiusMeters)
        }
    }

    /// Number of fences.
    @inlinable public var count: Int { ids.count }

    /// Calls `body` with the id of every fence containing `p`, in fence order. O(n).
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        scan(p, &s, body)
    }

    /// As ``forEachContaining(_:_:)``, counting every fence as an exact test in `stats`.
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        scan(p, &stats, body)
    }

    @inlinable
    func scan<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        data.withUnsafeBufferPointer { d in
            ids.withUnsafeBufferPointer { ids in
                for i in 0..<ids.count {
                    let o = i &* 4
                    let inside = squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2]) <= d[o &+ 3]
                    stats.exact(hit: inside)
                    if inside { body(ids[i]) }
                }
            }
        }
    }

    /// Calls `body` with the id of every fence whose edge is within `meters` of `p`. O(n).
    @inlinable
    public func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void) {
        let limit = Fence.chord2(forRadiusMeters: meters)
        data.withUnsafeBufferPointer { d in
            for i in 0..<ids.count {
                let o = i &* 4
                if squaredChord(p.x, p.y, p.z, d[o], d[o &+ 1], d[o &+ 2]) <= limit { body(ids[i]) }
            }
        }
    }

    /// The `k` fences nearest to `p` by `measure`, within `maxDistanceMeters`, nearest first (ties
    /// by id), into `results`. O(n log k).
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance,
        maxDistanceMeters: Double, into results: inout [FenceNeighbor]
    ) {
        results.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        for i in 0..<ids.count {
            let o = i * 4
            var d = meters(forChord2: squaredChord(p.x, p.y, p.z, data[o], data[o + 1], data[o + 2]))
            if measure == .edge { d -= radii[i] }
            if d <= maxDistanceMeters { NearestSelection.offer(FenceNeighbor(id: ids[i], distanceMeters: d), k: k, into: &results) }
        }
        NearestSelection.finish(&results)
    }
}
