import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct DynamicRTreeTests {
    @Test(arguments: [(UInt64(11), 0), (12, 1), (13, 40), (14, 600)])
    func insertBuiltMatchesBruteForce(seed: UInt64, count: Int) throws {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(200, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for m in [16, 4] {
            var tree = DynamicRTree(maxEntries: m)
            for f in fences {
                try tree.insert(f)
                #expect(tree.invariantViolations() == [], "after inserting \(f.id), M=\(m), seed \(seed)")
            }
            IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: seed, "dynamic(\(m))")
        }
    }

    /// Random inserts, removals and updates (moves and resizes), invariants checked after every
    /// edit; the final tree answers exactly as a packed tree and brute force built from the
    /// final set.
    @Test(arguments: [(UInt64(21), 4), (22, 5), (23, 16)])
    func randomEditsMatchAFreshBuild(seed: UInt64, maxEntries: Int) throws {
        var rng = SplitMix64(seed: seed)
        let pool = TestWorld.fences(400, &rng)
        // Start from a bulk load of a third of the pool, then edit.
        var tree = try DynamicRTree(pool.prefix(130), maxEntries: maxEntries)
        #expect(tree.invariantViolations() == [], "bulk load, seed \(seed)")
        var live: [Int32: Fence] = [:]
        for f in pool.prefix(130) { live[f.id] = f }
        for step in 0..<1200 {
            let roll = rng.next() % 10
            let f = pool[Int(rng.next() % UInt64(pool.count))]
            if roll < 5 {
                if live[f.id] == nil {
                    try tree.insert(f)
                    live[f.id] = f
                } else {
                    #expect(throws: DynamicRTreeError.duplicateID(f.id)) { try tree.insert(f) }
                }
            } else if roll < 8 {
                let removed = tree.remove(id: f.id)
                #expect(removed == live.removeValue(forKey: f.id), "remove \(f.id), step \(step), seed \(seed)")
            } else {
                // Move and resize: a fence of the pool with this id's identity.
                let other = pool[Int(rng.next() % UInt64(pool.count))]
                let moved = try Fence(id: f.id, center: other.center, radiusMeters: TestWorld.radius(&rng))
                let old = tree.update(moved)
                #expect(old == live[f.id], "update \(f.id), step \(step), seed \(seed)")
                live[f.id] = moved
            }
            let problems = tree.invariantViolations()
            #expect(problems == [], "step \(step), seed \(seed)")
            if !problems.isEmpty { return }
            #expect(tree.count == live.count)
        }
        let finalSet = live.values.sorted { $0.id < $1.id }
        #expect(tree.fences == finalSet, "seed \(seed)")
        let brute = BruteForceIndex(finalSet)
        let points = TestWorld.points(200, near: finalSet, &rng)
        IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: seed, "dynamic after edits")
        let packed = PackedRTree(finalSet)
        for p in points {
            #expect(tree.fencesContaining(p.unitVector) == packed.fencesContaining(p.unitVector), "seed \(seed)")
        }
        // Remove everything: back to an empty, sound tree.
        for id in live.keys.sorted() {
            tree.remove(id: id)
            #expect(tree.invariantViolations() == [], "emptying, seed \(seed)")
        }
        #expect(tree.count == 0 && tree.fencesContaining(points[0].unitVector).isEmpty)
    }

    @Test(arguments: [(UInt64(31), 0), (32, 1), (33, 16), (34, 17), (35, 700)])
    func bulkLoadMatchesBruteForce(seed: UInt64, count: Int) throws {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(150, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for m in [4, 7, 16] {
            let tree = try DynamicRTree(fences, maxEntries: m)
            #expect(tree.invariantViolations() == [], "M=\(m), seed \(seed)")
            IndexOracle.expectSameAnswers(tree, as: brute, at: points, seed: seed, "dynamic bulk(\(m))")
        }
        #expect(throws: DynamicRTreeError.duplicateID(0)) {
            _ = try DynamicRTree([
                try Fence(id: 0, latitude: 0, longitude: 0, radiusMeters: 1),
                try Fence(id: 0, latitude: 1, longitude: 0, radiusMeters: 1)
            ])
        }
    }

    @Test func removeUnknownIDIsNil() throws {
        var tree = DynamicRTree()
        #expect(tree.remove(id: 5) == nil)
        try tree.insert(try Fence(id: 5, latitude: 1, longitude: 1, radiusMeters: 10))
        #expect(tree.contains(id: 5) && tree.fence(id: 5)?.radiusMeters == 10)
        #expect(tree.remove(id: 5)?.id == 5)
        #expect(!tree.contains(id: 5) && tree.count == 0)
    }

    @Test func fixtureAnswers() throws {
        let tree = try DynamicRTree(try GeofenceFixture.fences())
        #expect(tree.invariantViolations() == [])
        for q in try GeofenceFixture.queries() {
            #expect(tree.fencesContaining(q.point.unitVector) == q.hits, "query \(q.qid) (\(q.category))")
        }
    }
}
