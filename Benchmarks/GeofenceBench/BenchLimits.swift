/// Upper bounds of the bench's count options, where the work (not the memory) is what grows:
/// a value past them would run for hours. Memory-bound counts are checked with
/// ``MemoryBudget`` instead.
enum BenchLimits {
    /// Timed repetitions (`--reps`, `--runs`).
    static let maxReps = 1_000
    /// Rows of the POI file `poi` writes and loads (`--rows`): 100 M rows, about 7 GB.
    static let maxPOIRows = 100_000_000
    /// Queries of `poi` (`--queries`).
    static let maxQueries = 100_000_000
    /// Neighbors per query of `poi` (`--k`): the POI index's own limit.
    static let maxNeighbors = 10_000
    /// Devices of `generate` (`--devices`): device ids are 32-bit.
    static let maxDevices = Int(Int32.max)
    /// Simulated minutes of `responders` (`--minutes`): one week.
    static let maxMinutes = 7 * 24 * 60
}
