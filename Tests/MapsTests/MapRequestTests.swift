import Drawing
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Geodesy
import Testing
import Workloads
@testable import Maps

@Suite struct MapRequestTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A small generated workload on disk.
    func workloadDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("map-request-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let workload = WorkloadGenerator.make(WorkloadSpec(pois: 200, devices: 5, fixes: 3_000, seed: 3))
        try WorkloadWriter.write(workload, toDirectory: directory)
        return directory
    }

    @Test func aTrajectoryWithItsFencesCoversAndEvents() throws {
        let directory = try workloadDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var request = MapRequest()
        request.fencesPath = directory + "/fences.csv"
        request.fixesPath = directory + "/fixes.csv"
        request.device = 2
        request.coverMaxCells = 4
        let map = try request.picture()
        let fixes = try WorkloadReader.readFixes(path: directory + "/fixes.csv")
        let expected = fixes.device.indices.filter { fixes.device[$0] == 2 }
        #expect(map.track.count == expected.count)
        #expect(map.track.first?.position.latitude == fixes.latitude[expected[0]])
        // Every drawn fence comes within 1 km of a fix; at most four cells per fence.
        for fence in map.fences {
            let near = map.track.contains { haversineDistance($0.position, fence.center) <= fence.radius + 1_000 + 1e-6 }
            #expect(near)
        }
        #expect(map.cells.count <= 4 * map.fences.count)
        #expect(!map.cells.isEmpty || map.fences.isEmpty)
        // Events sit on fixes of the trajectory (this device enters and leaves fences).
        #expect(map.events.count >= 2)
        for event in map.events {
            #expect(map.track.contains { $0.position == event.position })
        }
        #expect(map.notes.contains { $0.hasPrefix("device 2: \(expected.count) fixes") })
        #expect(map.notes.contains { $0.contains("fences drawn: those within 1 km of the trajectory") })
        let parser = XMLParser(data: Data(map.render().fileText.utf8))
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    }

    @Test func POIsFromTheSampleAndAnEmptyRequest() throws {
        var request = MapRequest()
        request.poisPath = Self.packageRoot.appendingPathComponent("Data/pois_osm.csv").path
        let map = try request.picture()
        #expect(map.pois.count == 126)
        #expect(map.title == "pois_osm.csv")
        #expect(map.notes.isEmpty)  // without fences every POI is drawn
        #expect(try MapRequest().picture().fences.isEmpty)
    }

    @Test func badInputNamesTheFileAndLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-fences-\(UUID().uuidString).csv").path
        try "id,lat,lon,radius_m\n0,60.1,24.9,100\n1,91.5,24.9,100\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var request = MapRequest()
        request.fencesPath = path
        do {
            _ = try request.picture()
            Issue.record("a latitude of 91.5 was accepted")
        } catch {
            #expect("\(error)".contains(path + ":3"))
        }
        let directory = try workloadDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        request = MapRequest()
        request.fixesPath = directory + "/fixes.csv"
        request.device = 999
        #expect(throws: MapRequest.Failure.self) { try request.picture() }
    }
}
