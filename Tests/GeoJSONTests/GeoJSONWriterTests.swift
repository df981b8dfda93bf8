import GeoCells
import Geodesy
import Testing
@testable import GeoJSON

@Suite struct GeoJSONWriterTests {
    static func ring(_ lat: Double, _ lon: Double, _ size: Double) -> [LatLng] {
        // Degrees with 7 decimals, as the writer writes them, so they read back bit for bit.
        func round7(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
        return [(0.0, 0.0), (0, size), (size, size), (size, 0)].map {
            LatLng(uncheckedLatitude: round7(lat + $0.0), longitude: round7(lon + $0.1))
        }
    }

    @Test func polygonsAndMultiPolygonsReadBackIdentically() throws {
        let shell = Self.ring(60.1, 24.9, 0.01), hole = Self.ring(60.103, 24.903, 0.002).reversed()
        let far = Self.ring(-33.9, 151.2, 0.00123456)
        let features = [
            GeoJSONOutline(id: 7, parts: [[shell, Array(hole)]], properties: ["kind": "park", "name": "A \"quoted\"\\name\n"]),
            GeoJSONOutline(id: 8, parts: [[shell], [far]])
        ]
        let text = GeoJSONWriter.featureCollection(features)
        let s = String(decoding: text, as: UTF8.self)
        #expect(s.contains("\"type\":\"MultiPolygon\"") && s.contains("\"type\":\"Polygon\""))
        #expect(s.contains("\"name\":\"A \\\"quoted\\\"\\\\name\\n\""))  // escaped as JSONObject.string escapes
        #expect(s.contains("[24.9000000,60.1000000]"))
        var reader = GeoJSONReader(bytes: text)
        let read = try reader.readAll()
        #expect(read.map(\.id) == [.integer(7), .integer(8)])
        let expected = [try Polygon(latLngRings: [shell, Array(hole)]), try Polygon(latLngRings: [shell, far])]
        for (r, e) in zip(read, expected) {
            #expect(r.polygon.vertices == e.vertices)
            #expect(r.polygon.loopStarts == e.loopStarts)
        }
        #expect(GeoJSONWriter.featureCollection([]) == Array("{\"type\":\"FeatureCollection\",\"features\":[\n]}\n".utf8))
    }
}
