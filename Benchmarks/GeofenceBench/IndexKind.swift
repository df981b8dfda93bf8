#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SpatialIndex
import CommandSupport
import FastCSV
import Statistics

/// The indexes the benchmark can run, by their `--index` names.
enum IndexKind: String, CaseIterable {
    case packed, dynamic, grid, brute, cell

    /// The circle indexes the suite measures (`cell`, the index of polygon fences, is run by name).
    static var available: [IndexKind] { [.packed, .dynamic, .grid, .brute] }

    /// Whether the index has a batch query of its own (the packed tree's goes down level by
    /// level for 64 fixes at a time, the grid index's looks up a block's cells first). The
    /// dynamic tree's batch entry point is the generic one-fix-at-a-time loop: measured against
    /// calling it per fix directly, it was as fast at 3k fences but 6-9 % slower at 30k, so it
    /// is called per fix.
    var hasBatchQuery: Bool { self == .grid || self == .packed }

    var label: String {
        switch self {
        case .packed: return "PackedRTree"
        case .dynamic: return "DynamicRTree"
        case .grid: return "LatLngGridIndex"
        case .brute: return "BruteForce"
        case .cell: return "CellFenceIndex"
        }
    }
}

/// What one index did on one workload.
struct Measurement {
    var kind: IndexKind
    var fences: Int
    var fixes: Int
    var threads: Int
    /// Whether the fixes went to the index one call per fix (else through the batch entry point).
    var perFix: Bool
    var totals: StabTotals
    var buildSeconds: Double
    /// Median over the timed repetitions.
    var querySeconds: Double
    /// All timed repetitions, in run order.
    var querySecondsRuns: [Double]
    var stats: QueryStats
    /// Share of fixes the candidate counters saw (1 = every fix).
    var statsSampleShare: Double
    var indexBytes: Int
    var peakRSSMegabytes: Double

    var fixesPerSecond: Double { Double(fixes) / querySeconds }
    var nanosecondsPerFix: Double { querySeconds * 1e9 / Double(fixes) }
    var hitsPerFix: Double { Double(totals.hits) / Double(max(fixes, 1)) }
}

/// Builds the index of `kind` and measures it; each case calls the generic measurement with a
/// concrete type so the hot loop is specialised (no existential dispatch per fix).
func measure(
    _ kind: IndexKind, fences: [Fence], polygons: [PolygonFence] = [], input: StabInput, threads: Int, reps: Int,
    statsStride: Int, cellsPerRadius: Double? = nil, progress: (String) -> Void
) throws(BenchError) -> Measurement {
    if !polygons.isEmpty && kind != .cell { throw BenchError("only the cell index holds polygon fences") }
    let start = monotonicSeconds()
    switch kind {
    case .cell:
        let index = CellFenceIndex(circles: fences, polygons: polygons, level: benchKeyLevel ?? 16)
        return measure(index, kind, build: monotonicSeconds() - start, input, threads, reps, statsStride, progress)
    case .packed:
        let index = PackedRTree(fences, nodeSize: benchNodeSize, leafSize: benchLeafSize ?? 8)
        return measure(index, kind, build: monotonicSeconds() - start, input, threads, reps, statsStride, progress)
    case .dynamic:
        var index = DynamicRTree()
        do {
            for f in fences { try index.insert(f) }
        } catch { throw BenchError("dynamic tree: \(error)") }
        return measure(index, kind, build: monotonicSeconds() - start, input, threads, reps, statsStride, progress)
    case .brute:
        let index = BruteForceIndex(fences)
        return measure(index, kind, build: monotonicSeconds() - start, input, threads, reps, statsStride, progress)
    case .grid:
        let index: LatLngGridIndex
        do {
            index = try LatLngGridIndex(fences, cellsPerRadius: cellsPerRadius)
        } catch { throw BenchError("\(error)") }
        return measure(index, kind, build: monotonicSeconds() - start, input, threads, reps, statsStride, progress)
    }
}

