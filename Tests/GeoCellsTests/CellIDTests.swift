import Testing
import Geodesy
@testable import GeoCells

/// s2_points.csv: 5000 points with S2's leaf ids and ancestors.
@Suite struct CellIDPointFixtureTests {
    static let points = try! Fixture("s2_points.csv")
    static let levels = [0, 5, 10, 13, 16, 20, 24, 30]

    @Test func leafFromXYZMatchesEveryRow() throws {
        var checked = 0
        for row in Self.points.namedRows {
            let p = UnitVector(x: row.double("x"), y: row.double("y"), z: row.double("z"))
            let leaf = CellID(p)
            let expected = try #require(row.id("leaf_id"))
            #expect(leaf == expected, "row \(row["id"]) (\(row["category"])): \(leaf.rawValue) != \(expected.rawValue)")
            #expect(leaf.isLeaf && leaf.isValid)
            #expect(leaf.face == row.int("face"), "row \(row["id"])")
            #expect(leaf.token == row["leaf_token"], "row \(row["id"])")
            for level in Self.levels {
                let want = try #require(row.id("id_l\(level)"))
                #expect(leaf.parent(level: level) == want, "row \(row["id"]) level \(level)")
                #expect(want.level == level)
            }
            checked += 1
        }
        #expect(checked == 5000)
    }

