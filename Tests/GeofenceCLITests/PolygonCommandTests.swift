import Foundation
import Testing

/// `geofence contains` and `geofence cover --polygons` against golden output from Google S2
/// (Golden/make_polygon_golden.py, libs2-dev 0.10.0).
@Suite struct PolygonCommandTests {
    let cli = GeofenceCLITests()
    var golden: String { GeofenceCLITests.testsFolder.appendingPathComponent("Golden").path }

    @Test func containsMatchesS2() throws {
        let result = try cli.run(["contains", "--polygons", golden + "/polygons.geojson", "--points", golden + "/points.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try cli.golden("contains_expected.csv")))
    }

    /// The points file's header line is optional, as on every input of the CLI (DESIGN.md's
    /// contract): without it the columns are `point,lat,lon` in that order, and a first row
    /// whose point name is a number is still a row.
    @Test func headerlessPointsAreRead() throws {
        let text = try String(contentsOfFile: golden + "/points.csv", encoding: .utf8)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headerless-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try rows.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["contains", "--polygons", golden + "/polygons.geojson", "--points", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try cli.golden("contains_expected.csv")))

        try "7,60.1721020194213,24.9508742213928\n".write(toFile: path, atomically: true, encoding: .utf8)
        let numbered = try cli.run(["contains", "--polygons", golden + "/polygons.geojson", "--points", path])
        #expect(numbered.status == 0, "\(numbered.stderr)")
        #expect(numbered.stdout == "point,polygon\n7,1\n")
    }

    @Test(arguments: [
        (["--max-cells", "8"], "cover_polygons_expected_A.csv"),
        (["--max-cells", "16", "--min-level", "4", "--max-level", "16"], "cover_polygons_expected_B.csv"),
        (["--max-cells", "8", "--max-level", "20", "--interior"], "cover_polygons_expected_C.csv")
    ])
    func coverMatchesS2(arguments: [String], expected: String) throws {
        let result = try cli.run(["cover", "--polygons", golden + "/polygons.geojson"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try cli.golden(expected)), "\(arguments)")
    }

    /// Bad GeoJSON: exit 1, a message naming the file, line, column, feature and JSON path.
    @Test func badPolygonIsReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(getpid()).geojson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": 1, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,0]]]}},
        {"type": "Feature", "id": 2, "geometry": {"type": "Polygon", "coordinates": [[[20,0],[21,1],[21,0],[20,1],[20,0]]]}}
        ]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["cover", "--polygons", path, "--max-cells", "8"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(path + ":3:"), "\(result.stderr)")
        #expect(result.stderr.contains("feature 1 at $.features[1].geometry.coordinates[0]["), "\(result.stderr)")
        #expect(result.stderr.contains("self-intersection"), "\(result.stderr)")
    }

    /// A --min-level that would force more cells than a row may list is refused, as for caps,
    /// naming the feature, instead of running out of memory.
    @Test func aCoveringTooFineToListIsRefused() throws {
        let path = GeofenceCLITests.testsFolder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/helsinki_citycenter.geojson").path
        let result = try cli.run(["cover", "--polygons", path, "--max-cells", "8", "--min-level", "30"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(path + ":2:1: feature 0 at $.features[0]: a covering at --min-level 30 of this polygon needs about "),
            "\(result.stderr)")
        let fine = try cli.run(["cover", "--polygons", path, "--max-cells", "8", "--min-level", "20"])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(fine.stdout.hasPrefix("polygon,tokens\n1588,"))
    }

    /// A bad points row names its file, line and column: a latitude out of range, and a row
    /// shorter than the header (a bad row, not a trap: it died of SIGILL).
    @Test(arguments: [("point,lat,lon\na,0.5,0.5\nb,91,0\n", ":3:lat:"), ("point,lat,lon\na,0.5,0.5\nb,1\n", ":3:lon:")])
    func badPointRowIsReportedAtItsPlace(text: String, place: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("badpoints-\(getpid())-\(place.filter(\.isLetter)).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["contains", "--polygons", golden + "/polygons.geojson", "--points", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(path + place), "\(result.stderr)")
    }

    @Test func missingOptionIsAUsageError() throws {
        let result = try cli.run(["contains", "--polygons", golden + "/polygons.geojson"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--points"), "\(result.stderr)")
    }
}
