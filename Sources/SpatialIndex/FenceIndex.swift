import Geodesy

/// Which distance orders a nearest-fence query.
public enum FenceDistance: Hashable, Sendable {
    /// Great-circle distance from the point to the fence center, meters (>= 0).
    case center
    /// Distance to the fence edge: center distance minus radius, meters; negative inside.
    case edge
}

/// One answer of a nearest-fence query.
public struct FenceNeighbor: Hashable, Sendable, CustomStringConvertible {
    /// The fence id.
    public var id: Int32
    /// Distance in meters by the query's ``FenceDistance`` (sphere of radius `Earth.meanRadius`).
    public var distanceMeters: Double

    /// The fence `id` at `distanceMeters` (by the query's measure).
    @inlinable
    public init(id: Int32, distanceMeters: Double) {
        self.id = id
        self.distanceMeters = distanceMeters
    }

    /// The order of nearest-query results: distance, then id.
    @inlinable
    public static func precedes(_ a: FenceNeighbor, _ b: FenceNeighbor) -> Bool {
        a.distanceMeters < b.distanceMeters || (a.distanceMeters == b.distanceMeters && a.id < b.id)
    }

    /// `id@distance m`, for debugging.
    public var description: String { "\(id)@\(distanceMeters)m" }
}

/// The queries every fence index answers. Points are unit vectors (`LatLng/unitVector`).
///
/// Use it for tests and tools that treat indexes alike; hot loops should call the concrete
/// type's `@inlinable` methods (or be generic over `FenceIndex` and get specialised), never go
/// through an existential `any FenceIndex` per fix.
public protocol FenceIndex {
    /// Number of fences indexed.
    var count: Int { get }

    /// Calls `body` with the id of every fence that contains `p` (boundary inclusive), in an
    /// index-specific order, each once.
    func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void)

    /// As ``forEachContaining(_:_:)``, adding the work done to `stats`.
    func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void)

    /// Calls `body` with the id of every fence that contains the fix at (`latitude`,
    /// `longitude`) in degrees: the answer of ``forEachContaining(_:_:)`` for
    /// `UnitVector(fastLatitude: latitude, longitude: longitude)`. A latitude outside
    /// [-90, 90] or a non-finite coordinate matches nothing. Indexes that look fixes up by
    /// their degrees (``LatLngGridIndex``, ``PackedRTree``) skip the conversion where no fence is near.
    func forEachContaining(latitude: Double, longitude: Double, _ body: (Int32) -> Void)

    /// As ``forEachContaining(latitude:longitude:_:)``, adding the work done to `stats`.
    func forEachContaining(
        latitude: Double, longitude: Double, stats: inout QueryStats,
        _ body: (Int32) -> Void)

    /// The stabbing query for a batch of fixes in degrees: hands `body` every (fix, fence) pair
    /// with fence `fence` containing fix `fix` (`latitudes[fix]`, `longitudes[fix]`; answers as
    /// ``forEachContaining(latitude:longitude:_:)``), in chunks of at most ``StabHit/chunkSize`` pairs, in an
    /// index-specific order (not necessarily by fix). A chunk is valid only during the call.
    /// - Precondition: `latitudes.count == longitudes.count < 2^31`.
    func forEachContaining(
        latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
        _ body: (UnsafeBufferPointer<StabHit>) -> Void)

    /// Calls `body` with the id of every fence whose center lies within `meters` of `p`
    /// (great circle, inclusive). A negative or NaN distance matches nothing.
    func forEachWithin(meters: Double, of p: UnitVector, _ body: (Int32) -> Void)

    /// Replaces `results` with the `k` fences nearest to `p` by `measure`, with distance
    /// `<= maxDistanceMeters`, ordered by (distance, id). Allocates nothing once `results` has
    /// room for `k` (reuse the array): the trees' search frontier lives on the stack unless it
    /// outgrows 256 entries.
    func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance, maxDistanceMeters: Double,
        into results: inout [FenceNeighbor])
}

