import Foundation
import Geodesy
import Testing

@testable import Workloads

/// The synthetic POI file: its format, its two modes (US clusters; shifted copies of a
/// template), its determinism, and the query points and offsets beside it.
@Suite struct SyntheticPOIFileTests {
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory() }

    /// The file's data rows, split on commas (the test rows hold none in their fields).
    func readRows(_ path: String) throws -> (header: String, rows: [[String]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        return (lines[0], lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) })
    }

    @Test func withoutATemplateRowsAreUSClustersWithTheRealTags() throws {
        let path = scratch.url.appendingPathComponent("us.csv").path
        let bytes = try SyntheticPOIFile.write(rows: 2_000, template: [], seed: 7, to: path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(bytes == size)
        let (header, rows) = try readRows(path)
        #expect(header == "osm_type,osm_id,lat,lon,name,amenity,shop,brand,category")
        #expect(rows.count == 2_000)
        #expect(rows.map { $0[1] } == (1...2_000).map(String.init))
        #expect(rows.allSatisfy { $0.count == 9 && $0[0] == "node" && $0[4].hasPrefix("POI ") && $0[7].isEmpty })
        let categories = Set(rows.map { $0[8] })
        #expect(categories == ["", "fuel", "pharmacy", "grocery", "bank", "atm", "post_office"])
        // Contiguous US, give or take the clusters' gaussian tails.
        let lats = rows.map { Double($0[2])! }, lons = rows.map { Double($0[3])! }
        #expect(lats.filter { $0 < 23 || $0 > 51 }.count < 20)
        #expect(lons.filter { $0 < -127 || $0 > -64 }.count < 20)
        // Deterministic for a seed, different for another.
        let again = scratch.url.appendingPathComponent("again.csv").path
        _ = try SyntheticPOIFile.write(rows: 2_000, template: [], seed: 7, to: again)
        #expect(FileManager.default.contentsEqual(atPath: path, andPath: again))
        let other = scratch.url.appendingPathComponent("other.csv").path
        _ = try SyntheticPOIFile.write(rows: 2_000, template: [], seed: 8, to: other)
        #expect(!FileManager.default.contentsEqual(atPath: path, andPath: other))
    }

    /// Each copy of the template moves as one (same shift), with 30 m of jitter per row.
    @Test func withATemplateRowsAreShiftedCopiesOfIt() throws {
        let template = [
            SyntheticPOIFile.Row(
                location: LatLng(uncheckedLatitude: 10, longitude: 20), name: "Kiosk", amenity: "", shop: "kiosk", brand: "R",
                category: ""),
            SyntheticPOIFile.Row(
                location: LatLng(uncheckedLatitude: 10.01, longitude: 20), name: "Apteekki", amenity: "pharmacy", shop: "",
                brand: "", category: "pharmacy"),
            SyntheticPOIFile.Row(
                location: LatLng(uncheckedLatitude: 10.02, longitude: 20), name: "Bank", amenity: "bank", shop: "", brand: "",
                category: "bank")
        ]
        let path = scratch.url.appendingPathComponent("copies.csv").path
        _ = try SyntheticPOIFile.write(rows: 300, template: template, seed: 3, to: path)
        let rows = try readRows(path).rows
        #expect(rows.count == 300)
        for (j, row) in rows.enumerated() {
            let t = template[j % 3]
            #expect(row[4...8].map { $0 } == [t.name, t.amenity, t.shop, t.brand, t.category])
            let lat = Double(row[2])!
            #expect(abs(lat) <= 80.01)
        }
        // Within one copy the rows keep their 0.01° spacing north-south (to the jitter), unless
        // the copy was clamped at ±80°.
        var copiesChecked = 0
        for copy in stride(from: 0, to: 300, by: 3) {
            let lats = (0..<3).map { Double(rows[copy + $0][2])! }
            guard lats.allSatisfy({ abs($0) < 79.9 }) else { continue }
            copiesChecked += 1
            #expect(abs((lats[1] - lats[0]) - 0.01) < 0.002 && abs((lats[2] - lats[1]) - 0.01) < 0.002, "\(lats)")
        }
        #expect(copiesChecked > 50)
        // The copies land in different places.
        #expect(Set(stride(from: 0, to: 300, by: 3).map { Int(Double(rows[$0][2])!) }).count > 20)
    }

    @Test func anUnwritablePathIsNamed() {
        let path = scratch.url.appendingPathComponent("no/such/dir/pois.csv").path
        do {
            _ = try SyntheticPOIFile.write(rows: 1, template: [], seed: 1, to: path)
            Issue.record("wrote \(path)")
        } catch {
            guard case .cannotOpen(let named, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == path)
        }
    }

    @Test func queryPointsLieNearTheGivenPOIs() {
        let pois = [LatLng(uncheckedLatitude: 60.17, longitude: 24.94), LatLng(uncheckedLatitude: -33.87, longitude: 151.21)]
        let points = SyntheticPOIFile.queryPoints(500, nearPOIs: 2, seed: 11) { pois[$0] }
        #expect(points.count == 500)
        let nearest = points.map { p in pois.map { haversineDistance($0, p) }.min()! }
        #expect(nearest.allSatisfy { $0 < 15_000 })  // gaussian 2 km north and east: 5 sigma is about 14 km
        #expect(nearest.filter { $0 < 4_000 }.count > 400)
        #expect(Set(points.map { $0.latitude > 0 }).count == 2)  // both POIs are used
        #expect(SyntheticPOIFile.queryPoints(500, nearPOIs: 2, seed: 11) { pois[$0] } == points)
        #expect(SyntheticPOIFile.queryPoints(10, nearPOIs: 0, seed: 11) { _ in pois[0] }.isEmpty)
    }

    @Test func offsetsMoveByMetersClampNearThePolesAndWrapTheAntimeridian() {
        let start = LatLng(uncheckedLatitude: 0, longitude: 179.99)
        let north = SyntheticPOIFile.shifted(start, northMeters: 1_000, eastMeters: 0)
        #expect(abs(haversineDistance(start, north) - 1_000) < 0.01)
        let east = SyntheticPOIFile.shifted(start, northMeters: 0, eastMeters: 5_000)
        #expect(east.longitude < -179.9)  // wrapped across ±180
        #expect(abs(haversineDistance(start, east) - 5_000) < 1)
        let pole = SyntheticPOIFile.shifted(LatLng(uncheckedLatitude: 89.95, longitude: 0), northMeters: 50_000, eastMeters: 0)
        #expect(pole.latitude == 89.9)
    }

    @Test func reservingCapacityChangesNothingButTheRoom() {
        var stream = FixStream()
        stream.reserveCapacity(1_000, truth: true)
        #expect(stream.count == 0 && !stream.hasTruth)
        #expect(stream.device.capacity >= 1_000 && stream.accuracy.capacity >= 1_000 && stream.trueLongitude.capacity >= 1_000)
        var plain = FixStream()
        plain.reserveCapacity(500, truth: false)
        #expect(plain.latitude.capacity >= 500 && plain.trueLatitude.capacity == 0)
    }
}
