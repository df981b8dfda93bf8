import Geodesy
import Geofencing
import SpatialIndex
import Testing

/// The engine example of README.md, kept verbatim so it cannot rot.
@Suite struct ReadmeEngineExampleTests {
    @Test func readmeEngineExample() throws {
        // --- README example begins ---
        let store = try Place(id: "alko-kamppi", latitude: 60.1690, longitude: 24.9320)
        let task = PlaceTask(id: "buy-wine", kind: .poiCategory, places: [store])
        let geofences = try task.fences(firstID: 0)  // approach rings at 5, 3 and 1 miles

        let index = try LatLngGridIndex(geofences.map(\.fence))  // or PackedRTree, DynamicRTree
        let here = try LatLng(latitude: 60.1699, longitude: 24.9384)
        let inside = index.fencesContaining(here.unitVector)  // all three rings, ids ascending
        let lats = [60.1699, 60.30], lons = [24.9384, 24.932]  // many fixes at once, in degrees
        var hitsPerFix = [0, 0]
        lats.withUnsafeBufferPointer { la in
            lons.withUnsafeBufferPointer { lo in
                index.forEachContaining(latitudes: la, longitudes: lo) { chunk in  // (fix, fence) pairs
                    for hit in chunk { hitsPerFix[Int(hit.fix)] += 1 }
                }
            }
        }  // hitsPerFix == [3, 0]

        var detector = try TransitionDetector(geofences: geofences)  // enter / exit / dwell, noise-robust
        var events: [TransitionEvent] = []
        for minute in 0...10 {  // driving south at 25 m/s
            let latitude = 60.30 - Double(minute) * 0.0135
            detector.process(
                device: 7, time: Double(minute) * 60, latitude: latitude, longitude: 24.932,
                accuracy: 10, into: &events)
        }
        // events: enter the 5-mile ring, then the 3-mile ring, then the 1-mile ring
        // --- README example ends ---

        #expect(geofences.count == 3)
        #expect(Set(geofences.map(\.radiusMeters)) == [1609.344, 3 * 1609.344, 5 * 1609.344])
        #expect(inside == [0, 1, 2])
        #expect(hitsPerFix == [3, 0])
        // The first fix, ~14.5 km north, only sets the initial state; then one entry per ring,
        // outermost first, and nothing else.
        #expect(events.map(\.kind) == [.enter, .enter, .enter])
        let radiusOf = Dictionary(uniqueKeysWithValues: geofences.map { ($0.id, $0.radiusMeters) })
        #expect(events.map { radiusOf[$0.fence]! } == [5 * 1609.344, 3 * 1609.344, 1609.344])
        #expect(events.allSatisfy { $0.device == 7 })
    }
}
