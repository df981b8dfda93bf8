import Foundation
import Geodesy
import Testing
@testable import Geofencing

private let sf = try! Place(id: "sf", latitude: 37.7749, longitude: -122.4194)
private let oak = try! Place(id: "oak", latitude: 37.8044, longitude: -122.2712)

@Test func poiCategoryTaskMakesFiveThreeOneMileRingsPerPOI() throws {
    let fences = try PlaceTask(id: "pharmacy", kind: .poiCategory, places: [sf, oak]).fences(firstID: 10)
    #expect(fences.map(\.id) == Array(10...15))
    #expect(
        fences.map(\.kind) == [
            .approach(miles: 5), .approach(miles: 3), .approach(miles: 1),
            .approach(miles: 5), .approach(miles: 3), .approach(miles: 1)
        ])
    #expect(fences.map(\.radiusMeters) == [8046.72, 4828.032, 1609.344, 8046.72, 4828.032, 1609.344])
    #expect(fences.map(\.place.id) == ["sf", "sf", "sf", "oak", "oak", "oak"])
    #expect(fences.allSatisfy { $0.taskID == "pharmacy" && $0.dwellSeconds == nil })
    // Nearer rings rank higher.
    #expect(fences[2].priority > fences[1].priority && fences[1].priority > fences[0].priority)
}

@Test func homeAndWorkGetTwoMileApproachArrivalAndFiveMinuteDwell() throws {
    for kind in [TaskKind.home, .work] {
        let fences = try PlaceTask(id: "t", kind: kind, places: [sf]).fences(firstID: 0)
        #expect(fences.map(\.kind) == [.approach(miles: 2), .arrival, .postArrivalDwell])
        #expect(fences.map(\.radiusMeters) == [2 * 1609.344, 150, 150])
        #expect(fences[2].dwellSeconds == 300)
        #expect(fences[1].priority > fences[0].priority)
    }
}

@Test func customPlaceGetsFiveMileApproach() throws {
    let fences = try PlaceTask(id: "t", kind: .customPlace, places: [sf]).fences(firstID: 0)
    #expect(fences.map(\.kind) == [.approach(miles: 5), .arrival, .postArrivalDwell])
    #expect(fences[0].radiusMeters == 5 * 1609.344)
    #expect(fences[2].dwellSeconds == 300)
}

@Test func triggersDefaultTo150MetersAndCarryTheirDelay() throws {
    let arrive = try PlaceTask(id: "a", kind: .arriveTrigger, places: [sf]).fences(firstID: 7)
    #expect(arrive.count == 1)
    #expect(arrive[0].kind == .arriveTrigger && arrive[0].radiusMeters == 150 && arrive[0].delaySeconds == nil)
    var settings = TierSettings.defaults(for: .leaveTrigger)
    settings.delaySeconds = 120
    settings.triggerRadiusMeters = 300
    let leave = try PlaceTask(id: "l", kind: .leaveTrigger, places: [sf], settings: settings).fences(firstID: 0)
    #expect(leave[0].kind == .leaveTrigger && leave[0].radiusMeters == 300 && leave[0].delaySeconds == 120)
}

@Test func defaultsCanBeOverridden() throws {
    var settings = TierSettings.defaults(for: .home)
    settings.approachMiles = [10, 2]
    settings.arrivalRadiusMeters = 250
    settings.dwellSeconds = nil
    settings.priorityBoost = 1000
    let fences = try PlaceTask(id: "h", kind: .home, places: [sf], settings: settings).fences(firstID: 0)
    #expect(fences.map(\.kind) == [.approach(miles: 10), .approach(miles: 2), .arrival])
    #expect(fences[2].radiusMeters == 250)
    #expect(fences[2].priority == GeofenceKind.arrival.defaultPriority + 1000)
}

@Test func badTasksThrowTypedErrors() {
    #expect(throws: GeofenceError.emptyTaskID) { try PlaceTask(id: "", kind: .home, places: [sf]).fences(firstID: 0) }
    #expect(throws: GeofenceError.placeCount(kind: .home, expected: "exactly 1", found: 2)) {
        try PlaceTask(id: "h", kind: .home, places: [sf, oak]).fences(firstID: 0)
    }
    #expect(throws: GeofenceError.placeCount(kind: .poiCategory, expected: "at least 1", found: 0)) {
        try PlaceTask(id: "p", kind: .poiCategory, places: []).fences(firstID: 0)
    }
    var s = TierSettings.defaults(for: .customPlace)
    s.approachMiles = [.nan]
    #expect(throws: GeofenceError.self) { try PlaceTask(id: "c", kind: .customPlace, places: [sf], settings: s).fences(firstID: 0) }
    s = TierSettings.defaults(for: .customPlace)
    s.arrivalRadiusMeters = -5
    #expect(throws: GeofenceError.invalidRadius(-5)) { try PlaceTask(id: "c", kind: .customPlace, places: [sf], settings: s).fences(firstID: 0) }
    s = TierSettings.defaults(for: .customPlace)
    s.dwellSeconds = -1
    #expect(throws: GeofenceError.invalidDwell(-1)) { try PlaceTask(id: "c", kind: .customPlace, places: [sf], settings: s).fences(firstID: 0) }
    s = TierSettings.defaults(for: .arriveTrigger)
    s.delaySeconds = .infinity
    #expect(throws: GeofenceError.self) { try PlaceTask(id: "c", kind: .arriveTrigger, places: [sf], settings: s).fences(firstID: 0) }
    #expect(throws: GeofenceError.fenceIDOverflow) {
        try PlaceTask(id: "p", kind: .poiCategory, places: [sf]).fences(firstID: Int32.max)
    }
    #expect(throws: GeofenceError.noFences(taskID: "n")) {
        try PlaceTask(id: "n", kind: .customPlace, places: [sf], settings: TierSettings()).fences(firstID: 0)
    }
}

@Test func taskRoundTripsThroughJSON() throws {
    let task = PlaceTask(id: "x", kind: .customPlace, places: [sf])
    let back = try JSONDecoder().decode(PlaceTask.self, from: JSONEncoder().encode(task))
    #expect(back == task)
}
