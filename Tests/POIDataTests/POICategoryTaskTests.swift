import Geodesy
import Geofencing
import GeoCells
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

    /// "Go to the bank" next to Suomen Pankki: the bank's outline (Data/helsinki_areas.geojson)
    /// becomes its arrival fence, tier 0, before its rings; the other banks keep their rings.
    @Test func aBankWithAnOutlineGetsItAsItsArrivalFence() throws {
        let catalog = try load("pois_osm_all.csv").get()
        let outlines = try POIOutlines(path: Fixture.path("helsinki_areas.geojson"), catalog: catalog)
        let here = LatLng(uncheckedLatitude: 60.17165, longitude: 24.9513)
        let task = POICategoryTask(id: "bank", category: .bank, near: [here], k: 3, in: POIIndex(catalog))
        #expect(task.matches.first?.poi == 1511)
        let (fences, shapes) = try task.fences(firstID: 0, outlines: outlines)
        #expect(fences.count == 10)
        #expect(fences.map(\.fence.id) == Array(0...9))
        #expect(
            fences.map(\.poi) == [1511, 1511, 1511, 1511] + Array(repeating: task.matches[1].poi, count: 3)
                + Array(repeating: task.matches[2].poi, count: 3))
        #expect(fences.map(\.tier) == [3, 2, 1, 0, 2, 1, 0, 2, 1, 0])
        #expect(fences.map(\.isOutline) == [false, false, false, true, false, false, false, false, false, false])
        let arrival = fences[3].fence
        #expect(arrival.kind == .arrival && arrival.place.id == "way/17359934")
        #expect(shapes.ids == [3])
        let polygon = try #require(shapes.polygon(forID: 3))
        #expect(polygon.vertices == outlines.outline(ofPOI: 1511)!.vertices)
        #expect(polygon.vertices.allSatisfy { arrival.fence.contains($0) })
        #expect(arrival.radiusMeters > 20 && arrival.radiusMeters < 100, "\(arrival.radiusMeters)")
        // Without outlines: rings only, as the circle rules give them.
        let circles = try task.fences(firstID: 0)
        #expect(circles.count == 9 && circles.allSatisfy { !$0.isOutline && $0.fence.kind != .arrival })
        #expect(circles.map(\.tier) == [2, 1, 0, 2, 1, 0, 2, 1, 0])
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
