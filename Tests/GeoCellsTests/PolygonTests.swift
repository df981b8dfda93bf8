import Geodesy
import Testing

@testable import GeoCells

@Suite struct PolygonTests {
    /// Every polygon S2 accepts builds here; every one S2 rejects throws.
    @Test func validityMatchesS2() throws {
        let fixture = try PolygonFixture()
        let valid = try Fixture("s2_polygon_valid.csv").namedRows
        #expect(valid.count == fixture.entries.count)
        for (entry, row) in zip(fixture.entries, valid) {
            #expect(row["polygon"] == entry.id)
            do {
                let p = try Polygon(latLngRings: entry.rings)
                #expect(row["valid"] == "1", "\(entry.id): S2 rejects it, we accept it")
                #expect(p.loopCount == row.int("loops"))
                let area = row.double("area_sr")
                // 1e-9 relative, and 5e-17 sr (0.002 m² on the Earth) absolute: both areas are
                // sums of rounded triangle areas.
                #expect(abs(p.area - area) <= 1e-9 * area + 5e-17, "\(entry.id): area \(p.area) vs S2 \(area)")
            } catch {
                #expect(row["valid"] == "0", "\(entry.id): \(error)")
            }
        }
    }

    /// Containment equals S2's on every test point (random points around each polygon, and
    /// vertices, which the semi-open model assigns to exactly one side).
    @Test func containmentMatchesS2() throws {
        let fixture = try PolygonFixture()
        var polygons: [String: Polygon] = [:]
        for e in fixture.entries { polygons[e.id] = try? Polygon(latLngRings: e.rings) }
        let points = try PolygonFixture.points()
        var checked = 0, mismatches: [String] = []
        for row in try Fixture("s2_polygon_contains.csv").namedRows {
            guard let polygon = polygons[row["polygon"]] else { continue }
            let p = UnitVector(points["\(row["polygon"]) \(row["point"])"]!)
            checked += 1
            let inside = polygon.contains(p)
            if inside != (row["inside"] == "1") {
                mismatches.append("\(row["polygon"]) point \(row["point"]) (\(row["distance_m"]) m from the boundary)")
            }
            // The brute-force path agrees with the index path.
            var brute = false
            for k in 0..<polygon.loopCount where polygon.loopContains(k, p) { brute.toggle() }
            #expect(brute == inside)
        }
        #expect(checked > 10_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(10))")
    }
}

@Suite struct PolygonCoverTests {
    static let settings: [(file: String, coverer: RegionCoverer, interior: Bool)] = [
        ("s2_polygon_covers_A_max8.csv", try! RegionCoverer(maxCells: 8), false),
        ("s2_polygon_covers_B_max16_L4_16.csv", try! RegionCoverer(maxCells: 16, minLevel: 4, maxLevel: 16), false),
        ("s2_polygon_covers_C_interior_max8_L0_20.csv", try! RegionCoverer(maxCells: 8, maxLevel: 20), true),
        ("s2_polygon_covers_D_max12_L2_24_mod2.csv", try! RegionCoverer(maxCells: 12, minLevel: 2, maxLevel: 24, levelMod: 2), false)
    ]

    /// Coverings token for token equal to S2's on at least 98 % of the polygons of each setting
    /// (and valid on all, see `coversAreValid`).
    @Test(arguments: 0..<4) func coversMatchS2(setting: Int) throws {
        let (file, coverer, interior) = PolygonCoverTests.settings[setting]
        let fixture = try PolygonFixture()
        var polygons: [String: Polygon] = [:]
        for e in fixture.entries { polygons[e.id] = try? Polygon(latLngRings: e.rings) }
        var same = 0, total = 0, differing: [String] = []
        for row in try Fixture(file).namedRows {
            guard let polygon = polygons[row["polygon"]] else { continue }
            total += 1
            let cells = interior ? coverer.interiorCovering(of: polygon) : coverer.covering(of: polygon)
            let tokens = cells.map(\.token).joined(separator: " ")
            if tokens == row["tokens"] { same += 1 } else { differing.append(row["polygon"]) }
        }
        #expect(total >= 200)
        #expect(Double(same) >= 0.98 * Double(total), "\(file): \(same)/\(total) identical; differ: \(differing)")
    }

