import Testing
import Geodesy
@testable import GeoCells

/// s2_cells.csv: 284 cells with S2's structure, geometry and areas.
@Suite struct CellFixtureTests {
    static let cells = try! Fixture("s2_cells.csv")

    /// The 12 level-30 leaves at cube corners (first/last leaf of a face), whose across-face
    /// neighbors depend on the S2 version.
    static func isCornerLeaf(_ id: CellID) -> Bool {
        id.isLeaf && (id == CellID(face: id.face).rangeMin || id == CellID(face: id.face).rangeMax)
    }

    @Test func structureMatchesEveryRow() throws {
        var checked = 0
        for row in Self.cells.namedRows {
            let id = try #require(row.id("id"))
            #expect(id.isValid)
            #expect(id.token == row["token"])
            #expect(id.level == row.int("level"))
            #expect(id.face == row.int("face"))
            #expect(id.rangeMin == row.id("range_min_id"), "cell \(row["token"])")
            #expect(id.rangeMax == row.id("range_max_id"), "cell \(row["token"])")
            if id.level > 0 {
                #expect(id.parent() == row.id("parent_id"), "cell \(row["token"])")
            } else {
                #expect(row["parent_id"].isEmpty)
            }
            if !id.isLeaf {
                let want = (0..<4).map { row.id("child\($0)_id") }
                #expect(id.children.map { Optional($0) } == want, "cell \(row["token"])")
            }
            checked += 1
        }
        #expect(checked == 284)
    }

    @Test func edgeNeighborsMatchEveryRow() throws {
        var corner = 0, checked = 0
        for row in Self.cells.namedRows {
            let id = try #require(row.id("id"))
            let want = (0..<4).map { row.id("edge_nbr\($0)_id")! }
            #expect(id.edgeNeighbors == want, "cell \(row["token"]) level \(id.level)")
            if Self.isCornerLeaf(id) { corner += 1 }
            checked += 1
        }
        // Including the 12 version-dependent corner leaves: we follow s2geometry's current
        // FromFaceIJWrap (clamp to one leaf outside, u/v limited to 1 + epsilon) and match.
        #expect(corner == 12)
        #expect(checked == 284)
    }

    @Test func centerAndVerticesWithinTightTolerance() throws {
        // 1e-13 degrees is about 11 nm on the Earth; measured worst case is printed below.
        let tolerance = 1e-13
        var worstCenter = 0.0, worstVertex = 0.0
        for row in Self.cells.namedRows {
            let id = try #require(row.id("id"))
            let cell = Cell(id)
            let center = id.centerLatLng
            let wantLat = row.double("center_lat"), wantLon = row.double("center_lon")
            worstCenter = max(worstCenter, abs(center.latitude - wantLat))
            #expect(abs(center.latitude - wantLat) <= tolerance, "cell \(row["token"])")
            if abs(wantLat) != 90 {  // longitude at a pole is arbitrary
                worstCenter = max(worstCenter, abs(center.longitude - wantLon))
                #expect(abs(center.longitude - wantLon) <= tolerance, "cell \(row["token"])")
            }
            for k in 0..<4 {
                let v = cell.vertex(k).latLng
                let lat = row.double("v\(k)_lat"), lon = row.double("v\(k)_lon")
                worstVertex = max(worstVertex, abs(v.latitude - lat))
                #expect(abs(v.latitude - lat) <= tolerance, "cell \(row["token"]) vertex \(k)")
                if abs(lat) != 90 {
                    var dLon = abs(v.longitude - lon)
                    if dLon > 180 { dLon = 360 - dLon }
                    worstVertex = max(worstVertex, dLon)
                    #expect(dLon <= tolerance, "cell \(row["token"]) vertex \(k)")
                }
            }
        }
        print("s2_cells: worst center error \(worstCenter) deg, worst vertex error \(worstVertex) deg")
    }

}

