import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct PackedRTreeTests {
    @Test(arguments: [(UInt64(1), 0), (2, 1), (3, 17), (4, 300), (5, 2500), (6, 1)])
    func matchesBruteForce(seed: UInt64, count: Int) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(count == 2500 ? 400 : 250, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for (nodeSize, leafSize) in [(16, 8), (16, 16), (2, 1), (5, 3), (PackedRTree.maxNodeSize, PackedRTree.maxLeafSize)] {
            let tree = PackedRTree(fences, nodeSize: nodeSize, leafSize: leafSize)
            IndexOracle.expectSameAnswers(
                tree, as: brute, at: points, seed: seed,
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
        #expect(tree.childBoxes.count == 4 * tree.lanes * (tree.nodeCount - leaves))
        #expect(Set(tree.ids) == Set(fences.map(\.id)))
        // Every child box slot contains the child's contents (the fences' cap boxes for a leaf,
        // the child's own slots otherwise), unused slots are empty, and the children of each
        // level tile the level below.
        var covered = [Int](repeating: 0, count: tree.nodeCount)
        tree.childBoxes.withUnsafeBufferPointer { boxes in
            for node in leaves..<tree.nodeCount {
                let range = tree.children(of: node)
                #expect(range.count >= 1 && range.count <= nodeSize)
                for slot in 0..<tree.lanes {
                    let box = tree.childBox(boxes, node: node, slot: slot)
                    guard slot < range.count else {
                        #expect(box == .empty, "node \(node) slot \(slot)")
                        continue
                    }
                    let c = range.lowerBound + slot
                    covered[c] += 1
                    let inner = tree.children(of: c)
                    #expect(inner.count >= 1 && inner.count <= (c < leaves ? leafSize : nodeSize))
                    for i in inner {
                        let content: DegreeBox
                        if c < leaves {
                            let id = tree.ids[i]
                            content = DegreeBox(cap: fences.first { $0.id == id }!)
                        } else {
                            content = tree.childBox(boxes, node: c, slot: i - inner.lowerBound)
                        }
                        #expect(box.contains(content), "node \(node) child \(c) item \(i)")
                    }
                }
            }
        }
        #expect(covered.dropLast().allSatisfy { $0 == 1 } && covered.last == 0)
    }

    /// Fences on both sides of the antimeridian, many of them across it, mixed in leaves with
    /// fences that do not cross; fixes on both sides, exactly on ±180, and with longitudes
    /// given outside [-180, 180).
    @Test func antimeridian() {
        var rng = SplitMix64(seed: 42)
        let fences = (0..<600).map { id in
            let lon = rng.next() % 2 == 0 ? 180 - rng.nextUnit() * 0.5 : -180 + rng.nextUnit() * 0.5
            let radius = [0, 10, 1609.344, 8046.72, 40_000][Int(rng.next() % 5)] * rng.nextUnit()
            return try! Fence(id: Int32(id), latitude: rng.nextUnit() * 120 - 60, longitude: lon, radiusMeters: radius)
        }
        let brute = BruteForceIndex(fences)
        var points = TestWorld.points(300, near: fences, &rng)
        for _ in 0..<100 {
            let f = fences[Int(rng.next() % UInt64(fences.count))]
            points.append(
                LatLng(
                    uncheckedLatitude: f.center.latitude + (rng.nextUnit() - 0.5) * 0.1,
                    longitude: rng.next() % 2 == 0 ? 180 : -180))
        }
        for (nodeSize, leafSize) in [(8, 8), (4, 3), (16, 16)] {
            let tree = PackedRTree(fences, nodeSize: nodeSize, leafSize: leafSize)
            #expect(tree.rootEast > 180)
            IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: 42, "antimeridian(\(nodeSize), \(leafSize))")
            for point in points.prefix(100) {
                for shift in [360.0, -360, 720] {
                    var got: [Int32] = []
                    tree.forEachContaining(latitude: point.latitude, longitude: point.longitude + shift) { got.append($0) }
                    let shifted = brute.fencesContaining(
                        UnitVector(
                            fastLatitude: point.latitude,
                            longitude: point.longitude + shift))
                    #expect(got.sorted() == shifted, "\(point) shifted by \(shift)")
                }
            }
        }
    }

    /// The batch query's worklists fill up and drain downwards when a fix reaches many leaves:
    /// huge fences, tiny nodes, more fixes than a block.
    @Test func batchWorklistsOverflow() {
        var rng = SplitMix64(seed: 43)
        let fences = (0..<3000).map {
            try! Fence(id: Int32($0), center: TestWorld.uniform(&rng), radiusMeters: 2_000_000 + rng.nextUnit() * 3_000_000)
        }
        let tree = PackedRTree(fences, nodeSize: 2, leafSize: 1)
        let points = (0..<300).map { _ in TestWorld.uniform(&rng) } + [LatLng(uncheckedLatitude: 95, longitude: 0)]
        var batch = [[Int32]](repeating: [], count: points.count)
        var total = 0
        points.map(\.latitude).withUnsafeBufferPointer { lat in
            points.map(\.longitude).withUnsafeBufferPointer { lon in
                tree.forEachContaining(latitudes: lat, longitudes: lon) { chunk in
                    #expect(chunk.count <= StabHit.chunkSize)
                    for hit in chunk { batch[Int(hit.fix)].append(hit.fence) }
                    total += chunk.count
                }
            }
        }
        #expect(total > 300 * PackedRTree.worklistCapacity / 4)
        for (n, point) in points.enumerated() {
            var one: [Int32] = []
            tree.forEachContaining(latitude: point.latitude, longitude: point.longitude) { one.append($0) }
            #expect(batch[n].sorted() == one.sorted(), "fix \(n) at \(point)")
        }
        #expect(batch.last == [])  // latitude 95 matches nothing
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
        #expect(a.ids == b.ids && a.childBoxes == b.childBoxes && a.nodeChildren == b.nodeChildren)
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
            for measure in [FenceDistance.center, .edge] {
                let expected = brute.nearest(to: p, k: 1500, by: measure)
                #expect(packed.nearest(to: p, k: 1500, by: measure) == expected, "packed at \(point), seed 81")
                #expect(dynamic.nearest(to: p, k: 1500, by: measure) == expected, "dynamic at \(point), seed 81")
            }
        }
    }
}