extension FenceIndex {
    /// One fix at a time through ``forEachContaining(latitude:longitude:_:)``, the pairs gathered
    /// in chunks of ``StabHit/chunkSize`` (the ``DynamicRTree``'s batch query). Not inlinable:
    /// from another module the per-hit closure keeps its count in memory, so direct per-fix
    /// calls are as fast or faster there (measured with the packed tree at 3k fences: 156 ns
    /// per fix against 126 ns).
    /// - Precondition: `latitudes` and `longitudes` have the same count, below `Int32.max`.
    public func forEachContaining(
        latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
        _ body: (UnsafeBufferPointer<StabHit>) -> Void
    ) {
        precondition(
            latitudes.count == longitudes.count && latitudes.count < Int(Int32.max),
            "latitudes and longitudes differ in count, or too many fixes")
        withUnsafeTemporaryAllocation(of: StabHit.self, capacity: StabHit.chunkSize) { chunk in
            var n = 0
            for k in 0..<latitudes.count {
                let fix = Int32(truncatingIfNeeded: k)
                forEachContaining(latitude: latitudes[k], longitude: longitudes[k]) {
                    if n == StabHit.chunkSize {
                        body(UnsafeBufferPointer(chunk))
                        n = 0
                    }
                    chunk[n] = StabHit(fence: $0, fix: fix)
                    n &+= 1
                }
            }
            if n > 0 { body(UnsafeBufferPointer(rebasing: chunk[0..<n])) }
        }
    }

    /// The fences containing the fix at `latitude`, `longitude` (degrees), through
    /// ``forEachContaining(_:_:)`` with `UnitVector(fastLatitude:longitude:)`.
    @inlinable
    public func forEachContaining(latitude: Double, longitude: Double, _ body: (Int32) -> Void) {
        guard latitude >= -90 && latitude <= 90 && longitude.isFinite else { return }
        forEachContaining(UnitVector(fastLatitude: latitude, longitude: longitude), body)
    }

    /// As ``forEachContaining(latitude:longitude:_:)``, counting the work in `stats`.
    @inlinable
    public func forEachContaining(
        latitude: Double, longitude: Double, stats: inout QueryStats,
        _ body: (Int32) -> Void
    ) {
        guard latitude >= -90 && latitude <= 90 && longitude.isFinite else { return }
        forEachContaining(UnitVector(fastLatitude: latitude, longitude: longitude), stats: &stats, body)
    }

    /// Replaces the contents of `buffer` (keeping its capacity) with the ids of the fences that
    /// contain `p`, in index order; returns their number.
    @inlinable
    public func stab(_ p: UnitVector, into buffer: inout [Int32]) -> Int {
        buffer.removeAll(keepingCapacity: true)
        forEachContaining(p) { buffer.append($0) }
        return buffer.count
    }

    /// The ids of the fences that contain `p`, ascending. Allocates; see ``stab(_:into:)``.
    @inlinable
    public func fencesContaining(_ p: UnitVector) -> [Int32] {
        var out: [Int32] = []
        forEachContaining(p) { out.append($0) }
        out.sort()
        return out
    }

    /// Replaces `buffer` with the ids of the fences whose center is within `meters` of `p`;
    /// returns their number.
    @inlinable
    public func within(meters: Double, of p: UnitVector, into buffer: inout [Int32]) -> Int {
        buffer.removeAll(keepingCapacity: true)
        forEachWithin(meters: meters, of: p) { buffer.append($0) }
        return buffer.count
    }

    /// The ids of the fences whose center is within `meters` of `p`, ascending.
    @inlinable
    public func fences(withinMeters meters: Double, of p: UnitVector) -> [Int32] {
        var out: [Int32] = []
        forEachWithin(meters: meters, of: p) { out.append($0) }
        out.sort()
        return out
    }

    /// The `k` nearest fences, ordered by (distance, id). Allocates its result.
    @inlinable
    public func nearest(
        to p: UnitVector, k: Int, by measure: FenceDistance = .center,
        maxDistanceMeters: Double = .infinity
    ) -> [FenceNeighbor] {
        var out: [FenceNeighbor] = []
        nearest(to: p, k: k, by: measure, maxDistanceMeters: maxDistanceMeters, into: &out)
        return out
    }
}

/// One hit of a batch stabbing query: fix `fix` (its position in the batch) lies in fence `fence`.
public struct StabHit: Hashable, Sendable {
    /// The fence's id.
    public var fence: Int32
    /// The fix's position in the batch (0-based).
    public var fix: Int32

    /// The hit of fix `fix` in fence `fence`.
    @inlinable
    public init(fence: Int32, fix: Int32) {
        self.fence = fence
        self.fix = fix
    }

    /// Most pairs in one chunk handed to the caller.
    public static let chunkSize = 1024
}

/// The checksum of a stabbing run over a fixes file: the wrapping `UInt64` sum over all hits of
/// `fix_index &* 1_000_003 &+ fence_id`, where `fix_index` is the fix's 0-based row in the file
/// and the fence id is taken as its 32-bit pattern. Order-independent, so batched, per-fix and
/// threaded runs agree.
public enum StabChecksum {
    /// One hit's term of the sum.
    @inlinable @inline(__always)
    public static func term(fixIndex: UInt64, fence: Int32) -> UInt64 {
        fixIndex &* 1_000_003 &+ UInt64(UInt32(bitPattern: fence))
    }
}
