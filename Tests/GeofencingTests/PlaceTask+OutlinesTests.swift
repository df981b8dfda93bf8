import GeoCells
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// The outline rule of `PlaceTask.fences(firstID:outlines:)`: an outline is its place's
/// arrival area; approach rings stay circles; places without one keep their circle fences.
@Suite struct PlaceTaskOutlinesTests {
    static let sf = try! Place(id: "sf", latitude: 37.7749, longitude: -122.4194)
    static let oak = try! Place(id: "oak", latitude: 37.8044, longitude: -122.2712)

    /// A 120 m by 80 m block whose south-west corner is 30 m north and 40 m east of `place`.
    static func block(near place: Place) throws -> Polygon {
        let corners: [(Double, Double)] = [(30, 40), (30, 160), (110, 160), (110, 40)]
        return try Polygon(latLngRings: [corners.map { PolygonFenceDetectorTests.point(place.center, $0.0, $0.1) }])
    }

    @Test func aCategoryTaskGainsAnArrivalFenceThatIsTheOutline() throws {
        let outline = try Self.block(near: Self.sf)
        let task = PlaceTask(id: "pharmacy", kind: .poiCategory, places: [Self.sf, Self.oak])
        let built = try task.fences(firstID: 20, outlines: [outline, nil])
        #expect(built.fences.map(\.id) == Array(20...26))
        #expect(built.places == [0, 0, 0, 0, 1, 1, 1])
        #expect(
            built.fences.map(\.kind) == [
                .approach(miles: 5), .approach(miles: 3), .approach(miles: 1), .arrival,
                .approach(miles: 5), .approach(miles: 3), .approach(miles: 1)
            ])
        #expect(built.outlines.ids == [23])
        // The rings are the circle rules' own: centered on the place, miles wide.
        let circles = try task.fences(firstID: 20)
        #expect(Array(built.fences[0..<3]) == Array(circles[0..<3]))
        #expect(
            Array(built.fences[4...])
                == circles[3...].map {
                    try! Geofence(
                        id: $0.id + 1, taskID: $0.taskID, place: $0.place, kind: $0.kind, radiusMeters: $0.radiusMeters, priority: $0.priority)
                })
        // The arrival fence is the outline's minimum enclosing circle (about 72 m: half the
        // block's diagonal), centered on the block, not on the place; it keeps the place's id.
        let arrival = built.fences[3]
        let enclosing = try FenceOutlines.enclosingFence(id: 23, polygon: outline)
        #expect(arrival.fence == enclosing)
        #expect(arrival.place.id == "sf" && arrival.place.center != Self.sf.center)
        #expect(abs(arrival.radiusMeters - 72.1) < 0.5, "\(arrival.radiusMeters)")
        #expect(arrival.priority == GeofenceKind.arrival.defaultPriority)
        #expect(outline.vertices.allSatisfy { arrival.fence.contains($0) })
        // Inside the circle but 10 m south of the block: not in the fence.
        let south = PolygonFenceDetectorTests.point(Self.sf.center, 20, 100).unitVector
        #expect(arrival.fence.contains(south))
        #expect(!built.outlines.contains(arrival.fence, south))
        #expect(built.outlines.contains(arrival.fence, PolygonFenceDetectorTests.point(Self.sf.center, 70, 100).unitVector))
    }

    @Test func anOutlineReplacesTheArrivalAndDwellCirclesAndATrigger() throws {
        let outline = try Self.block(near: Self.sf)
        let custom = try PlaceTask(id: "gym", kind: .customPlace, places: [Self.sf]).fences(firstID: 0, outlines: [outline])
        #expect(custom.fences.map(\.kind) == [.approach(miles: 5), .arrival, .postArrivalDwell])
        #expect(custom.outlines.ids == [1, 2])
        #expect(custom.fences[0].radiusMeters == 5 * 1609.344 && custom.fences[0].place == Self.sf)
        #expect(custom.fences[2].dwellSeconds == 300 && custom.fences[2].radiusMeters == custom.fences[1].radiusMeters)
        let settings = TierSettings(triggerRadiusMeters: 150, delaySeconds: 60)
        let leave = try PlaceTask(id: "leave", kind: .leaveTrigger, places: [Self.sf], settings: settings)
            .fences(firstID: 5, outlines: [outline])
        #expect(leave.fences.map(\.kind) == [.leaveTrigger])
        #expect(leave.fences[0].delaySeconds == 60 && leave.fences[0].radiusMeters < 100)
        #expect(leave.outlines.ids == [5])
    }

    @Test func withoutOutlinesTheFencesAreTheCircleRules() throws {
        for kind in TaskKind.allCases {
            let places = kind == .poiCategory ? [Self.sf, Self.oak] : [Self.sf]
            let task = PlaceTask(id: "t", kind: kind, places: places)
            let built = try task.fences(firstID: 3, outlines: places.map { _ in nil })
            #expect(built.fences == (try task.fences(firstID: 3)), "\(kind)")
            #expect(built.outlines.isEmpty)
        }
    }

    @Test func oneOutlineEntryPerPlace() throws {
        let task = PlaceTask(id: "t", kind: .poiCategory, places: [Self.sf, Self.oak])
        #expect(throws: GeofenceError.outlineCount(places: 2, outlines: 1)) { try task.fences(firstID: 0, outlines: [nil]) }
        #expect(GeofenceError.outlineCount(places: 2, outlines: 1).description.contains("one outline entry per place"))
    }

    /// Through the detector: a walk past the block, inside the arrival circle but never inside
    /// the outline, gives no arrival event; a walk into the block gives one.
    @Test func theDetectorArrivesOnlyInsideTheOutline() throws {
        let outline = try Self.block(near: Self.sf)
        let built = try PlaceTask(id: "pharmacy", kind: .poiCategory, places: [Self.sf]).fences(firstID: 0, outlines: [outline])
        var detector = try TransitionDetector(fences: built.fences.map(\.fence), outlines: built.outlines)
        let arrival = built.fences.first { $0.kind == .arrival }!.id
        var fixes: [(Int32, Double, LatLng, Double)] = []
        // Device 1 stands 12 m south of the block's south edge (inside the circle) for 10 minutes;
        // device 2 walks in and stands in the block's middle.
        for k in 0..<20 {
            fixes.append((1, Double(k) * 30, PolygonFenceDetectorTests.point(Self.sf.center, 18, 100), 5))
            fixes.append((2, Double(k) * 30, PolygonFenceDetectorTests.point(Self.sf.center, min(70, Double(k) * 10), 100), 5))
        }
        #expect(built.fences.first { $0.id == arrival }!.fence.contains(PolygonFenceDetectorTests.point(Self.sf.center, 18, 100).unitVector))
        let events = PolygonFenceDetectorTests.run(&detector, fixes.sorted { $0.1 < $1.1 })
        #expect(!events.contains { $0.device == 1 && $0.fence == arrival })
        #expect(events.filter { $0.device == 2 && $0.fence == arrival }.map(\.kind) == [.enter])
    }
}
