import GeoCells
import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct CellIndexTests {
    @Test(arguments: [(UInt64(41), 0), (42, 1), (43, 30), (44, 400)])
    func matchesBruteForce(seed: UInt64, count: Int) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(200, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for (fraction, step) in [(0.5, 1), (0.2, 3), (2.0, 1)] {
            let index = CellIndex(fences, cellEdgeFraction: fraction, levelStep: step)
            IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: seed,
                                          "cells(fraction \(fraction), step \(step))")
        }
    }

    /// Fences of the workload's kind (1, 3, 5 miles) share one level (the median's), and a fix at
    /// a fence centre is accepted from interior cells without distance tests.
    @Test func interiorCellsAcceptWithoutTests() throws {
        let centre = try LatLng(latitude: 40.7128, longitude: -74.006)
        let fences = try [1609.344, 4828.032, 8046.72].enumerated().map {
            try Fence(id: Int32($0.offset), centre: centre, radiusMeters: $0.element)
        }
        let index = CellIndex(fences)
        #expect(index.coverLevels == [11])  // ~4.5 km cells: the 3-mile median's level
        // A fence much larger than the median gets a coarser level of its own.
        let big = CellIndex(fences + [try Fence(id: 9, centre: centre, radiusMeters: 500_000)])
        #expect(big.coverLevels.count == 2 && big.coverLevels[0] == 11 && big.coverLevels[1] < 11)
        var stats = QueryStats()
        var got: [Int32] = []
        index.forEachContaining(centre.unitVector, stats: &stats) { got.append($0) }
        #expect(got.sorted() == [0, 1, 2])
        #expect(stats.acceptedWithoutTest >= 2, "the 3- and 5-mile fences have interior cells at their centre")
        #expect(stats.hits == 3 && stats.candidates == 3 && stats.falsePositiveRate == 0)
        #expect(index.cellCount > 0 && index.entryCount >= index.cellCount)
    }

    @Test func fixtureAnswers() throws {
        let index = CellIndex(try GeofenceFixture.fences())
        for q in try GeofenceFixture.queries() {
            #expect(index.fencesContaining(q.point.unitVector) == q.hits, "query \(q.qid) (\(q.category))")
        }
    }
}
