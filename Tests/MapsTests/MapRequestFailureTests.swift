import Foundation
import Testing

@testable import Maps

/// A polygons file or a POI file the map cannot use stops it with the file, the place and what
/// is wrong.
@Suite struct MapRequestFailureTests {
    func temporaryFile(_ text: String, _ suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("map-failure-\(UUID().uuidString)\(suffix)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBadPolygonNamesFileLineColumnFeatureAndPath() throws {
        let path = try temporaryFile(
            """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": 1, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 95], [0, 0]]]}}]}
            """, ".geojson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var request = MapRequest()
        request.polygonsPath = path
        do {
            _ = try request.picture()
            Issue.record("a latitude of 95 was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("\(path):2:"), "\(text)")
            #expect(text.contains("feature 0 at $.features[0].geometry.coordinates[0][2][1]: latitude 95.0 outside [-90, 90]"), "\(text)")
        }
        // A document-level defect has no feature.
        let empty = try temporaryFile("{}", ".geojson")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        request.polygonsPath = empty
        do {
            _ = try request.picture()
            Issue.record("an empty object was accepted")
        } catch {
            #expect("\(error)".hasPrefix("\(empty):1:1: document at $: "), "\(error)")
        }
    }

    @Test func anUnreadablePOIFileIsNamedOnceAndABadRowWithItsPlace() throws {
        var request = MapRequest()
        let missing = "/nonexistent-\(UUID().uuidString).csv"
        request.poisPath = missing
        do {
            _ = try request.picture()
            Issue.record("a missing POI file was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains(missing), "\(text)")
            #expect(text.components(separatedBy: missing).count == 2, "the path once: \(text)")
        }
        let bad = try temporaryFile("osm_type,osm_id,lat,lon,name,amenity,shop,brand,category\nnode,1,95.5,24.9,Kiosk,,kiosk,,\n", ".csv")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        request.poisPath = bad
        do {
            _ = try request.picture()
            Issue.record("a latitude of 95.5 was accepted")
        } catch {
            #expect("\(error)".hasPrefix("\(bad):2:lat"), "\(error)")
        }
    }
}
