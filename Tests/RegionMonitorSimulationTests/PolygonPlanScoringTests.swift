import GeoCells
import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import RegionMonitorSimulation

/// Polygon fences under the OS cap: the OS watches each polygon's enclosing circle, and the app
/// hit-tests the polygon at every fix while inside that circle; only the polygon's own event
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
        // The OS's circle enters are wakes, never polygon events; the app's hit test catches all.
        #expect(s.caughtRequired == 0 && s.enterEvents == 0)
        #expect(s.caughtRequiredWithWakeUpCheck == 15)
        #expect(s.wakeCheckFalseFires == 0 && s.wakeCheckFires == 15)
    }

    @Test func theWakeCheckGatesPolygonsOnTheirBoundaryDistance() throws {
        let origin = LatLng(uncheckedLatitude: 10, longitude: 10)
        let square = [(0.0, 0.0), (0, 100), (100, 100), (100, 0)].map {
            destination(from: destination(from: origin, bearing: 0, distance: $0.0), bearing: 90, distance: $0.1)
        }
        let polygon = try Polygon(latLngRings: [square])
        let fence = try FenceOutlines.enclosingFence(id: 5, polygon: polygon)
        var check = PlanScoring.WakeCheck(entryGate: 1, exitGate: 0, outlines: try FenceOutlines([(5, polygon)]))
        var fired: [Int32] = []
        // 30 m inside the square (20 m from the nearest edge... 30 m from the south edge): a fix
        // of accuracy 40 m is not inside by the gate, one of 20 m is.
        let p = destination(from: destination(from: origin, bearing: 0, distance: 30), bearing: 90, distance: 50).unitVector
        #expect(check.check(p, accuracyMeters: 40, inside: [5], fence: { _ in fence }, fired: &fired) && fired.isEmpty)
        #expect(!check.check(p, accuracyMeters: 20, inside: [5], fence: { _ in fence }, fired: &fired) && fired == [5])
        // Its circle would have let the 40 m fix fire: the center is 71 m inside the circle.
        #expect(distance(p, fence.centerVector) <= fence.radiusMeters - 40)
    }
}
