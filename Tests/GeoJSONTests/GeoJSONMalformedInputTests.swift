import Foundation
import GeoCells
import Geodesy
import Testing

@testable import GeoJSON

/// A unit square's geometry.
private let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#

/// A collection of one feature.
private func collection(feature: String) -> String {
    #"{"type":"FeatureCollection","features":[\#(feature)]}"#
}

/// Every way a document can be malformed is refused with the JSON path and the place; string
/// escapes are decoded as JSON defines them; files that cannot be read are named.
@Suite struct GeoJSONMalformedInputTests {

    static func read(_ text: String) throws(GeoJSONError) -> [GeoJSONFeature] {
        var reader = GeoJSONReader(bytes: Array(text.utf8))
        return try reader.readAll()
    }

    @Test(arguments: [
        // The top level.
        ("[1]", "$", "expected '{'"),
        (#"{"type":"FeatureCollection","bbox":[0,0]}"#, "$", "no features member"),
        (#"{"type":"FeatureCollection","features":[],"type":"Point"}"#, "$", "type must be FeatureCollection, found Point"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":\#(square)} 5]}"#, "$.features", "expected ']'"),
        // A feature's own members.
        (
            collection(feature: #"{"type":"Feature","id":1.5,"geometry":\#(square)}"#), "$.features[0].id",
            "id must be an integer or a string, found 1.5"
        ),
        (collection(feature: #"{"type":"Feature","id":1,"properties":nul,"geometry":\#(square)}"#), "$.features[0].properties", "expected a value"),
        (collection(feature: #"{"type":"Feature","id":1,"geometry":\#(square) "x":1}"#), "$.features[0]", "expected '}'"),
        (collection(feature: #"{"type":"Featur","id":1,"geometry":\#(square)}"#), "$.features[0].type", "type must be Feature, found Featur"),
        (collection(feature: #"{"id":1,"geometry":\#(square)}"#), "$.features[0].type", "missing \"type\": \"Feature\""),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}"#), "$.features[0].geometry.type",
            "missing geometry type"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon"}}"#), "$.features[0].geometry.coordinates",
            "missing coordinates"
        ),
        (collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon" "coordinates":[]}}"#), "$.features[0].geometry", "expected '}'"),
        // Coordinates of the wrong shape, and positions out of range.
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"MultiPolygon","coordinates":[1,2]}}"#),
            "$.features[0].geometry.coordinates", "MultiPolygon coordinates must be an array of polygons"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[]}}"#),
            "$.features[0].geometry.coordinates", "a polygon must be a non-empty array of rings"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[1,2]]}}"#),
            "$.features[0].geometry.coordinates[0]", "a ring must be an array of positions"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0],[1,0],[1,1],[0,0]]]}}"#),
            "$.features[0].geometry.coordinates[0][0]", "a position must be [longitude, latitude]"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0,0],[200,0],[1,1],[0,0]]]}}"#),
            "$.features[0].geometry.coordinates[0][1][0]", "longitude 200.0 outside [-180, 180]"
        ),
        (
            collection(feature: #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[[[[0,0]]]]]]}}"#),
            "$.features[0].geometry.coordinates[0][0][0][0][0]", "coordinates nested too deeply"
        ),
        // Strings.
        (collection(feature: #"{"type":"Feature","id":"\x","geometry":\#(square)}"#), "$.features[0].id", "invalid escape in string"),
        (collection(feature: #"{"type":"Feature","id":"\u12G4","geometry":\#(square)}"#), "$.features[0].id", "invalid \\u escape"),
        (#"{"type":"Feature","id":"\u12"#, "$.id", "short \\u escape"),
        (#"{"type":"Feature","id":"\"#, "$.id", "unterminated string")
    ])
    func aMalformedDocumentIsRefusedWithItsPath(text: String, path: String, message: String) {
        do {
            let features = try Self.read(text)
            Issue.record("accepted \(text): \(features.count) features")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.hasPrefix(message), "\(error)")
            #expect(error.line >= 1 && error.column >= 1)
        }
    }

    @Test func membersOtherThanTheKnownOnesAreSkippedEverywhere() throws {
        let text =
            #"{"bbox":[0,0,1,1],"type":"FeatureCollection","features":[{"type":"Feature","id":1,"geometry":\#(square)}],"#
            + #""name":{"a":[true,false,null,"s",-1.5e3]}}"#
        let features = try Self.read(text)
        #expect(features.map(\.id) == [.integer(1)])
    }

    @Test func everyJSONEscapeIsDecoded() throws {
        let text = #"{"type":"Feature","id":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00","geometry":\#(square)}"#
        let features = try Self.read(text)
        #expect(features.map(\.id) == [.string("a\"b\\c/d\u{8}\u{C}\n\r\t\u{E9}\u{1F600}")])
        #expect(GeoJSONFeatureID.string("x").description == "x" && GeoJSONFeatureID.integer(-3).description == "-3")
    }

    /// A single Feature yields one feature, then nil for ever.
    @Test func aSingleFeatureEndsTheStream() throws {
        var reader = GeoJSONReader(bytes: Array(#"{"type":"Feature","id":9,"geometry":\#(square)}"#.utf8))
        #expect(try reader.next()?.id == .integer(9))
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func theDescriptionNamesLineColumnFeatureAndPath() {
        let inFeature = GeoJSONError(message: "bad", path: "$.features[2].id", featureIndex: 2, line: 4, column: 7)
        #expect(inFeature.description == "line 4, column 7: feature 2 ($.features[2].id): bad")
        let top = GeoJSONError(message: "no features member", path: "$", featureIndex: nil, line: 1, column: 30)
        #expect(top.description == "line 1, column 30: ($): no features member")
    }

    @Test func filesThatCannotBeReadAreNamed() throws {
        let missing = "/nonexistent-\(UUID().uuidString).geojson"
        do {
            _ = try GeoJSONReader(path: missing)
            Issue.record("opened \(missing)")
        } catch {
            #expect(error.message.hasPrefix("cannot open \(missing): "))
            #expect(error.path == "$" && error.featureIndex == nil)
        }
        // A directory opens but cannot be read.
        let directory = FileManager.default.temporaryDirectory.path
        do {
            _ = try GeoJSONReader(path: directory)
            Issue.record("read the directory \(directory)")
        } catch {
            #expect(error.message.hasPrefix("cannot read \(directory): "))
        }
        // A file is read whole.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geojson-\(UUID().uuidString).geojson").path
        try Data(collection(feature: #"{"type":"Feature","id":"f","geometry":\#(square)}"#).utf8)
            .write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var reader = try GeoJSONReader(path: file)
        #expect(try reader.readAll().map(\.id) == [.string("f")])
    }
}
