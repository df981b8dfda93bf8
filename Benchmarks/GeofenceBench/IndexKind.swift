#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SpatialIndex
import CommandSupport
import FastCSV
import IndexBenchmark

extension IndexKind {
    /// The circle indexes the suite measures (`cell`, the index of polygon fences, is run by name).
    static var available: [IndexKind] { [.packed, .dynamic, .grid, .brute] }
}

/// What one index did on one workload (``StabMeasurement``), with the threads it ran on and the
/// process's peak resident memory after it.
@dynamicMemberLookup
struct Measurement {
    var stab: StabMeasurement
    var threads: Int
    var peakRSSMegabytes: Double

    subscript<T>(dynamicMember path: KeyPath<StabMeasurement, T>) -> T { stab[keyPath: path] }

    /// Bytes of the index's own storage, 0 where the index cannot tell.
    var indexBytes: Int { stab.indexBytes ?? 0 }
}

/// Builds the index of `kind` and measures it with the one stabbing harness
/// (``StabMeasurement/measure(_:fences:input:repetitions:statsStride:tuning:progress:)``), with
/// the tuning overrides of the environment.
func measure(
    _ kind: IndexKind, fences: [Fence], polygons: [PolygonFence] = [], input: StabInput, threads: Int, reps: Int,
    statsStride: Int, cellsPerRadius: Double? = nil, progress: (String) -> Void
) throws(BenchError) -> Measurement {
    let stab: StabMeasurement
    do {
        stab = try StabMeasurement.measure(
            kind, fences: fences, polygons: polygons, input: input, repetitions: reps, statsStride: statsStride,
            tuning: StabMeasurement.Tuning(
                nodeSize: benchNodeSize, leafSize: benchLeafSize, cellsPerRadius: cellsPerRadius, keyLevel: benchKeyLevel),
            progress: progress)
    } catch {
        throw BenchError(kind == .dynamic ? "dynamic tree: \(error)" : "\(error)")
    }
    return Measurement(stab: stab, threads: threads, peakRSSMegabytes: ProcessStats.peakRSSMegabytes())
}

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
