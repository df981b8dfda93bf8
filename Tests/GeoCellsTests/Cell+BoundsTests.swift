import Geodesy
import Testing

@testable import GeoCells

@Suite struct CellBoundsTests {
    /// Random points of a cell: bilinear in (u, v) inside its bounds.
    static func points(in cell: Cell, _ rng: inout SplitMix64, count: Int) -> [UnitVector] {
        let b = cell.uvBounds
        var out: [UnitVector] = []
        for k in 0..<4 { out.append(cell.vertex(k)) }
        for _ in 0..<count {
            let u = b.uLo + (b.uHi - b.uLo) * rng.nextUnit()
            let v = b.vLo + (b.vHi - b.vLo) * rng.nextUnit()
            out.append(S2Projection.faceUVToXYZ(cell.face, u, v).normalized)
        }
        return out
    }

    @Test func boundsContainTheCell() {
        let seed: UInt64 = 2718
        var rng = SplitMix64(seed: seed)
        var ids = (0..<6).map { CellID(face: $0) }
        // The cells at the poles and cube corners, and random cells at every level.
        for (x, y, z) in [(0.0, 0.0, 1.0), (0, 0, -1), (1, 1, 1), (-1, 1, -1), (1, 0, 0), (-1, 0, 0)] {
            let leaf = CellID(UnitVector(x: x, y: y, z: z).normalized)
            for level in [1, 2, 5, 13, 30] { ids.append(leaf.parent(level: level)) }
        }
        for level in 0...30 {
            for _ in 0..<8 {
                let p = UnitVector(x: rng.nextUnit() * 2 - 1, y: rng.nextUnit() * 2 - 1, z: rng.nextUnit() * 2 - 1)
                ids.append(CellID(p.normalized).parent(level: level))
            }
        }
        for id in ids {
            let cell = Cell(id)
            let cap = cell.capBound
            let box = cell.rectBound
            for p in Self.points(in: cell, &rng, count: 24) {
                #expect(cap.contains(p), "seed \(seed): cap of \(id.token) misses \(p)")
                #expect(box.contains(p.latLng), "seed \(seed): box of \(id.token) \(box) misses \(p.latLng)")
            }
            // Tight enough: the cap's area is within a few times the cell's.
            if cell.level >= 2 {
                #expect(cap.area < 4 * cell.exactArea(), "\(id.token)")
            }
            // The cap bound also contains the cell by S2's own predicate.
            #expect(cap.contains(cell), "\(id.token)")
        }
    }

    @Test func faceBounds() {
        let f0 = Cell(CellID(face: 0)).rectBound
        #expect(abs(f0.west + 45) < 1e-12 && abs(f0.east - 45) < 1e-12 && f0.north > 45 && f0.north < 45.0001)
        let f2 = Cell(CellID(face: 2)).rectBound
        #expect(f2.spansAllLongitudes && f2.north == 90 && abs(f2.south - 35.26438968275465) < 1e-9)
        let f3 = Cell(CellID(face: 3)).rectBound
        #expect(f3.crossesAntimeridian && abs(f3.west - 135) < 1e-12 && abs(f3.east + 135) < 1e-12)
    }

    @Test func subdivisionMatchesChildren() {
        let seed: UInt64 = 11
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let p = UnitVector(x: rng.nextUnit() * 2 - 1, y: rng.nextUnit() * 2 - 1, z: rng.nextUnit() * 2 - 1)
            let cell = Cell(CellID(p.normalized).parent(level: Int(rng.next() % 30)))
            let quad = cell.subdivided()
            let kids = cell.children()
            for k in 0..<4 { #expect(quad[k] == kids[k], "seed \(seed)") }
        }
    }
}
