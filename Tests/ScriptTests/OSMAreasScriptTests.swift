import Foundation
import GeoCells
import GeoJSON
import Geodesy
import Testing

/// `scripts/osm-pois --areas`: the outlines of the POIs that have one, as GeoJSON our reader
/// takes, each feature's id the POI's row in the CSV written beside it. Skipped (with the reason
/// in the trait) without osmium or Python 3.
@Suite(
    .enabled(
        if: ScriptSupport.which("osmium") != nil && ScriptSupport.which("python3") != nil,
        "needs osmium (Debian: osmium-tool) and python3"))
struct OSMAreasScriptTests {
    @Test func helsinkiOutlinesReadBackAndMatchTheirRows() throws {
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("pois.csv").path
        let areas = directory.appendingPathComponent("areas.geojson").path
        let pbf = ScriptSupport.testsFolder.appendingPathComponent("Fixtures/helsinki.osm.pbf").path
        let result = try ScriptSupport.run("osm-pois", ["--areas", areas, pbf, csv])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote 78 outlines"))
        var reader = try GeoJSONReader(path: areas)
        let features = try reader.readAll()
        #expect(features.count == 78)
        let rows = try OSMPoisScriptTests.rows(csv).map(\.fields)
        var pointsInside = 0
        for f in features {
            guard case .integer(let row) = f.id else {
                Issue.record("feature \(f.index): id \(f.id) is not a row number")
                continue
            }
            // The row is a way or relation, and its point (the area-weighted centroid) lies in the
            // outline unless the outline is concave enough to leave it out.
            #expect(rows[row][0] != "node")
            #expect(f.polygon.area > 0)
            let point = LatLng(uncheckedLatitude: Double(rows[row][2])!, longitude: Double(rows[row][3])!).unitVector
            if f.polygon.contains(point) { pointsInside += 1 }
        }
        #expect(pointsInside >= 70, "\(pointsInside) of 78 centroids inside their outlines")
        // The README picture's outline is this file's relation 9630, copied unchanged.
        let committed = try String(
            contentsOf: ScriptSupport.packageRoot.appendingPathComponent("Data/helsinki_citycenter.geojson"), encoding: .utf8)
        let line = committed.split(separator: "\n")[1]
        #expect(try String(contentsOfFile: areas, encoding: .utf8).contains(line))
        #expect(line.contains("\"id\":1588,") && rows[1588][1] == "9630")
        // --areas may not overwrite an input or the CSV.
        #expect(try ScriptSupport.run("osm-pois", ["--areas", csv, pbf, csv]).status == 2)
    }
}
