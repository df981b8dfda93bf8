import Foundation
import Testing

/// The outline fences of `geofence poi fences --areas --polygons-out` feed the detector as they
/// are: `geofence-bench transitions --polygons` accepts the pair (each outline inside its row's
/// circle, ids matching) and a walk into Suomen Pankki enters its outline fence.
@Suite struct OutlineFencePipelineTests {
    @Test func aWalkIntoTheBankEntersItsOutlineFence() throws {
        let geofence = try #require(ScriptSupport.builtProduct("geofence"), "build geofence first")
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "build geofence-bench first")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let data = ScriptSupport.packageRoot.appendingPathComponent("Data")
        let result = try ScriptSupport.runProgram(
            geofence.path,
            [
                "poi", "fences", "--category", "bank", "--lat", "60.17165", "--lon", "24.9513", "--limit", "1",
                "--areas", data.appendingPathComponent("helsinki_areas.geojson").path, "--polygons-out", file("polygons.geojson"),
                data.appendingPathComponent("pois_osm_all.csv").path
            ])
        #expect(result.status == 0, "\(result.stderr)")
        try result.stdout.write(toFile: file("fences.csv"), atomically: true, encoding: .utf8)
        // Walking north along longitude 24.95145 from 60.1705 to the bank's point (60.1717385,
        // 24.9514464), 1 m/s, then standing there for 10 minutes; exact positions, 5 m accuracy.
        var fixes = "device,t,lat,lon,accuracy_m\n", truth = "true_lat,true_lon\n"
        for k in 0...200 {
            let lat = String(format: "%.7f", min(60.1717385, 60.1705 + Double(k) * 0.00009))
            fixes += "1,\(k * 10),\(lat),24.9514464,5\n"
            truth += "\(lat),24.9514464\n"
        }
        try fixes.write(toFile: file("fixes.csv"), atomically: true, encoding: .utf8)
        try truth.write(toFile: file("truth.csv"), atomically: true, encoding: .utf8)
        let run = try ScriptSupport.runProgram(
            bench.path,
            [
                "transitions", "--fences", file("fences.csv"), "--polygons", file("polygons.geojson"), "--fixes", file("fixes.csv"),
                "--truth", file("truth.csv"), "--reps", "1", "--events-out", file("events.csv")
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try String(contentsOfFile: file("events.csv"), encoding: .utf8)
        // Fence 3 is the outline (fences 0-2 are the rings, inside all of them from the start).
        #expect(events.split(separator: "\n").contains { $0.hasPrefix("1,3,enter,") }, "\(events)")
    }
}
