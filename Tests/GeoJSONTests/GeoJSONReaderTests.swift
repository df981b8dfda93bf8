import GeoCells
import Geodesy
import JSON
import Testing

@testable import GeoJSON

@Suite struct GeoJSONReaderTests {
    static let collection = """
        {"type": "FeatureCollection", "name": "test",
         "features": [
          {"type": "Feature", "id": 7, "properties": {"name": "square", "tags": [1, {"a": null}]},
           "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}},
          {"type": "Feature", "id": "two parts",
           "geometry": {"coordinates": [[[[10, 10], [10, 11], [11, 11], [11, 10], [10, 10]]],
                                        [[[20, 20, 5], [21, 20, 5], [21, 21, 5], [20, 20, 5]]]],
                        "type": "MultiPolygon"}},
          {"geometry": {"type": "Polygon", "coordinates": [[[179, -1], [-179, -1], [-179, 1], [179, 1], [179, -1]],
                                                           [[179.5, -0.5], [179.5, 0.5], [-179.5, 0.5], [-179.5, -0.5], [179.5, -0.5]]]},
           "id": -3, "type": "Feature"}
         ]}
        """

    func read(_ text: String) throws(GeoJSONError) -> [GeoJSONFeature] {
        var reader = GeoJSONReader(bytes: Array(text.utf8))
        return try reader.readAll()
    }

    func failure(_ text: String) -> GeoJSONError? {
        do { _ = try read(text); return nil } catch { return error }
    }

    @Test func readsPolygonsAndMultiPolygons() throws {
        let features = try read(GeoJSONReaderTests.collection)
        #expect(features.map(\.id) == [.integer(7), .string("two parts"), .integer(-3)])
        #expect(features.map(\.index) == [0, 1, 2])
        #expect(features[0].polygon.contains(UnitVector(LatLng(uncheckedLatitude: 0.5, longitude: 0.5))))
        #expect(!features[0].polygon.contains(UnitVector(LatLng(uncheckedLatitude: 1.5, longitude: 0.5))))
        #expect(features[1].polygon.loopCount == 2)
        #expect(features[1].polygon.contains(UnitVector(LatLng(uncheckedLatitude: 10.5, longitude: 10.5))))
        #expect(features[1].polygon.contains(UnitVector(LatLng(uncheckedLatitude: 20.2, longitude: 20.7))))
        // Across the antimeridian, with a hole around it.
        let ring = features[2].polygon
        #expect(ring.contains(UnitVector(LatLng(uncheckedLatitude: 0.8, longitude: 180))))
        #expect(!ring.contains(UnitVector(LatLng(uncheckedLatitude: 0, longitude: -180))))
        #expect(!ring.contains(UnitVector(LatLng(uncheckedLatitude: 0, longitude: 0))))
        #expect(ring.depths.sorted() == [0, 1])
    }

    @Test func singleFeature() throws {
        let f = try read(#"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}"#)
        #expect(f.count == 1 && f[0].id == .integer(1))
    }

    @Test func errorsNameFeatureAndPath() {
        let open = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}"#
        )
        #expect(open?.featureIndex == 0)
        #expect(open?.path == "$.features[0].geometry.coordinates[0][3]")
        #expect(open?.message.contains("not closed") == true)

        let lat = failure(
            "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"id\":1,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},\n{\"type\":\"Feature\",\"id\":2,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,95],[1,1],[0,0]]]}}]}"
        )
        #expect(lat?.featureIndex == 1)
        #expect(lat?.path == "$.features[1].geometry.coordinates[0][1][1]")
        #expect(lat?.line == 3)

        let bowtie = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b","geometry":{"type":"Polygon","coordinates":[[[20,0],[21,1],[21,0],[20,1],[20,0]]]}}]}"#
        )
        #expect(bowtie?.path.hasPrefix("$.features[0].geometry.coordinates[0][") == true)
        #expect(bowtie?.message.contains("self-intersection") == true)

        let cross = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"MultiPolygon","coordinates":[[[[20,8],[22,8],[22,10],[20,10],[20,8]]],[[[21,9],[23,9],[23,11],[21,11],[21,9]]]]}}]}"#
        )
        #expect(cross?.message.contains("crosses ring") == true)
        #expect(cross?.path.hasPrefix("$.features[0].geometry.coordinates[") == true)

        // Parts cut along a shared edge (S2 rejects polygons whose rings share an edge): the
        // error names part 1's ring and the edge's first vertex.
        let shared = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"s","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,1],[0,0]]],[[[1,0],[2,0],[2,1],[1,1],[1,0]]]]}}]}"#
        )
        #expect(shared?.message.contains("share an edge") == true, "\(String(describing: shared))")
        #expect(shared?.path.hasPrefix("$.features[0].geometry.coordinates[") == true)

        // Longitudes beyond 180 are rejected with the wrapped value to write instead.
        let east = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[179,0],[181,0],[181,1],[179,1],[179,0]]]}}]}"#
        )
        #expect(east?.path == "$.features[0].geometry.coordinates[0][1][0]")
        #expect(east?.message.contains("write it as -179.0") == true, "\(String(describing: east))")

        let noID = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}]}"#)
        #expect(noID?.path == "$.features[0].id")

        let point = failure(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[0,0]}}]}"#)
        #expect(point?.message.contains("Polygon or MultiPolygon") == true)

        let malformed = failure("{\"type\":\"FeatureCollection\",\n \"features\": [ {\"type\": \"Feature\", \"id\": 1,, } ]}")
        #expect(malformed?.line == 2)
        #expect(malformed?.featureIndex == 0)

        let badNumber = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,nan],[0,0]]]}}]}"#
        )
        #expect(badNumber?.path == "$.features[0].geometry.coordinates[0][2]")

        #expect(failure(#"{"type":"Topology","features":[]}"#)?.path == "$.type")
        #expect(failure(#"{"type":"FeatureCollection","features":[]} x"#) != nil)
    }

    /// `properties` is kept as JSON, and every feature knows its path, line and column, so a
    /// later check can name it as the reader's errors do.
    @Test func propertiesAndLocationsAreKept() throws {
        let features = try read(GeoJSONReaderTests.collection)
        #expect(features[0].properties["name"] == .string("square"))
        #expect(features[0].properties["tags"] == .array([.number(1, integral: true), .object([("a", .null)])]))
        #expect(features[1].properties == .null)
        #expect(features.map(\.path) == ["$.features[0]", "$.features[1]", "$.features[2]"])
        #expect(features.map(\.line) == [3, 5, 9])
        #expect(features.map(\.column) == [3, 3, 3])
        let single = try read(
            #"  {"type":"Feature","id":1,"properties":null,"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}"#)
        #expect(single[0].path == "$" && single[0].line == 1 && single[0].column == 3 && single[0].properties == .null)
        // RFC 7946: properties is an object or null.
        let array = failure(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"properties":[1],"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}]}"#
        )
        #expect(array?.path == "$.features[0].properties")
        #expect(array?.featureIndex == 0)
        #expect(array?.message == "properties must be an object or null, found an array")
    }

    @Test func emptyCollection() throws {
        #expect(try read(#"{"features":[],"type":"FeatureCollection"}"#).isEmpty)
    }
}
