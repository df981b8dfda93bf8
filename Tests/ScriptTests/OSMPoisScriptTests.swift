import FastCSV
import Foundation
import Geodesy
import POIData
import Testing

/// `scripts/osm-pois` on a real extract: the same objects and tags as the repository's POI sample,
/// loadable with no skipped rows. Skipped (with the reason in the trait) without osmium or Python 3.
@Suite(
    .enabled(
        if: ScriptSupport.which("osmium") != nil && ScriptSupport.which("python3") != nil,
        "needs osmium (Debian: osmium-tool) and python3"))
struct OSMPoisScriptTests {
    struct Row: Equatable {
        var fields: [String]
        var key: String { fields[0] + "/" + fields[1] }
    }

    static func rows(_ path: String) throws -> [Row] {
        let reader = try CSVReader(path: path)
        var out: [Row] = []
        _ = try reader.nextRecord()  // header
        while let record = try reader.nextRecord() { out.append(Row(fields: try record.fields)) }
        return out
    }

    @Test func helsinkiExtractGivesTheSampleRows() throws {
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("pois.csv").path
        let result = try ScriptSupport.run("osm-pois", [ScriptSupport.testsFolder.appendingPathComponent("Fixtures/helsinki.osm.pbf").path, output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote 1590 rows"))
        #expect(result.stderr.contains("skipped 12"))  // ways and relations cut by the extract's edge

        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasPrefix("osm_type,osm_id,lat,lon,name,amenity,shop,brand,category\n"))
        let catalog = try POICatalog(path: output)
        #expect(catalog.count == 1590)
        #expect(catalog.report.skippedCount == 0)
        #expect(catalog.report.duplicates.isEmpty)

        let ours = try Self.rows(output)
        let sample = try Self.rows(ScriptSupport.packageRoot.appendingPathComponent("Data/pois_osm_all.csv").path)
            .filter { Double($0.fields[2])! > 60 }
        #expect(ours.map(\.key) == sample.map(\.key))
        var wayDistances: [Double] = []
        for (a, b) in zip(ours, sample) {
            #expect(a.fields[4...] == b.fields[4...], "\(a.key): tags and category")
            if a.fields[0] == "node" {
                #expect(a.fields[2...3] == b.fields[2...3], "\(a.key): a node keeps its coordinates")
            } else {
                let p = try LatLng(latitude: Double(a.fields[2])!, longitude: Double(a.fields[3])!)
                let q = try LatLng(latitude: Double(b.fields[2])!, longitude: Double(b.fields[3])!)
                wayDistances.append(haversineDistance(p, q))
            }
        }
        wayDistances.sort()
        #expect(wayDistances.count == 80)
        #expect(wayDistances[wayDistances.count / 2] < 10)
        #expect(wayDistances.last! < 300)
    }

    /// Two ways' area-weighted centroids, computed by hand from their node coordinates in the
    /// fixture (`osmium getid -f opl helsinki.osm.pbf w317594123 n3238820082 ...`); planar in
    /// degrees with the shoelace formula.
    @Test func closedWaysSitAtTheirAreaWeightedCentroid() throws {
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("pois.csv").path
        _ = try ScriptSupport.run("osm-pois", [ScriptSupport.testsFolder.appendingPathComponent("Fixtures/helsinki.osm.pbf").path, output])
        let rows = try Self.rows(output)
        // w317594123 (amenity=bicycle_parking): nodes (lon, lat) in ring order.
        let bikes: [(Double, Double)] = [
            (24.9372182, 60.1717047), (24.9372309, 60.1716524), (24.9372014, 60.1716506),
            (24.9371887, 60.1717029)
        ]
        let c = centroid(bikes)
        let row = try #require(rows.first { $0.key == "way/317594123" })
        // Within one unit of the 7th decimal (1 cm): the script may start the ring at another vertex.
        #expect(
            abs(Double(row.fields[2])! - c.lat) <= 1e-7 && abs(Double(row.fields[3])! - c.lon) <= 1e-7,
            "\(row.fields[2]),\(row.fields[3]) vs \(c.lat),\(c.lon)")
        // Inside the node's bounding box (the sample's point for this way is 265 m away).
        #expect(c.lat > 60.1716506 && c.lat < 60.1717047 && c.lon > 24.9371887 && c.lon < 24.9372309)
    }

    /// The hand-written edge cases. Expected points, worked out by hand:
    /// - way 10, the square 179.999...-179.999 x -16.502...-16.5 across the antimeridian: its
    ///   center, longitude 180 written as -180;
    /// - relation 20, the square 0...4 (area 16, centroid 2) minus the hole 1...2 (area 1,
    ///   centroid 1.5): (16·2 - 1·1.5) / 15 = 2.0333333 on both axes;
    /// - relation 30 (type=site): the mean of node (10, 50) and way nodes (10.2, 50), (10.2, 50.2);
    /// - way 50, an open way: the mean of its nodes; way 40 refers to a missing node: skipped.
    @Test func edgeCasesGiveHandWorkedRows() throws {
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("pois.csv").path
        let result = try ScriptSupport.run("osm-pois", [ScriptSupport.testsFolder.appendingPathComponent("Fixtures/osm_edge_cases.opl").path, output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped 1\n"))
        #expect(result.stderr.contains("skipped way 40"))
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            text == """
                osm_type,osm_id,lat,lon,name,amenity,shop,brand,category
                node,5,60.1000000,24.9000000,Apteekki Helsinki,,,,pharmacy
                node,6,60.2000000,24.9500000,,fuel,convenience,Neste,fuel
                way,10,-16.5010000,-180.0000000,"Suva ""Market"", Ltd",,supermarket,,grocery
                way,50,5.5000000,5.0000000,,bench,,,
                relation,20,2.0333333,2.0333333,,bank,,Nordea,bank
                relation,30,50.0666667,10.1333333,,post_office,,,post_office

                """)
        let catalog = try POICatalog(path: output)
        #expect(catalog.count == 6 && catalog.report.skippedCount == 0)
    }

    @Test func rulesAreThePOIDataMapping() throws {
        let result = try ScriptSupport.run("osm-pois", ["--rules"])
        #expect(result.status == 0)
        let expected = OSMCategoryMapping.standard.rules.map { "\($0.key)=\($0.value) \($0.category.rawValue)" }
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
    }

    @Test func helpAndUsageErrors() throws {
        let help = try ScriptSupport.run("osm-pois", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("osm_type,osm_id,lat,lon,name,amenity,shop,brand,category"))
        #expect(try ScriptSupport.run("osm-pois", []).status == 2)
        let missing = try ScriptSupport.run("osm-pois", ["/nonexistent.osm.pbf", "/tmp/x.csv"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent.osm.pbf"))
    }

    func centroid(_ ring: [(Double, Double)]) -> (lat: Double, lon: Double) {
        let (bx, by) = ring[0]
        var a = 0.0, cx = 0.0, cy = 0.0
        for k in 0..<ring.count {
            let (x0, y0) = (ring[k].0 - bx, ring[k].1 - by)
            let (x1, y1) = (ring[(k + 1) % ring.count].0 - bx, ring[(k + 1) % ring.count].1 - by)
            let cross = x0 * y1 - x1 * y0
            a += cross; cx += (x0 + x1) * cross; cy += (y0 + y1) * cross
        }
        a /= 2
        return (by + cy / (6 * a), bx + cx / (6 * a))
    }
}