@Suite struct CellGeometryTests {
    @Test func verticesEdgesAndCenter() {
        var rng = SplitMix64(seed: 31337)
        for _ in 0..<500 {
            let id = randomCell(&rng, level: Int(rng.next() % 31))
            let cell = Cell(id)
            #expect(cell.id == id && cell.level == id.level && cell.face == id.face)
            #expect(cell.orientation == id.toFaceIJOrientation().orientation)
            #expect(cell.isLeaf == id.isLeaf)
            let b = cell.uvBounds
            #expect(b.uLo < b.uHi && b.vLo < b.vHi)
            for k in 0..<4 {
                // Edge k runs from vertex k to k+1 and its normal points inward.
                let n = cell.edgeRaw(k)
                #expect(abs(n.dot(cell.vertexRaw(k))) <= 1e-15 * n.norm * cell.vertexRaw(k).norm)
                #expect(abs(n.dot(cell.vertexRaw(k + 1 & 3))) <= 1e-15 * n.norm * cell.vertexRaw(k + 1 & 3).norm)
                #expect(n.dot(cell.centerRaw) > 0, "seed 31337 \(id.rawValue) edge \(k)")
                #expect(abs(cell.edge(k).norm - 1) < 1e-15)
                #expect(cell.contains(cell.vertex(k)), "seed 31337 \(id.rawValue) vertex \(k)")
            }
            #expect(cell.contains(cell.center))
            #expect(cell.uvCoordOfEdge(0) == b.vLo && cell.uvCoordOfEdge(1) == b.uHi)
            #expect(cell.uvCoordOfEdge(2) == b.vHi && cell.uvCoordOfEdge(3) == b.uLo)
            // IJ edge coordinates map to the same u/v lines.
            #expect(S2Projection.stToUV(S2Projection.ijToSTMin(cell.ijCoordOfEdge(0))) == b.vLo)
            #expect(S2Projection.stToUV(S2Projection.ijToSTMin(cell.ijCoordOfEdge(1))) == b.uHi)
            #expect(S2Projection.stToUV(S2Projection.ijToSTMin(cell.ijCoordOfEdge(2))) == b.vHi)
            #expect(S2Projection.stToUV(S2Projection.ijToSTMin(cell.ijCoordOfEdge(3))) == b.uLo)
        }
    }

    @Test func childrenTileTheParent() {
        let seed: UInt64 = 8080
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let id = randomCell(&rng, level: Int(rng.next() % 30))
            let cell = Cell(id)
            let kids = cell.children()
            #expect(kids.map(\.id) == id.children, "seed \(seed) \(id.rawValue)")
            let mid = id.centerUV
            var area = 0.0
            for kid in kids {
                let direct = Cell(kid.id)
                #expect(kid.level == id.level + 1 && kid.face == cell.face)
                #expect(kid.orientation == direct.orientation, "seed \(seed) \(kid.id.rawValue)")
                // Each child's u and v ranges are one half of the parent's, split at the center.
                let u = kid.uvBounds
                #expect((u.uLo == cell.uvBounds.uLo && u.uHi == mid.u) || (u.uLo == mid.u && u.uHi == cell.uvBounds.uHi))
                #expect((u.vLo == cell.uvBounds.vLo && u.vHi == mid.v) || (u.vLo == mid.v && u.vHi == cell.uvBounds.vHi))
                // Subdivide's split line equals the direct computation from (i, j).
                #expect(u == direct.uvBounds, "seed \(seed) \(kid.id.rawValue)")
                area += (u.uHi - u.uLo) * (u.vHi - u.vLo)
            }
            let parentArea = (cell.uvBounds.uHi - cell.uvBounds.uLo) * (cell.uvBounds.vHi - cell.uvBounds.vLo)
            #expect(abs(area - parentArea) <= 1e-14 * parentArea, "seed \(seed) \(id.rawValue)")
            // Children's exact areas sum to the parent's.
            if id.level < 20 {
                let sum = kids.reduce(0.0) { $0 + $1.exactArea() }
                #expect(abs(sum - cell.exactArea()) <= 1e-10 * cell.exactArea(), "seed \(seed) \(id.rawValue)")
            }
        }
        #expect(Cell(CellID(face: 0).childBegin(level: 30)).children().isEmpty)
    }

    @Test func containsPointsNearFaceBoundaries() {
        // A point exactly on the boundary between faces 0 and 1 (u = 1 on face 0) belongs to
        // the cells on both sides.
        let p = UnitVector(x: 1, y: 1, z: 0.25)
        let a = Cell(CellID(face: 0)), b = Cell(CellID(face: 1))
        #expect(a.contains(p) && b.contains(p))
        #expect(!Cell(CellID(face: 3)).contains(p))
        #expect(!Cell(CellID(face: 2)).contains(UnitVector(x: 0, y: 0, z: -1)))
    }
}
