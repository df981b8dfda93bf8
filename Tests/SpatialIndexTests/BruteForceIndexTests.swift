import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct BruteForceIndexTests {
    @Test func answersFromTheDefinition() throws {
        let fences = [
            try Fence(id: 7, latitude: 0, longitude: 0, radiusMeters: 1000),
            try Fence(id: 3, latitude: 0, longitude: 0.005, radiusMeters: 1000),
            try Fence(id: 9, latitude: 45, longitude: 179.9999, radiusMeters: 50_000)
        ]
        let brute = BruteForceIndex(fences)
        #expect(brute.count == 3)
        let p = LatLng(uncheckedLatitude: 0, longitude: 0.0025).unitVector  // ~278 m from both
        #expect(brute.fencesContaining(p) == [3, 7])
        let q = LatLng(uncheckedLatitude: 45, longitude: -179.9).unitVector  // across the antimeridian
        #expect(brute.fencesContaining(q) == [9])
        #expect(brute.fences(withinMeters: 300, of: p) == [3, 7])
        #expect(brute.fences(withinMeters: 100, of: p) == [])

        let near = brute.nearest(to: p, k: 2)
        #expect(near.map(\.id) == [3, 7] || near.map(\.id) == [7, 3])
        #expect(near.count == 2 && near[0].distanceMeters <= near[1].distanceMeters)
        let origin = LatLng(uncheckedLatitude: 0, longitude: 0).unitVector
        let byEdge = brute.nearest(to: origin, k: 3, by: .edge)
        #expect(byEdge.map(\.id) == [7, 3, 9])
        #expect(byEdge[0].distanceMeters == -1000)  // at the center: minus the radius
        #expect(brute.nearest(to: origin, k: 3, by: .center, maxDistanceMeters: 600).map(\.id) == [7, 3])
    }

    @Test func tiesAreBrokenByID() throws {
        let fences = (0..<5).reversed().map { try! Fence(id: Int32($0), latitude: 10, longitude: 10, radiusMeters: 5) }
        let brute = BruteForceIndex(fences)
        let p = LatLng(uncheckedLatitude: 10, longitude: 10.001).unitVector
        #expect(brute.nearest(to: p, k: 3).map(\.id) == [0, 1, 2])
    }

    @Test func emptyIndexAnswersNothing() {
        let brute = BruteForceIndex([])
        let p = LatLng(uncheckedLatitude: 1, longitude: 2).unitVector
        #expect(brute.fencesContaining(p).isEmpty)
        #expect(brute.nearest(to: p, k: 4).isEmpty)
    }

    @Test func fixtureAnswers() throws {
        let brute = BruteForceIndex(try GeofenceFixture.fences())
        let queries = try GeofenceFixture.queries()
        #expect(queries.count == 3000)
        for q in queries {
            #expect(brute.fencesContaining(q.point.unitVector) == q.hits, "query \(q.qid) (\(q.category))")
        }
    }
}

/// The bounded selection behind every index's nearest query, against a full sort.
@Suite struct NearestSelectionTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func equalsSortedPrefix(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let n = Int(rng.next() % 60)
            let k = Int(rng.next() % 20) + 1
            // Few distinct distances: many ties, broken by id.
            var items: [FenceNeighbor] = []
            for _ in 0..<n { items.append(FenceNeighbor(id: Int32(rng.next() % 1000), distanceMeters: Double(rng.next() % 8))) }
            var heap: [FenceNeighbor] = []
            for item in items { NearestSelection.offer(item, k: k, into: &heap) }
            NearestSelection.finish(&heap)
            let expected = Array(items.sorted(by: FenceNeighbor.precedes).prefix(k))
            #expect(heap == expected, "n \(n) k \(k), seed \(seed)")
        }
    }
}
