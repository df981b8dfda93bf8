import Dispatch
import Geodesy
import SpatialIndex
import Workloads

/// The outcome of streaming fixes through an index: the hit count and checksum of docs/WORKLOADS.md.
public struct StabTotals: Equatable, Sendable {
    public var hits = 0
    /// `StabChecksum` of the hits.
    public var checksum: UInt64 = 0

    public init(hits: Int = 0, checksum: UInt64 = 0) {
        self.hits = hits
        self.checksum = checksum
    }

    public static func + (a: StabTotals, b: StabTotals) -> StabTotals {
        StabTotals(hits: a.hits + b.hits, checksum: a.checksum &+ b.checksum)
    }
}

/// Fixes as flat coordinate arrays, split into one contiguous part per thread (all fixes of a
/// device in one part) before timing.
public struct StabInput: @unchecked Sendable {
    /// One thread's fixes: degrees, and each fix's row in fixes.csv (nil: rows 0, 1, 2, ...).
    public struct Part: Sendable {
        public let latitude: [Double]
        public let longitude: [Double]
        public let rows: [Int32]?
    }

    public let latitude: [Double]
    public let longitude: [Double]
    public let parts: [Part]
    /// Whether the timed loop must call every index once per fix
    /// (`forEachContaining(latitude:longitude:_:)`); else indexes with a batch query of their
    /// own (``IndexKind/hasBatchQuery``) get the fixes once per part.
    public let perFix: Bool

    /// The fixes of `fixes`, split by device over `threads` parts (one part when `threads` <= 1).
    public init(_ fixes: FixStream, threads: Int, perFix: Bool = false) {
        latitude = fixes.latitude
        longitude = fixes.longitude
        self.perFix = perFix
        if threads <= 1 {
            parts = [Part(latitude: fixes.latitude, longitude: fixes.longitude, rows: nil)]
        } else {
            var rows = [[Int32]](repeating: [], count: threads)
            for k in 0..<fixes.count {
                rows[Int(fixes.device[k].magnitude) % threads].append(Int32(k))
            }
            parts = rows.map { r in
                Part(latitude: r.map { fixes.latitude[Int($0)] }, longitude: r.map { fixes.longitude[Int($0)] }, rows: r)
            }
        }
    }
}

/// Streams every fix through `index` and sums the hits. The conversion from degrees to a unit
/// vector is inside the timed loop, as the peers do it (indexes that need it use Geodesy's
/// libm-free `UnitVector(fastLatitude:longitude:)`: about 10 ns instead of 35 ns; hits and
/// checksums of the p1000/p10000/p100000 workloads are identical to the S2-compatible
/// `LatLng.unitVector`).
@inline(never)
public func stabAll<I: FenceIndex & Sendable>(_ index: I, _ input: StabInput, perFix: Bool) -> StabTotals {
    if input.parts.count == 1 {
        return stabPart(index, input.parts[0], perFix: perFix)
    }
    let parts = input.parts
    let results = UnsafeMutableBufferPointer<StabTotals>.allocate(capacity: parts.count)
    results.initialize(repeating: StabTotals())
    defer { results.deallocate() }
    let box = UncheckedBox(results)
    DispatchQueue.concurrentPerform(iterations: parts.count) { t in
        box.value[t] = stabPart(index, parts[t], perFix: perFix)
    }
    return results.reduce(StabTotals(), +)
}

@inline(__always)
func stabPart<I: FenceIndex>(_ index: I, _ part: StabInput.Part, perFix: Bool) -> StabTotals {
    var hits = 0
    var checksum: UInt64 = 0
    part.latitude.withUnsafeBufferPointer { lat in
        part.longitude.withUnsafeBufferPointer { lon in
            if perFix {
                for k in 0..<lat.count {
                    let row = UInt64(part.rows.map { Int($0[k]) } ?? k)
                    index.forEachContaining(latitude: lat[k], longitude: lon[k]) { id in
                        hits &+= 1
                        checksum &+= StabChecksum.term(fixIndex: row, fence: id)
                    }
                }
            } else {
                // Totals per chunk in locals (registers), added up once per chunk.
                index.forEachContaining(latitudes: lat, longitudes: lon) { chunk in
                    var sum: UInt64 = 0
                    if let rows = part.rows {
                        for hit in chunk {
                            sum &+= StabChecksum.term(fixIndex: UInt64(rows[Int(hit.fix)]), fence: hit.fence)
                        }
                    } else {
                        for hit in chunk {
                            sum &+= StabChecksum.term(fixIndex: UInt64(UInt32(bitPattern: hit.fix)), fence: hit.fence)
                        }
                    }
                    hits &+= chunk.count
                    checksum &+= sum
                }
            }
        }
    }
    return StabTotals(hits: hits, checksum: checksum)
}

/// Counts candidates (exact tests) over every `stride`-th fix; not timed.
public func candidateStats<I: FenceIndex>(_ index: I, _ input: StabInput, stride step: Int) -> QueryStats {
    var stats = QueryStats()
    for q in Swift.stride(from: 0, to: input.latitude.count, by: step) {
        index.forEachContaining(latitude: input.latitude[q], longitude: input.longitude[q], stats: &stats) { _ in }
    }
    return stats
}

/// Lets a closure run on several threads write disjoint slots of one buffer.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
