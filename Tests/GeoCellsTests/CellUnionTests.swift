import Geodesy
import Testing

@testable import GeoCells

@Suite struct CellUnionTests {
    /// A random cell: a random leaf's ancestor at a level in `levels`.
    static func randomCell(_ rng: inout SplitMix64, levels: ClosedRange<Int>) -> CellID {
        let p = UnitVector(x: rng.nextUnit() * 2 - 1, y: rng.nextUnit() * 2 - 1, z: rng.nextUnit() * 2 - 1)
        let level = levels.lowerBound + Int(rng.next() % UInt64(levels.count))
        return CellID(p.normalized).parent(level: level)
    }

    /// Random lists concentrated in one small area (so that overlaps and complete sibling sets
    /// occur): normalizing gives a sorted, non-overlapping list with no four siblings that
    /// covers exactly the same leaves.
    @Test func normalizeInvariants() {
        let seed: UInt64 = 4242
        var rng = SplitMix64(seed: seed)
        for round in 0..<200 {
            let base = Self.randomCell(&rng, levels: 3...8)
            var ids: [CellID] = []
            for _ in 0..<Int(rng.next() % 60) {
                // Descendants of `base` a few levels down, plus whole sibling families.
                var id = base
                for _ in 0..<Int(1 + rng.next() % 4) { id = id.child(Int(rng.next() % 4)) }
                ids.append(id)
                if rng.next() % 3 == 0 { ids.append(contentsOf: id.parent().children) }
            }
            let union = CellUnion(ids)
            let context = "seed \(seed) round \(round)"
            #expect(union.isValid, "\(context)")
            #expect(union.isNormalized, "\(context)")
            for i in union.indices.dropFirst() { #expect(union[i - 1] < union[i], "\(context)") }
            // Same region: every input cell is contained, and every output cell is made of
            // input leaves (probe random leaves inside it).
            for id in ids { #expect(union.contains(id), "\(context): lost \(id)") }
            let raw = CellUnion(unnormalized: ids.sorted())
            for out in union {
                var probe = out
                while probe.level < min(out.level + 4, 30) { probe = probe.child(Int(rng.next() % 4)) }
                let covered = ids.contains { $0.contains(probe) }
                #expect(covered, "\(context): \(out) adds area")
                #expect(raw.intersects(out) || ids.isEmpty, "\(context)")
            }
            // Containment of random leaves near `base` is the same before and after.
            for _ in 0..<64 {
                var leaf = base
                while leaf.level < 30 { leaf = leaf.child(Int(rng.next() % 4)) }
                let before = ids.contains { $0.contains(leaf) }
                #expect(union.contains(leaf) == before, "\(context): leaf \(leaf)")
                #expect(union.intersects(leaf) == before, "\(context): leaf \(leaf)")
            }
            // Normalizing twice changes nothing.
            #expect(CellUnion(union.cellIDs) == union, "\(context)")
        }
    }

    @Test func fourSiblingsMergeUpToTheFace() {
        let face = CellID(face: 3)
        var ids: [CellID] = []
        for a in face.children { for b in a.children { ids.append(contentsOf: b.children) } }
        #expect(CellUnion(ids).cellIDs == [face])
        // All six faces stay six (faces have no parent).
        let faces = (0..<6).map { CellID(face: $0) }
        #expect(CellUnion(faces.reversed()).cellIDs == faces)
        // Three siblings do not merge; a duplicate is dropped.
        let three = Array(face.children.prefix(3))
        #expect(CellUnion(three + [three[0]]).cellIDs == three)
        // A contained cell is dropped.
        #expect(CellUnion([face.child(1).child(2), face.child(1)]).cellIDs == [face.child(1)])
    }

    @Test func containsAndIntersects() {
        let a = CellID(face: 1).child(2)
        let union = CellUnion([a, CellID(face: 4).child(0).child(3)])
        #expect(union.contains(a))
        #expect(union.contains(a.child(1).child(0)))
        #expect(union.contains(a.rangeMin) && union.contains(a.rangeMax))
        #expect(!union.contains(a.parent()))
        #expect(union.intersects(a.parent()))
        #expect(!union.contains(CellID(face: 1).child(3)))
        #expect(!union.intersects(CellID(face: 1).child(3)))
        #expect(union.contains(Cell(a).center))
        #expect(!union.contains(CellID(face: 0).child(0)))
        #expect(CellUnion([]).isEmpty && !CellUnion([]).contains(a))
    }

    @Test func denormalizeRespectsMinLevelAndLevelMod() {
        var out: [CellID] = []
        let face = CellID(face: 2)
        CellUnion.denormalize([face], minLevel: 1, levelMod: 1, into: &out)
        #expect(out == face.children)
        CellUnion.denormalize([face.child(0).child(0)], minLevel: 1, levelMod: 2, into: &out)
        // Level 2 is not 1 + 2k: it becomes its 4 children at level 3.
        #expect(out.count == 4 && out.allSatisfy { $0.level == 3 })
    }

    @Test func exactAreaOfAllFacesIsTheSphere() {
        let faces = CellUnion((0..<6).map { CellID(face: $0) })
        #expect(abs(faces.exactArea() - 4 * Double.pi) < 1e-12)
    }
}
