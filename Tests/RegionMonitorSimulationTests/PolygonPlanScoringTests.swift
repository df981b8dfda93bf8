import GeoCells
import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import RegionMonitorSimulation

/// Polygon fences under the OS cap: the OS watches each polygon's enclosing circle, and the app
/// runs the detector's polygon rule on every fix while inside that circle; only the polygon's own event
/// counts as catching a polygon entry.
@Suite struct PolygonPlanScoringTests {
    /// Along the road of ``straightDrive(fixes:)``, every 2 km: a 1,200 m x 200 m block the road
    /// runs through (even k: 80 s inside at 15 m/s, no brush), or a U opening towards the road
    /// just south of it (odd k): the road runs through the U's enclosing circle, never the U.
    static func roadPolygons() throws -> (rows: [WorkloadFence], outlines: FenceOutlines) {
        let start = LatLng(uncheckedLatitude: 40, longitude: -100)
        var rows: [WorkloadFence] = [], outlines: [(id: Int32, polygon: Polygon)] = []
        for k in 0..<30 {
            let c = destination(from: start, bearing: 90, distance: 1_000 + Double(k) * 2_000)
            func at(_ east: Double, _ north: Double) -> LatLng {
                destination(from: destination(from: c, bearing: 90, distance: east), bearing: 0, distance: north)
            }
            let block = [(-600.0, -100.0), (600, -100), (600, 100), (-600, 100)]
            let u = [(-300.0, -300.0), (300, -300), (300, -20), (150, -20), (150, -200), (-150, -200), (-150, -20), (-300, -20)]
            let polygon = try Polygon(latLngRings: [(k % 2 == 0 ? block : u).map { at($0.0, $0.1) }])
            let fence = try FenceOutlines.enclosingFence(id: Int32(k), polygon: polygon)
            rows.append(
                WorkloadFence(
                    id: Int32(k), latitude: fence.center.latitude, longitude: fence.center.longitude,
                    radius: fence.radiusMeters, poiID: Int32(k), tier: 0))
            outlines.append((Int32(k), polygon))
        }
        return (rows, try FenceOutlines(outlines))
    }

    @Test func polygonEntriesAreCaughtOnlyByThePolygonsOwnEvent() throws {
        let (rows, outlines) = try Self.roadPolygons()
        let fixes = straightDrive(fixes: 200)
        let circles = try PlanScoring.truth(fences: fences(rows), fixes: fixes)
        let truth = try PlanScoring.truth(fences: fences(rows), fixes: fixes, outlines: outlines)
        // The road runs through all 30 circles but only the 15 blocks.
        #expect(circles.entriesByDevice[0].count == 30)
        #expect(truth.entriesByDevice[0].map(\.fence) == Array(stride(from: 0, to: 30, by: 2)).map(Int32.init))
        // Depth: half the block's width (100 m), give or take a fix.
        #expect(truth.entriesByDevice[0].allSatisfy { $0.maxDepthMeters > 90 && $0.maxDepthMeters <= 100.01 })
        // Planned as places, at an arrival fence's priority.
        #expect(PlanScoring.candidates(from: rows, outlines: outlines).allSatisfy { $0.priority == GeofenceKind.arrival.defaultPriority })
        let planner = try MonitorPlanner(
            candidates: PlanScoring.candidates(from: rows, outlines: outlines), configuration: .init(capacity: 4))
        let settings = PlanScoring.Settings(os: .init(capacity: 4), seed: 12)
        let s = try PlanScoring.score(.planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes, settings: settings)
        #expect(s.requiredEntries == 15)
        // The OS's circle enters are wakes, never polygon events; the app's detector catches all.
        #expect(s.caughtRequired == 0 && s.enterEvents == 0)
        #expect(s.caughtRequiredWithWakeUpCheck == 15)
        #expect(s.wakeCheckFalseFires == 0 && s.wakeCheckFires == 15)
    }

