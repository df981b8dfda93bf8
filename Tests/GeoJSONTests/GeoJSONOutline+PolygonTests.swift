import GeoCells
import Geodesy
import JSON
import Testing
@testable import GeoJSON

/// A `Polygon` written as a feature and read back: the same loops, shells and holes in parts.
@Suite struct GeoJSONOutlinePolygonTests {
    @Test func loopsReadBackVertexForVertexWithHolesInTheirParts() throws {
        // Two parts: a park with a pond that holds an island, and a square across the antimeridian.
        let park = GeoJSONWriterTests.ring(60.1, 24.9, 0.01)
        let pond = GeoJSONWriterTests.ring(60.103, 24.903, 0.004)
        let island = GeoJSONWriterTests.ring(60.104, 24.904, 0.001)
        let far = [(-0.5, 179.5), (-0.5, -179.5), (0.5, -179.5), (0.5, 179.5)].map { LatLng(uncheckedLatitude: $0.0, longitude: $0.1) }
        let polygon = try Polygon(latLngRings: [island, park, far, pond])
        let outline = GeoJSONOutline(id: 3, polygon: polygon, properties: ["place": "way/1"])
        // Shells in loop order, each followed by its own holes, holes clockwise.
        #expect(outline.parts.map(\.count) == [1, 2, 1])
        func same(_ a: [LatLng], _ b: [LatLng]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0.latitude - $1.latitude) < 1e-12 && abs($0.longitude - $1.longitude) < 1e-12 }
        }
        #expect(same(outline.parts[1][0], park) && same(outline.parts[1][1], pond.reversed()))
        #expect(same(outline.parts[0][0], island) && same(outline.parts[2][0], far))
        var reader = GeoJSONReader(bytes: GeoJSONWriter.featureCollection([outline]))
        let read = try reader.readAll()
        #expect(read.count == 1 && read[0].id == .integer(3) && read[0].properties["place"] == .string("way/1"))
        // The same loops (in part order), vertex for vertex.
        func loops(_ p: Polygon) -> Set<[UnitVector]> {
            Set((0..<p.loopCount).map { Array(p.vertices[p.loopStarts[$0]..<p.loopStarts[$0 + 1]]) })
        }
        #expect(loops(read[0].polygon) == loops(polygon))
        #expect(read[0].polygon.depths.sorted() == polygon.depths.sorted())
    }
}
