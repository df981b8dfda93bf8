import Geodesy
import Geofencing
@testable import POIData
import Testing

@Suite struct POICategoryTaskTests {
    @Test func pharmacyTaskGivesFiveThreeOneMileRingsPerPOI() throws {
        let catalog = try load("pois_osm.csv").get()
        let index = POIIndex(catalog)
        let here = LatLng(uncheckedLatitude: 60.1716419, longitude: 24.9385433)
        let task = POICategoryTask(id: "buy-medicine", category: .pharmacy, near: [here], k: 2, in: index)
        #expect(task.matches.count == 2)
        #expect(task.task.kind == .poiCategory)
        #expect(task.task.places.map(\.id) == task.matches.map { catalog.placeID(at: $0.poi) })
        #expect(task.task.places.allSatisfy { $0.id.hasPrefix("node/") || $0.id.hasPrefix("way/") })
        let fences = try task.fences(firstID: 10)
        #expect(fences.count == 6)
        #expect(fences.map(\.fence.id) == Array(10...15))
        #expect(fences.map(\.fence.radiusMeters) == [8046.72, 4828.032, 1609.344, 8046.72, 4828.032, 1609.344])
        #expect(fences.map(\.tier) == [2, 1, 0, 2, 1, 0])
        #expect(
            fences.map(\.poi) == [
                task.matches[0].poi, task.matches[0].poi, task.matches[0].poi,
                task.matches[1].poi, task.matches[1].poi, task.matches[1].poi
            ])
        #expect(fences.allSatisfy { $0.fence.place.center == catalog.location(at: $0.poi) && $0.fence.kind != .arrival })
        #expect(fences[0].fence.kind == .approach(miles: 5))
    }

    @Test func noMatchMeansNoFences() throws {
        let catalog = try load("pois_osm.csv").get()
        let task = POICategoryTask(
            id: "fuel", category: .fuel, near: [LatLng(uncheckedLatitude: 0, longitude: 0)], k: 3,
            maxDistanceMeters: 1_000, in: POIIndex(catalog))
        #expect(task.matches.isEmpty)
        #expect(throws: GeofenceError.self) { try task.fences() }
    }
}
