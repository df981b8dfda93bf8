import Testing
import Geodesy
@testable import GeoCells

@Suite struct CellNeighborTests {
    /// Random cells, a third of them touching a face edge or corner.
    static func cells(seed: UInt64, count: Int) -> [CellID] {
        var rng = SplitMix64(seed: seed)
        var out: [CellID] = []
        let last = (1 << 30) - 1
        for k in 0..<count {
            let level = Int(rng.next() % 31)
            let face = Int(rng.next() % 6)
            var i = Int(rng.next() % UInt64(1 << 30)), j = Int(rng.next() % UInt64(1 << 30))
            switch k % 6 {
            case 0: i = rng.next() & 1 == 0 ? 0 : last  // on a u edge
            case 1: j = rng.next() & 1 == 0 ? 0 : last  // on a v edge
            case 2: i = rng.next() & 1 == 0 ? 0 : last; j = rng.next() & 1 == 0 ? 0 : last  // corner
            default: break
            }
            out.append(CellID(face: face, i: i, j: j).parent(level: level))
        }
        return out
    }

    @Test func edgeNeighborsAreSymmetric() {
        let seed: UInt64 = 0xED6E
        for id in Self.cells(seed: seed, count: 1500) {
            let nbrs = id.edgeNeighbors
            #expect(nbrs.count == 4)
            #expect(Set(nbrs).count == 4, "seed \(seed) cell \(id.token)")
            for n in nbrs {
                #expect(n.isValid && n.level == id.level && n != id, "seed \(seed) cell \(id.token)")
                #expect(n.edgeNeighbors.contains(id), "seed \(seed) cell \(id.token) nbr \(n.token)")
            }
            // The neighbor across edge k shares that edge's two vertices.
            if id.level > 0 {
                let cell = Cell(id)
                for k in 0..<4 {
                    let nc = Cell(nbrs[k])
                    #expect(
                        nc.contains(cell.vertex(k)) && nc.contains(cell.vertex((k + 1) & 3)),
                        "seed \(seed) cell \(id.token) edge \(k)")
                }
            }
        }
    }

    @Test func faceNeighbors() {
        // Face 1's neighbors: bottom 5, right 3, top 2, left 0 (S2's s2cell_id_test).
        #expect(CellID(face: 1).edgeNeighbors == [5, 3, 2, 0].map { CellID(face: $0) })
    }

    @Test func vertexNeighborsFromS2Tests() {
        // The 4 level-5 cells around the center of face 2.
        var nbrs: [CellID] = []
        CellID(UnitVector(x: 0, y: 0, z: 1)).appendVertexNeighbors(level: 5, to: &nbrs)
        nbrs.sort()
        let half = 1 << 29
        for k in 0..<4 {
            let i = half - (k < 2 ? 1 : 0), j = half - (k == 0 || k == 3 ? 1 : 0)
            #expect(nbrs[k] == CellID(face: 2, i: i, j: j).parent(level: 5))
        }
        // The cube corner of faces 0, 4, 5 has only 3 cells around it.
        nbrs.removeAll()
        CellID(face: 0, position: 0, level: 30).appendVertexNeighbors(level: 0, to: &nbrs)
        nbrs.sort()
        #expect(nbrs == [CellID(face: 0), CellID(face: 4), CellID(face: 5)])
    }

    @Test func vertexNeighborsShareTheVertex() {
        let seed: UInt64 = 0x7E47
        var rng = SplitMix64(seed: seed)
        for id in Self.cells(seed: seed, count: 600) where id.level > 0 {
            let level = Int(rng.next() % UInt64(id.level))
            var nbrs: [CellID] = []
            id.appendVertexNeighbors(level: level, to: &nbrs)
            #expect(nbrs.first == id.parent(level: level))
            #expect(nbrs.count == 4 || nbrs.count == 3)
            #expect(Set(nbrs).count == nbrs.count, "seed \(seed) \(id.token) level \(level)")
            // The shared vertex: the corner of parent(level) that is also a corner of the
            // quadrant (the level + 1 ancestor) this cell lies in; (u, v) grid values are exact.
            let parent = Cell(id.parent(level: level)), quadrant = Cell(id.parent(level: level + 1))
            let corners = (0..<4).map { parent.vertexRaw($0) }
            let shared = (0..<4).map { quadrant.vertexRaw($0) }.filter { corners.contains($0) }
            #expect(shared.count == 1, "seed \(seed) \(id.token)")
            let vertex = shared[0].normalized
            for n in nbrs {
                #expect(n.level == level && Cell(n).contains(vertex), "seed \(seed) \(id.token) nbr \(n.token)")
            }
            if nbrs.count == 3 {  // only at the 8 cube corners
                #expect(abs(abs(vertex.x) - abs(vertex.y)) < 1e-15 && abs(abs(vertex.y) - abs(vertex.z)) < 1e-15)
            }
        }
    }

    @Test func allNeighborsMatchVertexNeighborsOfChildren() {
        // S2's own check: all neighbors at `level`, plus the descendants at `level`, equal
        // the union of the vertex neighbors of every descendant at level + 1.
        let seed: UInt64 = 0xA11
        var rng = SplitMix64(seed: seed)
        for id in Self.cells(seed: seed, count: 120) where id.level < 29 {
            let level = id.level + Int(rng.next() % UInt64(min(4, 29 - id.level)))
            var all: [CellID] = []
            id.appendAllNeighbors(level: level, to: &all)
            var expected: [CellID] = []
            var c = id.childBegin(level: level + 1)
            let end = id.childEnd(level: level + 1)
            while c != end {
                all.append(c.parent())
                c.appendVertexNeighbors(level: level, to: &expected)
                c = c.next
            }
            #expect(Set(all) == Set(expected), "seed \(seed) cell \(id.token) level \(level)")
            #expect(all.allSatisfy { $0.level == level && $0.isValid })
        }
    }

    @Test func wrapReprojectsAcrossFaces() {
        let maxSize = 1 << 30
        // One leaf beyond the right edge of face 0 is on face 1, at its left edge.
        let beyond = CellID.fromFaceIJWrap(face: 0, i: maxSize, j: 1000)
        #expect(beyond.face == 1)
        #expect(beyond.toFaceIJOrientation().i == 0)
        // Same-face requests are plain FromFaceIJ.
        #expect(CellID.fromFaceIJSame(face: 2, i: 5, j: 6, sameFace: true) == CellID(face: 2, i: 5, j: 6))
        // Far outside is clamped to one leaf beyond, as in S2.
        #expect(CellID.fromFaceIJWrap(face: 0, i: 3 * maxSize, j: 1000) == beyond)
    }
}