@inline(never)
func measure<I: FenceIndex & Sendable>(
    _ index: I, _ kind: IndexKind, build: Double, _ input: StabInput, _ threads: Int,
    _ reps: Int, _ statsStride: Int, _ progress: (String) -> Void
) -> Measurement {
    let perFix = input.perFix || !kind.hasBatchQuery
    var runs: [Double] = []
    var totals = StabTotals()
    for rep in 0...reps {  // run 0 is a warm-up, thrown away
        progress(rep == 0 ? "warm-up" : "run \(rep)/\(reps)")
        let t0 = monotonicSeconds()
        let result = stabAll(index, input, perFix: perFix)
        let seconds = monotonicSeconds() - t0
        if rep > 0 { runs.append(seconds) }
        precondition(rep == 0 || result == totals, "non-deterministic stabbing result")
        totals = result
    }
    progress("counting candidates")
    let stats = candidateStats(index, input, stride: statsStride)
    return Measurement(
        kind: kind, fences: index.count, fixes: input.latitude.count, threads: threads, perFix: perFix,
        totals: totals,
        buildSeconds: build, querySeconds: OrderStatistics.median(runs), querySecondsRuns: runs, stats: stats,
        statsSampleShare: 1 / Double(statsStride), indexBytes: indexMemoryBytes(index),
        peakRSSMegabytes: ProcessStats.peakRSSMegabytes())
}

/// Bytes of the index's own storage where the index can tell, else 0.
func indexMemoryBytes<I: FenceIndex>(_ index: I) -> Int {
    (index as? any MemoryReporting)?.memoryBytes ?? 0
}

/// Indexes that can tell the bytes of their own storage.
protocol MemoryReporting { var memoryBytes: Int { get } }
extension PackedRTree: MemoryReporting {}
extension DynamicRTree: MemoryReporting {}
extension LatLngGridIndex: MemoryReporting {}

/// The range of `GEOFENCE_BENCH_CELLS_PER_RADIUS`: the grid's default is 2.25 to 4.
let benchCellsPerRadiusRange = 0.25...16.0

/// `GEOFENCE_BENCH_CELLS_PER_RADIUS` (tuning only): overrides ``LatLngGridIndex``'s default;
/// nil when unset.
/// - Throws: ``UsageError`` naming the variable and its range when the value is not a number in
///   ``benchCellsPerRadiusRange``.
func benchCellsPerRadius() throws(UsageError) -> Double? {
    guard let raw = getenv("GEOFENCE_BENCH_CELLS_PER_RADIUS") else { return nil }
    let text = String(cString: raw)
    guard let value = Double(text), benchCellsPerRadiusRange.contains(value) else {
        throw UsageError(
            "environment variable GEOFENCE_BENCH_CELLS_PER_RADIUS expects a number in "
                + "\(benchCellsPerRadiusRange.lowerBound)...\(benchCellsPerRadiusRange.upperBound), got '\(MessageText.clipped(text))'")
    }
    return value
}

/// The packed tree's node and leaf sizes for tuning runs: `GEOFENCE_BENCH_NODE_SIZE` (2...1024)
/// and `GEOFENCE_BENCH_LEAF_SIZE` (1...256); unset, invalid or out of range means the default.
let benchNodeSize: Int? = benchEnvInt("GEOFENCE_BENCH_NODE_SIZE", in: 2...PackedRTree.maxNodeSize)
let benchLeafSize: Int? = benchEnvInt("GEOFENCE_BENCH_LEAF_SIZE", in: 1...PackedRTree.maxLeafSize)
/// The cell index's key level for tuning runs: `GEOFENCE_BENCH_KEY_LEVEL` (0...30); unset,
/// invalid or out of range means the default (16).
let benchKeyLevel: Int? = benchEnvInt("GEOFENCE_BENCH_KEY_LEVEL", in: 0...30)

func benchEnvInt(_ name: String, in range: ClosedRange<Int>) -> Int? {
    guard let text = getenv(name), let value = Int(String(cString: text)), range.contains(value) else { return nil }
    return value
}
