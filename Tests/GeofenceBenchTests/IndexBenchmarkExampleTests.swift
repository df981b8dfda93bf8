import IndexBenchmark
import SpatialIndex
import Testing
import Workloads

/// The example of the IndexBenchmark catalog's landing article, line for line.
@Suite struct IndexBenchmarkExampleTests {
    @Test func twoIndexesAgreeOnTheSameFixes() throws {
        let spec = WorkloadSpec(pois: 1_000, devices: 100, fixes: 10_000, seed: 1, noise: .gaussian)
        let fences = try WorkloadGenerator.fences(spec).map {
            try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius)
        }
        let input = StabInput(WorkloadGenerator.fixes(spec), threads: 1)
        let grid = try StabMeasurement.measure(.grid, fences: fences, input: input, repetitions: 3)
        let packed = try StabMeasurement.measure(.packed, fences: fences, input: input, repetitions: 3)
        #expect(grid.totals == packed.totals)
        #expect(grid.totals.hits > 0)
        #expect(grid.fixes == 10_000 && grid.fences == 3_000)
        #expect(grid.fixesPerSecond > 0 && packed.fixesPerSecond > 0)
    }
}
