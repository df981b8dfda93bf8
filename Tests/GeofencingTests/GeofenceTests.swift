import Foundation
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

private let place = try! Place(id: "p", latitude: 40.7128, longitude: -74.0060)

@Test func geofenceValidatesItsInvariants() throws {
    #expect(throws: GeofenceError.negativeFenceID(-1)) { try Geofence(id: -1, taskID: "t", place: place, kind: .arrival, radiusMeters: 150) }
    #expect(throws: GeofenceError.invalidRadius(0)) { try Geofence(id: 1, taskID: "t", place: place, kind: .arrival, radiusMeters: 0) }
    #expect(throws: GeofenceError.self) { try Geofence(id: 1, taskID: "t", place: place, kind: .arrival, radiusMeters: .nan) }
    #expect(throws: GeofenceError.invalidDwell(-3)) {
        try Geofence(id: 1, taskID: "t", place: place, kind: .arrival, radiusMeters: 150, dwellSeconds: -3)
    }
    #expect(throws: GeofenceError.invalidDelay(-3)) {
        try Geofence(id: 1, taskID: "t", place: place, kind: .arrival, radiusMeters: 150, delaySeconds: -3)
    }
    let ok = try Geofence(id: 3, taskID: "t", place: place, kind: .approach(miles: 1), radiusMeters: 1609.344)
    #expect(ok.priority == GeofenceKind.approach(miles: 1).defaultPriority)
    #expect(ok.fence.id == 3 && ok.fence.radiusMeters == 1609.344 && ok.fence.center == place.center)
}

@Test func geofenceRoundTripsThroughJSONAndRejectsCorruptData() throws {
    let fence = try Geofence(
        id: 9, taskID: "t", place: place, kind: .postArrivalDwell, radiusMeters: 150,
        priority: 7, dwellSeconds: 300, delaySeconds: 5)
    let data = try JSONEncoder().encode(fence)
    #expect(try JSONDecoder().decode(Geofence.self, from: data) == fence)
    let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"radiusMeters\":150", with: "\"radiusMeters\":-150")
    #expect(bad.contains("-150"))
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Geofence.self, from: Data(bad.utf8)) }
}

@Test func placeRejectsBadCoordinates() {
    #expect(throws: GeofenceError.self) {  // NaN payloads never compare equal, so match the type
        try Place(id: "x", latitude: .nan, longitude: 0)
    }
    #expect(throws: GeofenceError.invalidCenter(placeID: "x", .latitudeOutOfRange(91))) { try Place(id: "x", latitude: 91, longitude: 0) }
    #expect(throws: GeofenceError.invalidCenter(placeID: "x", .longitudeOutOfRange(181))) { try Place(id: "x", latitude: 0, longitude: 181) }
    let json = #"{"id":"x","latitude":95,"longitude":0}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Place.self, from: Data(json.utf8)) }
}

@Test func kindLabels() {
    #expect(GeofenceKind.approach(miles: 5).description == "approach-5mi")
    #expect(GeofenceKind.approach(miles: 0.5).description == "approach-0.5mi")
    #expect(GeofenceKind.postArrivalDwell.description == "dwell")
}