    @Test func latLngToPointIsBitIdenticalOffFaceBoundaries() throws {
        // The fixture's x, y, z are S2LatLng::ToPoint; Geodesy's conversion must reproduce them.
        var mismatches = 0
        for row in Self.points.namedRows {
            let ll = LatLng(uncheckedLatitude: row.double("lat"), longitude: row.double("lon"))
            let p = ll.unitVector
            if p.x != row.double("x") || p.y != row.double("y") || p.z != row.double("z") {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(mismatches) rows whose lat/lng -> point differs from S2's")
    }

    @Test func leafFromLatLngMatchesOffBoundaryAndCountsBoundaryRows() throws {
        var offBoundary = 0, boundary = 0, boundaryAgree = 0
        for row in Self.points.namedRows {
            let ll = LatLng(uncheckedLatitude: row.double("lat"), longitude: row.double("lon"))
            let leaf = CellID(ll)
            let expected = try #require(row.id("leaf_id"))
            let category = row["category"]
            if category == "face_edge" || category == "face_corner" {
                boundary += 1
                if leaf == expected { boundaryAgree += 1 }
            } else {
                offBoundary += 1
                #expect(leaf == expected, "row \(row["id"]) (\(category))")
                for level in Self.levels {
                    #expect(CellID(ll, level: level) == row.id("id_l\(level)"), "row \(row["id"]) level \(level)")
                }
            }
        }
        #expect(offBoundary == 3950)
        #expect(boundary == 1050)
        // On this platform (glibc sin/cos, as the generator) every boundary row agrees too.
        print("s2_points: \(boundaryAgree) of \(boundary) face-boundary rows also agree from lat/lng")
        #expect(boundaryAgree == boundary)
    }

    @Test func leafCellContainsItsPoint() {
        for row in Self.points.namedRows {
            let p = UnitVector(x: row.double("x"), y: row.double("y"), z: row.double("z"))
            #expect(Cell(CellID(p)).contains(p), "row \(row["id"])")
            #expect(Cell(p).id == CellID(p))
        }
    }
}

@Suite struct CellIDStructureTests {
    @Test func faceCells() {
        for face in 0..<6 {
            let f = CellID(face: face)
            #expect(f.isValid && f.isFace && f.level == 0 && f.face == face)
            #expect(f.rawValue == (UInt64(face) << 61) | (1 << 60))
            #expect(f.rangeMin == CellID(face: face, i: 0, j: 0).parent(level: 30).rangeMin)
            #expect(f.token == ["1", "3", "5", "7", "9", "b"][face])
            #expect(f.description == "\(face)/")
        }
        #expect(!CellID.none.isValid)
        #expect(!CellID.sentinel.isValid)
        #expect(CellID.begin(level: 0) == CellID(face: 0))
        #expect(CellID.end(level: 0) == CellID(face: 5).next)
        #expect(CellID(face: 5).nextWrap == CellID(face: 0))
        #expect(CellID(face: 0).prevWrap == CellID(face: 5))
        #expect(CellID.begin(level: 30).prevWrap == CellID.end(level: 30).prev)
    }

    @Test func descriptionAndChildPositions() {
        let c = CellID(face: 3).child(0).child(2).child(1).child(3)
        #expect(c.description == "3/0213")
        #expect(c.childPosition(level: 2) == 2)
        #expect(CellID(rawValue: 8).description == "Invalid: 0000000000000008")
    }

    @Test func faceIJRoundTripAndHilbertContinuity() {
        var rng = SplitMix64(seed: 0xC311)
        for _ in 0..<2000 {
            let face = Int(rng.next() % 6)
            let i = Int(rng.next() % UInt64(1 << 30)), j = Int(rng.next() % UInt64(1 << 30))
            let id = CellID(face: face, i: i, j: j)
            let back = id.toFaceIJOrientation()
            #expect(back.face == face && back.i == i && back.j == j, "seed 0xC311 face \(face) i \(i) j \(j)")
            // Consecutive leaves along the curve are adjacent in (i, j) (or on the next face).
            let n = id.next
            if n.face == face {
                let b = n.toFaceIJOrientation()
                #expect(abs(b.i - i) + abs(b.j - j) == 1, "seed 0xC311 leaf \(id.rawValue)")
            }
        }
    }

    @Test func commonAncestorLevel() {
        let a = CellID(face: 2).child(1).child(3).child(0)
        #expect(a.commonAncestorLevel(a.child(2)) == 3)
        #expect(a.commonAncestorLevel(CellID(face: 2).child(1).child(0)) == 1)
        #expect(a.commonAncestorLevel(CellID(face: 3)) == nil)
        #expect(a.commonAncestorLevel(a) == 3)
    }
}

/// Seeded property tests over random cells.
@Suite struct CellIDPropertyTests {
    @Test func hierarchyInvariants() {
        let seed: UInt64 = 77
        var rng = SplitMix64(seed: seed)
        for _ in 0..<3000 {
            let level = Int(rng.next() % 30) + 1
            let child = randomCell(&rng, level: level)
            let parent = child.parent()
            #expect(parent.level == level - 1 && parent.isValid, "seed \(seed) \(child.rawValue)")
            #expect(parent.contains(child) && parent.intersects(child) && child.intersects(parent))
            #expect(!child.contains(parent))
            #expect(parent.rangeMin <= child && child <= parent.rangeMax, "seed \(seed) \(child.rawValue)")
            #expect(parent.children.contains(child))
            #expect(parent.children == (0..<4).map { parent.child($0) })
            #expect(parent.childBegin() == parent.child(0))
            #expect(parent.child(3).next == parent.childEnd())
            #expect(parent.childBegin(level: 30) == parent.rangeMin)
            #expect(parent.childEnd(level: 30) == parent.rangeMax.next)
            #expect(child.rangeMin.parent(level: level) == child && child.rangeMax.parent(level: level) == child)
            #expect(child.parent(level: 0) == CellID(face: child.face))
        }
    }

    @Test func tokenRoundTripAtEveryLevel() throws {
        let seed: UInt64 = 4242
        var rng = SplitMix64(seed: seed)
        for level in 0...30 {
            for _ in 0..<40 {
                let c = randomCell(&rng, level: level)
                #expect(CellID.parseToken(c.token) == c, "seed \(seed) \(c.rawValue)")
                #expect(try CellID(token: c.token) == c)
                #expect(try CellID(token: c.token.uppercased()) == c)
                #expect(c.token.count <= 16 && !c.token.hasSuffix("0"))
            }
        }
    }
}