    /// The covering checker: an exterior covering contains every vertex and every test point
    /// the polygon contains; every cell of an interior covering is inside the polygon (S2's
    /// conservative cell test, and every test point in such a cell is inside). For all
    /// polygons and settings, including any whose covering differs from S2's.
    @Test(arguments: 0..<4) func coversAreValid(setting: Int) throws {
        let (_, coverer, interior) = PolygonCoverTests.settings[setting]
        let fixture = try PolygonFixture()
        let points = try PolygonFixture.points()
        var byPolygon: [String: [UnitVector]] = [:]
        for (key, ll) in points { byPolygon[String(key.split(separator: " ")[0]), default: []].append(UnitVector(ll)) }
        var checked = 0
        for e in fixture.entries {
            guard let polygon = try? Polygon(latLngRings: e.rings) else { continue }
            let cells = interior ? coverer.interiorCovering(of: polygon) : coverer.covering(of: polygon)
            let union = CellUnion(cells)
            #expect(cells.allSatisfy { $0.level >= coverer.minLevel && $0.level <= coverer.maxLevel }, "\(e.id)")
            if interior {
                for id in cells { #expect(polygon.contains(Cell(id)), "\(e.id): \(id.token) not inside") }
                for p in byPolygon[e.id, default: []] where union.contains(p) {
                    #expect(polygon.contains(p), "\(e.id): point in an interior cell is outside")
                }
            } else {
                for v in polygon.vertices { #expect(union.contains(v), "\(e.id): vertex outside the covering") }
                for p in byPolygon[e.id, default: []] where polygon.contains(p) {
                    #expect(union.contains(p), "\(e.id): inside point outside the covering")
                }
            }
            checked += 1
        }
        #expect(checked >= 200)
    }
}

@Suite struct PolygonMeasureTests {
    func square(_ lat: Double, _ lon: Double, _ d: Double) throws -> Polygon {
        try Polygon(latLngRings: [
            [
                LatLng(uncheckedLatitude: lat - d, longitude: lon - d), LatLng(uncheckedLatitude: lat - d, longitude: lon + d),
                LatLng(uncheckedLatitude: lat + d, longitude: lon + d), LatLng(uncheckedLatitude: lat + d, longitude: lon - d)
            ]
        ])
    }

    /// Orientation is normalized: the same ring given clockwise is the same polygon.
    @Test func clockwiseRingIsNormalized() throws {
        let ccw = try square(10, 20, 0.01)
        let cw = try Polygon(latLngRings: [
            [
                LatLng(uncheckedLatitude: 9.99, longitude: 19.99), LatLng(uncheckedLatitude: 10.01, longitude: 19.99),
                LatLng(uncheckedLatitude: 10.01, longitude: 20.01), LatLng(uncheckedLatitude: 9.99, longitude: 20.01)
            ]
        ])
        #expect(abs(cw.area - ccw.area) < 1e-15)
        #expect(cw.contains(UnitVector(LatLng(uncheckedLatitude: 10, longitude: 20))))
        #expect(!cw.contains(UnitVector(LatLng(uncheckedLatitude: 11, longitude: 20))))
    }

    /// A 0.02° square at the equator: area (2.22 km)² within 0.1 %, centroid at the center,
    /// boundary distance from the center 0.01° (1.11 km), enclosing cap through the corners.
    @Test func measuresOfASquare() throws {
        let sq = try square(0, 0, 0.01)
        let side = 0.02 * Double.pi / 180 * Earth.meanRadius
        #expect(abs(sq.areaSquareMeters / (side * side) - 1) < 1e-3)
        let c = try #require(sq.centroid)
        #expect(abs(c.latLng.latitude) < 1e-9 && abs(c.latLng.longitude) < 1e-9)
        let center = UnitVector(LatLng(uncheckedLatitude: 0, longitude: 0))
        #expect(abs(sq.signedBoundaryDistanceMeters(to: center) + side / 2) < 0.01)
        let outside = UnitVector(LatLng(uncheckedLatitude: 0, longitude: 0.02))
        #expect(abs(sq.signedBoundaryDistanceMeters(to: outside) - side / 2) < 0.01)
        let cap = sq.enclosingCap
        for v in sq.vertices { #expect(cap.contains(v)) }
        let diagonal = Earth.meters(fromRadians: cap.radiusRadians)
        #expect(abs(diagonal - side / 2 * 2.0.squareRoot()) < 0.5)
    }

    /// A hole: the area subtracts, points in the hole are outside, depths are 0 and 1.
    @Test func holeIsOutside() throws {
        let outer: [LatLng] = [(0, 0), (0, 1), (1, 1), (1, 0)].map { LatLng(uncheckedLatitude: $0.0, longitude: $0.1) }
        let hole: [LatLng] = [(0.4, 0.4), (0.6, 0.4), (0.6, 0.6), (0.4, 0.6)].map { LatLng(uncheckedLatitude: $0.0, longitude: $0.1) }
        let p = try Polygon(latLngRings: [outer, hole])
        let solid = try Polygon(latLngRings: [outer])
        #expect(p.depths == [0, 1])
        #expect(!p.contains(UnitVector(LatLng(uncheckedLatitude: 0.5, longitude: 0.5))))
        #expect(p.contains(UnitVector(LatLng(uncheckedLatitude: 0.2, longitude: 0.5))))
        let holeArea = try Polygon(latLngRings: [hole]).area
        #expect(abs(p.area - (solid.area - holeArea)) < 1e-15)
    }

    /// Errors name the ring and vertex in input order (also for a ring that was reversed).
    @Test func errorsNameRingAndVertex() {
        let ll = { (a: Double, b: Double) in LatLng(uncheckedLatitude: a, longitude: b) }
        #expect(throws: PolygonError.tooFewVertices(ring: 0, count: 2)) {
            try Polygon(latLngRings: [[ll(0, 0), ll(1, 1)]])
        }
        #expect(throws: PolygonError.duplicateVertex(ring: 0, vertex: 2, duplicateOf: 1)) {
            try Polygon(latLngRings: [[ll(0, 0), ll(0, 1), ll(0, 1), ll(1, 1)]])
        }
        #expect(throws: PolygonError.selfIntersection(ring: 0, edge: 0, crossesEdge: 2)) {
            try Polygon(latLngRings: [[ll(0, 20), ll(1, 21), ll(0, 21), ll(1, 20)]])
        }
        do {
            _ = try Polygon(latLngRings: [[ll(8, 20), ll(8, 22), ll(10, 22), ll(10, 20)], [ll(9, 21), ll(9, 23), ll(11, 23), ll(11, 21)]])
            Issue.record("crossing rings accepted")
        } catch {
            guard case .ringsCross(let r, _, let s, _) = error else { Issue.record("\(error)"); return }
            #expect(Set([r, s]) == [0, 1])
        }
    }

    /// Exactly collinear and coincident inputs take the exact and symbolic paths; the results
    /// are consistent (antisymmetric under swaps).
    @Test func predicatesAreConsistentOnDegenerateInput() {
        let a = UnitVector(x: 1, y: 0, z: 0), b = UnitVector(x: 0, y: 1, z: 0)
        let c = UnitVector(x: -1, y: 0, z: 0)  // a, b, c on the equator: determinant exactly 0
        let s = Predicates.sign(a, b, c)
        #expect(s != 0)
        #expect(Predicates.sign(b, a, c) == -s)
        #expect(Predicates.sign(c, b, a) == -s)
        #expect(Predicates.sign(b, c, a) == s)
        #expect(Predicates.expensiveSign(a, b, c, perturb: false) == 0)
        #expect(Predicates.sign(a, a, b) == 0)
    }
}
