import Dispatch
import Geodesy
import SpatialIndex
import Simulation

/// The outcome of streaming fixes through an index: DESIGN.md's hit count and checksum.
struct StabTotals: Equatable {
    var hits = 0
    /// Wrapping sum over hits of `fix_index &* 1_000_003 &+ fence_id`.
    var checksum: UInt64 = 0

    static func + (a: StabTotals, b: StabTotals) -> StabTotals {
        StabTotals(hits: a.hits + b.hits, checksum: a.checksum &+ b.checksum)
    }
}

/// Fixes as flat coordinate arrays plus, for multi-threaded runs, the rows of each partition.
struct StabInput: @unchecked Sendable {
    let latitude: [Double]
    let longitude: [Double]
    /// Row lists per thread (all rows of a device go to one thread), or empty for one thread.
    let partitions: [[Int32]]

    init(_ fixes: FixStream, threads: Int) {
        latitude = fixes.latitude
        longitude = fixes.longitude
        if threads <= 1 {
            partitions = []
        } else {
            var parts = [[Int32]](repeating: [], count: threads)
            for k in 0..<fixes.count {
                parts[Int(fixes.device[k]) % threads].append(Int32(k))
            }
            partitions = parts
        }
    }
}

/// Streams every fix through `index` and sums the hits. The conversion from degrees to a unit
/// vector is inside the timed loop, as the peers do it; it uses Geodesy's libm-free
/// `UnitVector(fastLatitude:longitude:)` (about 10 ns instead of 35 ns; hits and checksums of the
/// p1000/p10000/p100000 workloads are identical to the S2-compatible `LatLng.unitVector`).
@inline(never)
func stabAll<I: FenceIndex & Sendable>(_ index: I, _ input: StabInput) -> StabTotals {
    if input.partitions.isEmpty {
        return stabRows(index, input, rows: nil)
    }
    let parts = input.partitions
    let results = UnsafeMutableBufferPointer<StabTotals>.allocate(capacity: parts.count)
    results.initialize(repeating: StabTotals())
    defer { results.deallocate() }
    let box = UncheckedBox(results)
    DispatchQueue.concurrentPerform(iterations: parts.count) { t in
        box.value[t] = parts[t].withUnsafeBufferPointer { stabRows(index, input, rows: $0) }
    }
    return results.reduce(StabTotals(), +)
}

@inline(__always)
func stabRows<I: FenceIndex>(_ index: I, _ input: StabInput, rows: UnsafeBufferPointer<Int32>?) -> StabTotals {
    var hits = 0
    var checksum: UInt64 = 0
    input.latitude.withUnsafeBufferPointer { lat in
        input.longitude.withUnsafeBufferPointer { lon in
            let n = rows?.count ?? lat.count
            for r in 0..<n {
                let q = rows.map { Int($0[r]) } ?? r
                let base = UInt64(q) &* 1_000_003
                index.forEachContaining(latitude: lat[q], longitude: lon[q]) { id in
                    hits &+= 1
                    checksum &+= base &+ UInt64(UInt32(bitPattern: id))
                }
            }
        }
    }
    return StabTotals(hits: hits, checksum: checksum)
}

/// Counts candidates (exact tests) over every `stride`-th fix; not timed.
func candidateStats<I: FenceIndex>(_ index: I, _ input: StabInput, stride step: Int) -> QueryStats {
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
