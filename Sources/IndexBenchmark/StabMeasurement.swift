import SpatialIndex
import Statistics

/// What one index did on one workload: the one stabbing harness of the bench's `stab` and
/// `suite` commands and of the benchmark report.
public struct StabMeasurement: Sendable {
    public var kind: IndexKind
    public var fences: Int
    public var fixes: Int
    /// Whether the fixes went to the index one call per fix (else through the batch entry point).
    public var perFix: Bool
    /// Hits and checksum (equal in every timed repetition).
    public var totals: StabTotals
    /// Seconds to build the index.
    public var buildSeconds: Double
    /// All timed repetitions, in run order (the warm-up is not among them).
    public var querySecondsRuns: [Double]
    /// Candidate counters over every `1 / statsSampleShare`-th fix.
    public var stats: QueryStats
    /// Share of fixes the candidate counters saw (1 = every fix).
    public var statsSampleShare: Double
    /// Bytes of the index's own storage; nil for the brute-force list and the cell index, which
    /// cannot tell.
    public var indexBytes: Int?

    /// Median over the timed repetitions.
    public var querySeconds: Double { OrderStatistics.median(querySecondsRuns) }
    public var fixesPerSecond: Double { Double(fixes) / querySeconds }
    public var nanosecondsPerFix: Double { querySeconds * 1e9 / Double(fixes) }
    public var hitsPerFix: Double { Double(totals.hits) / Double(max(fixes, 1)) }

    /// The tree, grid and cell-index shapes a measurement may override (tuning runs); nil is
    /// the default.
    public struct Tuning: Sendable {
        public var nodeSize: Int?, leafSize: Int?, cellsPerRadius: Double?, keyLevel: Int?
        public init(nodeSize: Int? = nil, leafSize: Int? = nil, cellsPerRadius: Double? = nil, keyLevel: Int? = nil) {
            self.nodeSize = nodeSize
            self.leafSize = leafSize
            self.cellsPerRadius = cellsPerRadius
            self.keyLevel = keyLevel
        }
    }

    /// Why a measurement cannot be made.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Builds the index of `kind` over `fences` (and `polygons`, which only `cell` holds) and measures it: one warm-up and `repetitions`
    /// timed runs over every fix of `input` (each must give the same totals), then the candidate
    /// counters over every `statsStride`-th fix. Each case calls the generic measurement with a
    /// concrete type so the hot loop is specialized (no existential dispatch per fix).
    /// - Throws: the index's own error when it cannot be built (`GeofenceError`); ``Refusal``
    ///   for polygons given to an index other than `cell`.
    public static func measure(
        _ kind: IndexKind, fences: [Fence], polygons: [PolygonFence] = [], input: StabInput, repetitions: Int,
        statsStride: Int = 1, tuning: Tuning = Tuning(), progress: (String) -> Void = { _ in }
    ) throws -> StabMeasurement {
        if !polygons.isEmpty && kind != .cell { throw Refusal(description: "only the cell index holds polygon fences") }
        let clock = ContinuousClock()
        let start = clock.now
        switch kind {
        case .cell:
            let index = CellFenceIndex(circles: fences, polygons: polygons, level: tuning.keyLevel ?? 16)
            return measure(index, kind, build: seconds(clock.now - start), input, repetitions, statsStride, nil, progress)
        case .packed:
            let index = PackedRTree(fences, nodeSize: tuning.nodeSize, leafSize: tuning.leafSize ?? 8)
            return measure(index, kind, build: seconds(clock.now - start), input, repetitions, statsStride, index.memoryBytes, progress)
        case .dynamic:
            var index = DynamicRTree()
            for f in fences { try index.insert(f) }
            return measure(index, kind, build: seconds(clock.now - start), input, repetitions, statsStride, index.memoryBytes, progress)
        case .brute:
            let index = BruteForceIndex(fences)
            return measure(index, kind, build: seconds(clock.now - start), input, repetitions, statsStride, nil, progress)
        case .grid:
            let index = try LatLngGridIndex(fences, cellsPerRadius: tuning.cellsPerRadius)
            return measure(index, kind, build: seconds(clock.now - start), input, repetitions, statsStride, index.memoryBytes, progress)
        }
    }

    @inline(never)
    static func measure<I: FenceIndex & Sendable>(
        _ index: I, _ kind: IndexKind, build: Double, _ input: StabInput, _ repetitions: Int,
        _ statsStride: Int, _ bytes: Int?, _ progress: (String) -> Void
    ) -> StabMeasurement {
        let perFix = input.perFix || !kind.hasBatchQuery
        let clock = ContinuousClock()
        var runs: [Double] = []
        var totals = StabTotals()
        for rep in 0...max(1, repetitions) {  // run 0 is a warm-up, thrown away
            progress(rep == 0 ? "warm-up" : "run \(rep)/\(repetitions)")
            let t0 = clock.now
            let result = stabAll(index, input, perFix: perFix)
            let elapsed = seconds(clock.now - t0)
            if rep > 0 { runs.append(elapsed) }
            precondition(rep == 0 || result == totals, "non-deterministic stabbing result")
            totals = result
        }
        progress("counting candidates")
        let stats = candidateStats(index, input, stride: statsStride)
        return StabMeasurement(
            kind: kind, fences: index.count, fixes: input.latitude.count, perFix: perFix, totals: totals,
            buildSeconds: build, querySecondsRuns: runs, stats: stats, statsSampleShare: 1 / Double(statsStride),
            indexBytes: bytes)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
