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
        ("s2_polygon_covers_D_max12_L2_24_mod2.csv", try! RegionCoverer(maxCells: 12, minLevel: 2, maxLevel: 24, levelMod: 2), false),
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
}
