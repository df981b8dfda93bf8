import Foundation
import GeoCells
import Geodesy
import SpatialIndex
import Testing

/// `CellFenceIndex` over the polygons of GeoCells' S2 fixture (real OpenStreetMap outlines and
/// the hard synthetic cases, `Tests/GeoCellsTests/Fixtures/README.md`), stabbed at the
/// fixture's test points: the same hits as testing every polygon, at a fine key level and at a
/// coarse one where large polygons take interior cells.
@Suite struct CellFenceIndexS2FixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("GeoCellsTests/Fixtures")

    /// `s2_polygons.txt`: "polygon ID RINGS", then per ring "ring N" and N lines "LAT LON"
    /// (degrees, open rings). The valid ones, numbered from 0 in file order.
    static func polygons() throws -> [PolygonFence] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("s2_polygons.txt"), encoding: .utf8)
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })[...]
        var out: [PolygonFence] = []
        while let word = words.popFirst() {
            try #require(word == "polygon")
            _ = words.popFirst()
            var rings: [[LatLng]] = []
            for _ in 0..<Int(words.popFirst()!)! {
                try #require(words.popFirst() == "ring")
                let n = Int(words.popFirst()!)!
                rings.append(
                    (0..<n).map { _ in LatLng(uncheckedLatitude: Double(words.popFirst()!)!, longitude: Double(words.popFirst()!)!) })
            }
            if let polygon = try? Polygon(latLngRings: rings) {
                out.append(try PolygonFence(id: Int32(out.count), polygon: polygon))
            }
        }
        return out
    }

    /// `s2_polygon_points.txt`: "POLYGON POINT LAT LON" per line.
    static func points() throws -> [UnitVector] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("s2_polygon_points.txt"), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let w = line.split(separator: " ")
            return LatLng(uncheckedLatitude: Double(w[2])!, longitude: Double(w[3])!).unitVector
        }
    }

    @Test(arguments: [16, 10]) func stabbingEqualsTestingEveryPolygon(level: Int) throws {
        let polygons = try Self.polygons()
        #expect(polygons.count > 100)
        let index = CellFenceIndex(polygons: polygons, level: level)
        var hits = 0
        let points = try Self.points()
        for p in stride(from: 0, to: points.count, by: max(1, points.count / 3000)).map({ points[$0] }) {
            let expected = polygons.filter { $0.polygon.contains(p) }.map(\.id)
            #expect(index.fencesContaining(p) == expected, "level \(level) at \(p)")
            hits += expected.count
        }
        #expect(hits > 500)
    }
}
