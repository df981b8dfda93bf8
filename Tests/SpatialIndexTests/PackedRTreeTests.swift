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
        for (nodeSize, leafSize) in [(16, 8), (16, 16), (2, 1), (5, 3)] {
            let tree = PackedRTree(fences, nodeSize: nodeSize, leafSize: leafSize)
            IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: seed,
                                          "packed(\(nodeSize), \(leafSize))")
        }
    }

    @Test(arguments: [(16, 16, 63, 4 + 1), (16, 8, 125, 8 + 1), (5, 3, 334, 67 + 14 + 3 + 1)])
    func shapeIsArithmetic(nodeSize: Int, leafSize: Int, leaves: Int, inner: Int) {
        var rng = SplitMix64(seed: 6)
        let fences = TestWorld.fences(1000, &rng)
        let tree = PackedRTree(fences, nodeSize: nodeSize, leafSize: leafSize)
        #expect(tree.count == 1000)
        #expect(tree.leafNodeCount == leaves)  // ceil(1000 / leafSize)
        #expect(tree.nodeCount == leaves + inner)  // inner levels of ceil(below / nodeSize), root included
        #expect(tree.nodeBoxes.count == 6 * tree.nodeCount + 2)
        #expect(Set(tree.ids) == Set(fences.map(\.id)))
        // Every node box contains its children's boxes (fence caps for leaf nodes), and the
        // children of each level tile the level below.
        var covered = [Int](repeating: 0, count: tree.nodeCount)
        tree.nodeBoxes.withUnsafeBufferPointer { boxes in
            for node in 0..<tree.nodeCount {
                let box = PackedRTree.box(boxes, node)
                let range = tree.children(of: node)
                #expect(range.count >= 1 && range.count <= (node < leaves ? leafSize : nodeSize))
                for c in range {
                    let child: Box3
                    if node < tree.leafNodeCount {
                        let f = tree.fenceData(c)
                        child = Box3(capCentre: UnitVector(x: f.x, y: f.y, z: f.z), chord2: f.chord2)
                    } else {
                        child = PackedRTree.box(boxes, c)
                        covered[c] += 1
                    }
                    #expect(box.contains(child), "node \(node) child \(c)")
                }
            }
        }
        #expect(covered.dropLast().allSatisfy { $0 == 1 } && covered.last == 0)
        // The packed box test agrees with the box's own containment test.
        tree.nodeBoxes.withUnsafeBufferPointer { boxes in
            let raw = UnsafeRawPointer(boxes.baseAddress!)
            for f in fences.prefix(50) {
                let c = f.centreVector
                let px = Float(c.x), py = Float(c.y), pz = Float(c.z)
                let low = SIMD4<Float>(px, py, pz, .infinity), high = SIMD4<Float>(-.infinity, px, py, pz)
                for node in 0..<tree.nodeCount {
                    let b = PackedRTree.box(boxes, node)
                    let inside = px >= b.minX && px <= b.maxX && py >= b.minY && py <= b.maxY
                        && pz >= b.minZ && pz <= b.maxZ
                    #expect(PackedRTree.boxContainsBit(raw, node, low, high) == (inside ? 1 : 0))
                }
            }
        }
    }

    @Test func staysUnder48BytesPerFence() {
        var rng = SplitMix64(seed: 8)
        for count in [3000, PackedRTree.smallTreeFences] {
            let tree = PackedRTree(TestWorld.fences(count, &rng))
            #expect(tree.nodeSize == (count < PackedRTree.smallTreeFences ? 8 : 16) && tree.leafSize == 8)
            #expect(tree.memoryBytes <= 48 * count, "\(count) fences: \(tree.memoryBytes) bytes")
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

/// A nearest search whose frontier outgrows the queue's stack storage (k = 1,500 of 2,000).
@Suite struct NearestQueueOverflowTests {
    @Test func largeK() {
        var rng = SplitMix64(seed: 81)
        let fences = TestWorld.fences(2000, &rng)
        let brute = BruteForceIndex(fences)
        let packed = PackedRTree(fences)
        var dynamic = DynamicRTree()
        for f in fences { try! dynamic.insert(f) }
        for point in TestWorld.points(5, near: fences, &rng) {
            let p = point.unitVector
            for measure in [FenceDistance.centre, .edge] {
                let expected = brute.nearest(to: p, k: 1500, by: measure)
                #expect(packed.nearest(to: p, k: 1500, by: measure) == expected, "packed at \(point), seed 81")
                #expect(dynamic.nearest(to: p, k: 1500, by: measure) == expected, "dynamic at \(point), seed 81")
            }
        }
    }
}
