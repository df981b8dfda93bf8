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
        // Data/helsinki_areas.geojson is this output, copied unchanged (its ids are also rows of
        // Data/pois_osm_all.csv, whose Helsinki rows are these rows' objects in this order).
        let areasText = try String(contentsOfFile: areas, encoding: .utf8)
        #expect(
            areasText
                == (try String(contentsOf: ScriptSupport.packageRoot.appendingPathComponent("Data/helsinki_areas.geojson"), encoding: .utf8)))
        // `geofence poi fences --areas` takes the pair as written: the bank of Finland's outline
        // (row 1511) is the arrival fence of "go to the bank" next to it.
        let tool = try #require(ScriptSupport.builtProduct("geofence"), "build geofence first")
        let fences = try ScriptSupport.runProgram(
            tool.path, ["poi", "fences", "--category", "bank", "--lat", "60.17165", "--lon", "24.9513", "--limit", "1", "--areas", areas, csv])
        #expect(fences.status == 0 && fences.stderr.isEmpty, "\(fences.stderr)")
        let lines = fences.stdout.split(separator: "\n")
        #expect(lines.count == 5 && lines[0] == "id,lat,lon,radius_m,poi_id,tier,outline")
        #expect(lines[4].hasPrefix("3,") && lines[4].hasSuffix(",1511,0,1511"), "\(lines[4])")
        // --areas may not overwrite an input or the CSV.
        #expect(try ScriptSupport.run("osm-pois", ["--areas", csv, pbf, csv]).status == 2)
    }
}