    /// A 100 m square building; one device drives in from 3 km west at 15 m/s (a fix every
    /// 20 s, accuracy 10 m), stands at its center for 30 minutes, every 5th fix thrown 60 m north
    /// (10 m past the wall, as multipath does), then drives on east.
    static func standingInABuilding() throws -> (rows: [WorkloadFence], outlines: FenceOutlines, fixes: FixStream) {
        let origin = LatLng(uncheckedLatitude: 40, longitude: -100)
        func at(north: Double, east: Double) -> LatLng {
            destination(from: destination(from: origin, bearing: 0, distance: north), bearing: 90, distance: east)
        }
        let polygon = try Polygon(latLngRings: [[(-50.0, -50.0), (-50, 50), (50, 50), (50, -50)].map { at(north: $0.0, east: $0.1) }])
        let fence = try FenceOutlines.enclosingFence(id: 3, polygon: polygon)
        let row = WorkloadFence(
            id: 3, latitude: fence.center.latitude, longitude: fence.center.longitude, radius: fence.radiusMeters, poiID: 3, tier: 0)
        var s = FixStream()
        for k in 0..<120 {
            let east = k < 10 ? -3_000 + 300 * Double(k) : k < 100 ? 0 : 300 * Double(k - 99)
            let truth = at(north: 0, east: east)
            let noisy = k >= 10 && k < 100 && k % 5 == 0 ? at(north: 60, east: east) : truth
            s.device.append(7)
            s.time.append(Double(k) * 20)
            s.latitude.append(noisy.latitude)
            s.longitude.append(noisy.longitude)
            s.accuracy.append(10)
            s.trueLatitude.append(truth.latitude)
            s.trueLongitude.append(truth.longitude)
        }
        return ([row], try FenceOutlines([(3, polygon)]), s)
    }

    @Test func theAppDecidesPolygonsWithTheDetectorsNoiseModel() throws {
        let (rows, outlines, fixes) = try Self.standingInABuilding()
        let truth = try PlanScoring.truth(fences: fences(rows), fixes: fixes, outlines: outlines)
        #expect(truth.entriesByDevice[0].map(\.fence) == [3])
        // The standing fixes cross the wall inwards 18 times (the first is the arrival).
        let polygon = try #require(outlines.polygon(forID: 3))
        let inside = (10..<100).map { polygon.contains(LatLng(uncheckedLatitude: fixes.latitude[$0], longitude: fixes.longitude[$0]).unitVector) }
        #expect(zip(inside, inside.dropFirst()).filter { !$0.0 && $0.1 }.count == 18)
        let planner = try MonitorPlanner(
            candidates: PlanScoring.candidates(from: rows, outlines: outlines), configuration: .init(capacity: 4))
        let settings = PlanScoring.Settings(os: .init(capacity: 4), seed: 3)
        let s = try PlanScoring.score(.planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes, settings: settings)
        // The detector's polygon rule exits on two fixes in a row outside by the margin: a lone
        // fix outside is no exit, so the stay fires once.
        #expect(s.requiredEntries == 1 && s.caughtRequiredWithWakeUpCheck == 1)
        #expect(s.wakeCheckFires == 1 && s.wakeCheckRepeatFires == 0 && s.wakeCheckFalseFires == 0)
        // A detector that exits on one fix outside and enters on one inside, with no accuracy
        // margin (a raw hit test), fires again at every one after the arrival.
        var raw = settings
        raw.polygonDetection = TransitionDetectorConfiguration(
            exitConfirmations: 1, polygonEnterAccuracyFactor: 0, polygonExitAccuracyFactor: 0)
        let r = try PlanScoring.score(.planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes, settings: raw)
        #expect(r.caughtRequiredWithWakeUpCheck == 1)
        #expect(r.wakeCheckRepeatFires == 17, "\(r.wakeCheckRepeatFires) repeat fires")
        // Settings are checked.
        var bad = settings
        bad.polygonDetection.maxAccuracyMeters = -1
        #expect(throws: PlanScoring.Error.invalidSetting(field: "polygonDetection.maxAccuracyMeters", value: -1)) {
            try PlanScoring.score(.planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes, settings: bad)
        }
    }
}
