import Foundation
import Testing

@testable import GeofenceBench
import IndexBenchmark

/// `geofence-bench stab --polygons`: polygon fences from GeoJSON, alone or beside circles, and
/// the errors that name the feature.
@Suite struct StabPolygonsCommandTests {
    static let fixes = """
        device,t,lat,lon,accuracy_m
        0,1,60.1705,24.9405,5
        0,2,60.1800,24.9500,5
        1,3,60.1705,24.9415,5

        """

    /// Two unit squares of about 55 m x 110 m side by side (ids 7 and 9), the second with a
    /// string id when `stringID`.
    static func polygons(stringID: Bool = false, repeatID: Bool = false) -> String {
        let second = stringID ? "\"nine\"" : repeatID ? "7" : "9"
        return """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":7,"properties":{},"geometry":{"type":"Polygon","coordinates":[[[24.940,60.170],[24.941,60.170],[24.941,60.171],[24.940,60.171],[24.940,60.170]]]}},
            {"type":"Feature","id":\(second),"properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[24.941,60.170],[24.942,60.170],[24.942,60.171],[24.941,60.171],[24.941,60.170]]]]}}
            ]}

            """
    }

    static func files(_ geojson: String) throws -> (directory: URL, polygons: String, fixes: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stab-polygons-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let polygons = directory.appendingPathComponent("p.geojson"), fixes = directory.appendingPathComponent("x.csv")
        try geojson.write(to: polygons, atomically: true, encoding: .utf8)
        try Self.fixes.write(to: fixes, atomically: true, encoding: .utf8)
        return (directory, polygons.path, fixes.path)
    }

    @Test func polygonFencesAreStabbed() throws {
        let (directory, polygons, fixes) = try Self.files(Self.polygons())
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("f.csv")
        try "id,lat,lon,radius_m,poi_id,tier\n3,60.1705,24.9405,10,0,0\n".write(to: fences, atomically: true, encoding: .utf8)
        // Fix 0 is in square 7, fix 1 in nothing, fix 2 in square 9: checksum 0 * 1000003 + 7 + 2 * 1000003 + 9.
        let (hits, checksum) = StabChecksumProbe.totals(polygons: polygons, fixes: fixes)
        #expect(hits == 2 && checksum == 2_000_022)
        // Beside a circle around fix 0 (id 3), in one index.
        let mixed = StabChecksumProbe.totals(polygons: polygons, fixes: fixes, fences: fences.path)
        #expect(mixed.hits == 3 && mixed.checksum == 2_000_025)
        #expect(BenchTool.main(["stab", "--polygons", polygons, "--fixes", fixes, "--reps", "1", "--json"]) == 0)
    }

    @Test func badFeatureIDsFailNamingTheFeature() throws {
        for geojson in [Self.polygons(stringID: true), Self.polygons(repeatID: true)] {
            let (directory, polygons, _) = try Self.files(geojson)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(throws: BenchError.self) { try loadPolygonFences(polygons) }
            do {
                _ = try loadPolygonFences(polygons)
            } catch {
                #expect("\(error)".contains("p.geojson") && "\(error)".contains("feature 1: id "), "\(error)")
            }
        }
    }
}

/// Runs the stab command's own loading and measurement, returning its totals.
enum StabChecksumProbe {
    static func totals(polygons: String, fixes: String, fences: String? = nil) -> (hits: Int, checksum: UInt64) {
        let (rows, stream) = try! loadWorkload(fencesPath: fences, fixesPath: fixes, order: .any)
        let m = try! measure(
            .cell, fences: try! makeFences(rows), polygons: try! loadPolygonFences(polygons),
            input: StabInput(stream, threads: 1), threads: 1, reps: 1, statsStride: 1
        ) { _ in }
        return (m.totals.hits, m.totals.checksum)
    }
}
