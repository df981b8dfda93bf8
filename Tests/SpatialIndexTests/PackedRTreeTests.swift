import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct PackedRTreeTests {
    @Test(arguments: [(UInt64(1), 0), (2, 1), (3, 17), (4, 300), (5, 2500)])
    func matchesBruteForce(seed: UInt64, count: Int) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(count == 2500 ? 400 : 250, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for nodeSize in [16, 2, 5] {
            let tree = PackedRTree(fences, nodeSize: nodeSize)
            IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: seed, "packed(\(nodeSize))")
        }
    }

    @Test func shapeIsArithmetic() {
        var rng = SplitMix64(seed: 6)
        let fences = TestWorld.fences(1000, &rng)
        let tree = PackedRTree(fences, nodeSize: 16)
        #expect(tree.count == 1000)
        #expect(tree.leafNodeCount == 63)  // ceil(1000 / 16)
        #expect(tree.nodeCount == 63 + 4 + 1)  // ceil(63 / 16) = 4, then the root
        #expect(tree.height == 3)
        #expect(Set(tree.ids) == Set(fences.map(\.id)))
        // Every node box contains its children's boxes (fence caps for leaf nodes).
        tree.nodeBoxes.withUnsafeBufferPointer { boxes in
            for node in 0..<tree.nodeCount {
                let box = boxes.box(at: node)
                let start = Int(tree.nodeChildren[2 * node]), end = Int(tree.nodeChildren[2 * node + 1])
                for c in start..<end {
                    let child: Box3
                    if node < tree.leafNodeCount {
                        let o = 4 * c
                        child = Box3(capCentre: UnitVector(x: tree.itemData[o], y: tree.itemData[o + 1],
                                                           z: tree.itemData[o + 2]), chord2: tree.itemData[o + 3])
                    } else {
                        child = boxes.box(at: c)
                    }
                    #expect(box.contains(child), "node \(node) child \(c)")
                }
            }
        }
    }

    @Test func isDeterministic() {
        var rng = SplitMix64(seed: 7)
        let fences = TestWorld.fences(500, &rng)
        let a = PackedRTree(fences), b = PackedRTree(fences)
        #expect(a.ids == b.ids && a.nodeBoxes == b.nodeBoxes && a.nodeChildren == b.nodeChildren)
    }

    @Test func statsCountCandidates() throws {
        let fences = (0..<100).map { try! Fence(id: Int32($0), latitude: Double($0) * 0.01, longitude: 0, radiusMeters: 2000) }
        let tree = PackedRTree(fences)
        var stats = QueryStats()
        var hits = 0
        tree.forEachContaining(LatLng(uncheckedLatitude: 0.5, longitude: 0).unitVector, stats: &stats) { _ in hits += 1 }
        #expect(hits == 3)  // 0.49, 0.50, 0.51 degrees: within 2 km (0.01 degree = 1.1 km)
        #expect(stats.hits == 3 && stats.exactTests >= 3 && stats.exactTests <= 48 && stats.nodesVisited >= 2)
        #expect(stats.falsePositiveRate == Double(stats.exactTests - 3) / Double(stats.exactTests))
    }

    @Test func fixtureAnswers() throws {
        let tree = PackedRTree(try GeofenceFixture.fences())
        for q in try GeofenceFixture.queries() {
            #expect(tree.fencesContaining(q.point.unitVector) == q.hits, "query \(q.qid) (\(q.category))")
        }
    }
}
