import Foundation
import GeoCells
import GeoJSON
import Geodesy
@testable import POIData
import Testing

/// Outlines matched to their POI rows: `Data/helsinki_areas.geojson` (what `scripts/osm-pois
/// --areas` writes for the Helsinki extract) beside `Data/pois_osm_all.csv`, whose Helsinki
/// rows are the same objects in the same order, and every way a pairing can go wrong.
@Suite struct POIOutlinesTests {
    static let areasPath = Fixture.path("helsinki_areas.geojson")

    static func features(_ text: String) throws -> [GeoJSONFeature] {
        var reader = GeoJSONReader(bytes: Array(text.utf8))
        return try reader.readAll()
    }

    /// The areas file with `old` replaced by `new` (each must occur once), matched to `catalog`.
    static func failure(replacing old: String, with new: String, in catalog: POICatalog) throws -> GeoJSONError? {
        let text = try String(contentsOfFile: areasPath, encoding: .utf8)
        try #require(text.components(separatedBy: old).count == 2, "\(old)")
        let changed = try features(text.replacingOccurrences(of: old, with: new))
        do throws(GeoJSONError) {
            _ = try POIOutlines(features: changed, catalog: catalog)
            return nil
        } catch {
            return error
        }
    }

    @Test func helsinkiOutlinesMatchTheirRows() throws {
        let catalog = try load("pois_osm_all.csv").get()
        let outlines = try POIOutlines(path: Self.areasPath, catalog: catalog)
        #expect(outlines.count == 78)
        #expect(outlines.unused.isEmpty)
        #expect((0..<catalog.count).allSatisfy { catalog.row(at: $0) == $0 && catalog.index(ofRow: $0) == $0 })
        // Suomen Pankki (way 17359934, a bank) is row 1511; its point lies in its outline.
        let bank = try #require(outlines.outline(ofPOI: 1511))
        #expect(catalog.name(at: 1511) == "Suomen Pankki" && catalog.category(at: 1511) == .bank)
        #expect(bank.contains(catalog.location(at: 1511).unitVector))
        // Nodes have none.
        #expect((0..<catalog.count).filter { outlines.outline(ofPOI: $0) != nil }.allSatisfy { catalog.osmType(at: $0) != .node })
    }

    @Test func anOutlineThatDisagreesWithItsRowIsAnErrorNamingTheFeature() throws {
        let catalog = try load("pois_osm_all.csv").get()
        // Feature 1 (line 3) is Suomen Pankki.
        let cases: [(String, String, String, String)] = [
            (
                "\"osm_id\":17359934,", "\"osm_id\":17359935,", "$.features[1].properties.osm_id",
                "osm_id is 17359935 but row 1511 (line 1513) has 17359934: the files were not written together"
            ),
            (
                "\"osm_id\":17359934,", "", "$.features[1].properties.osm_id",
                "expected the osm_id of row 1511 (line 1513), 17359934, found none"
            ),
            (
                "\"osm_type\":\"way\",\"osm_id\":17359934,", "\"osm_type\":\"node\",\"osm_id\":17359934,",
                "$.features[1].properties.osm_type",
                "osm_type is node but row 1511 (line 1513) is a way: the files were not written together"
            ),
            (
                "\"name\":\"Suomen Pankki\",\"category\":\"bank\"", "\"name\":\"Suomen Pankki\",\"category\":\"atm\"",
                "$.features[1].properties.category",
                "category is \"atm\" but row 1511 (line 1513) has \"bank\": the files were not written together"
            ),
            ("\"id\":1511,", "\"id\":\"1511\",", "$.features[1].id", "id \"1511\" is not a row position"),
            ("\"id\":1511,", "\"id\":1510,", "$.features[1].id", "id 1510 repeats feature 0's: a row has at most one outline"),
            ("\"id\":1511,", "\"id\":2649,", "$.features[1].id", "id 2649 names no row: the POI file has 2649 data rows (ids 0...2648)")
        ]
        for (old, new, path, message) in cases {
            let error = try #require(try Self.failure(replacing: old, with: new, in: catalog), "\(new)")
            #expect(error.featureIndex == 1 && error.line == 3 && error.column == 1, "\(error)")
            #expect(error.path == path)
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.formatted(source: "A.geojson") == "A.geojson:3:1: feature 1 at \(path): \(error.message)")
        }
    }

    /// The outlines of the full extract do not fit the category-only file (fewer rows).
    @Test func outlinesOfAnotherFileAreRefused() throws {
        let catalog = try load("pois_osm.csv").get()
        #expect(
            throws: GeoJSONError(
                message: "id 1510 names no row: the POI file has 126 data rows (ids 0...125)", path: "$.features[0].id", featureIndex: 0, line: 2,
                column: 1)
        ) {
            try POIOutlines(path: Self.areasPath, catalog: catalog)
        }
        #expect(throws: GeoJSONError.self) { try POIOutlines(path: "/nonexistent/areas.geojson", catalog: catalog) }
    }

    /// A row skipped as invalid, or dropped as a repeat, keeps its position: later outlines
    /// still find their rows, and the outline of the row not loaded is listed, not used.
    @Test func rowsNotLoadedKeepTheirPositionsAndTheirOutlinesAreListed() throws {
        let csv = """
            osm_type,osm_id,lat,lon,name,category
            node,1,60.17,24.94,a,bank
            way,2,91,24.94,bad latitude,bank
            way,3,60.171,24.941,c,bank
            way,3,60.171,24.941,c again,bank
            way,4,60.172,24.942,d,
            """
        let catalog = try POICatalog(csv: csv, options: POILoadOptions(skipInvalid: true))
        #expect(catalog.count == 3)
        #expect((0..<3).map { catalog.row(at: $0) } == [0, 2, 4])
        #expect([0, 1, 2, 3, 4, 5].map { catalog.index(ofRow: $0) } == [0, nil, 1, nil, 2, nil])
        func square(_ id: Int, _ type: String, _ osmID: Int, _ category: String, lat: Double) -> String {
            let ring = [(24.94, lat), (24.9401, lat), (24.9401, lat + 0.0001), (24.94, lat + 0.0001), (24.94, lat)]
            let coordinates = ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
            return #"{"type":"Feature","id":\#(id),"properties":{"osm_type":"\#(type)","osm_id":\#(osmID),"category":"\#(category)"},"#
                + #""geometry":{"type":"Polygon","coordinates":[[\#(coordinates)]]}}"#
        }
        let text = """
            {"type":"FeatureCollection","features":[
            \(square(1, "way", 2, "bank", lat: 60.17)),
            \(square(2, "way", 3, "bank", lat: 60.171)),
            \(square(3, "way", 3, "bank", lat: 60.171)),
            \(square(4, "way", 4, "", lat: 60.172))
            ]}
            """
        let outlines = try POIOutlines(features: Self.features(text), catalog: catalog)
        #expect(outlines.count == 2)
        #expect(outlines.outline(ofPOI: 0) == nil && outlines.outline(ofPOI: 1) != nil && outlines.outline(ofPOI: 2) != nil)
        #expect(outlines.unused.map(\.featureIndex) == [0, 2])
        #expect(outlines.unused.map(\.line) == [2, 4])
        #expect(outlines.unused[0].message.hasPrefix("row 1 was not loaded"))
    }
}
