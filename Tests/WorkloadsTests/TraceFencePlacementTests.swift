import Geodesy
import Testing
@testable import Workloads

/// ``TraceFencePlacement`` on hand-made traces: which fixes are anchors, ids and tiers, and the
/// grazing centers checked by distance (haversine) and bearing, across the antimeridian and next
/// to the North Pole.
@Suite struct TraceFencePlacementTests {
    /// A stream of `(device, lat, lon)` fixes one second apart, accuracy 5 m.
    func stream(_ rows: [(Int32, Double, Double)]) -> FixStream {
        var s = FixStream()
        for (k, (d, lat, lon)) in rows.enumerated() {
            s.device.append(d); s.time.append(Double(k)); s.latitude.append(lat); s.longitude.append(lon); s.accuracy.append(5)
        }
        return s
    }

    @Test func emptyStreamHasNoFences() {
        #expect(TraceFencePlacement().fences(along: FixStream()).isEmpty)
        // Fewer than offset + 1 fixes per device: no anchor.
        #expect(TraceFencePlacement().fences(along: stream([(0, 1, 1), (0, 1, 2), (0, 1, 3), (0, 1, 4)])).isEmpty)
    }

    /// Two interleaved devices, 13 fixes each: the anchors are each device's 5th and 13th fix
    /// (k = 4, 12), devices in ascending id whatever the stream order; 6 fences per anchor.
    @Test func anchorsAreEveryEighthFixOfEachDevice() {
        var rows: [(Int32, Double, Double)] = []
        for k in 0..<13 {
            rows.append((9, 10 + Double(k) * 0.001, 20))  // device 9 first in the stream
            rows.append((2, -30, 40 + Double(k) * 0.001))
        }
        let fences = TraceFencePlacement().fences(along: stream(rows))
        #expect(fences.count == 4 * 6)
        #expect(fences.map(\.id) == (0..<24).map(Int32.init))
        // Device 2's anchors first: k = 4 then 12.
        #expect(fences[0].latitude == -30 && fences[0].longitude == 40.004)
        #expect(fences[6].longitude == 40.012)
        #expect(fences[12].latitude == 10.004 && fences[18].latitude == 10.012)
        // Concentric tiers of one POI, then three grazing fences, each its own POI.
        #expect(fences[0..<6].map(\.radius) == [50, 150, 400, 50, 150, 400])
        #expect(fences[0..<6].map(\.tier) == [0, 1, 2, 0, 0, 0])
        #expect(fences[0..<6].map(\.poiID) == [0, 0, 0, 1, 2, 3])
        #expect(fences[6].poiID == 4)
        // Deterministic.
        #expect(TraceFencePlacement().fences(along: stream(rows)) == fences)
    }

    /// A grazing fence's center is 0.9 r from its anchor, due north, so the anchor is 0.1 r
    /// inside; checked with the haversine distance (not the code that placed it) to 1e-6 m.
    @Test func grazingCentersAreNinetenthsOfTheRadiusNorth() {
        let fences = TraceFencePlacement().fences(along: stream((0..<5).map { (0, 45.5, 14.25 + Double($0) * 1e-4) }))
        let anchor = LatLng(uncheckedLatitude: 45.5, longitude: 14.2504)
        for f in fences[3..<6] {
            let c = LatLng(uncheckedLatitude: f.latitude, longitude: f.longitude)
            #expect(abs(haversineDistance(anchor, c) - 0.9 * f.radius) < 1e-6)
            #expect(f.longitude == anchor.longitude)
            // Due north along the meridian: latitude grows by 0.9 r / R radians.
            #expect(abs(f.latitude - (45.5 + 0.9 * f.radius / Earth.meanRadius * 180 / .pi)) < 1e-12)
        }
    }

    /// A trace crossing the antimeridian (179.999 E to 179.999 W): the anchor west of it keeps
    /// its longitude (normalized to [-180, 180)), the grazing centers stay on it.
    @Test func traceAcrossTheAntimeridian() {
        let lons = [179.997, 179.998, 179.999, -180.0, -179.999, -179.998]
        let fences = TraceFencePlacement(every: 2, offset: 1).fences(along: stream(lons.map { (5, -16.5, $0) }))
        #expect(fences.count == 3 * 6)  // anchors k = 1, 3, 5
        #expect(fences.map(\.longitude).allSatisfy { (-180.0..<180.0).contains($0) })
        #expect(fences[6].longitude == -180 && fences[12].longitude == -179.998)
        for f in fences where f.tier == 0 && f.poiID % 4 != 0 {
            #expect(abs(f.latitude - (-16.5 + 0.9 * f.radius / Earth.meanRadius * 180 / .pi)) < 1e-12)
        }
    }

    /// An anchor 20 m from the North Pole: 0.9 r north of it (45, 135 and 360 m) passes over
    /// the pole, so the center comes back down on the opposite meridian (longitude + 180),
    /// 0.9 r from the anchor. Adding degrees to the latitude would give a latitude above 90.
    @Test func anchorNextToTheNorthPole() {
        let lat = 90 - 20 / Earth.meanRadius * 180 / .pi
        let fences = TraceFencePlacement(every: 1, offset: 0, radii: [50, 150, 400]).fences(along: stream([(1, lat, 30)]))
        #expect(fences.count == 6)
        let anchor = LatLng(uncheckedLatitude: lat, longitude: 30)
        for f in fences[3...] {
            #expect(f.latitude <= 90 && f.longitude == -150)
            let c = LatLng(uncheckedLatitude: f.latitude, longitude: f.longitude)
            #expect(abs(haversineDistance(anchor, c) - 0.9 * f.radius) < 1e-6, "radius \(f.radius)")
            // Meters past the pole: 0.9 r - 20.
            let pastPole = (90 - f.latitude) * .pi / 180 * Earth.meanRadius
            #expect(abs(pastPole - (0.9 * f.radius - 20)) < 1e-6)
        }
    }

    /// Zero grazing fraction puts the grazing fences on their anchor; huge radii stay valid.
    @Test func edgeSettings() {
        let rows: [(Int32, Double, Double)] = [(0, -89.9, 0), (0, -89.9, 1)]
        let onAnchor = TraceFencePlacement(every: 1, offset: 0, radii: [1e7], grazingFraction: 0).fences(along: stream(rows))
        #expect(onAnchor.count == 4)
        #expect(onAnchor[1].latitude == -89.9 && onAnchor[1].longitude == 0)
        // 0.9 × 10,000 km north from near the South Pole: about 81 degrees of arc, a valid position.
        let far = TraceFencePlacement(every: 1, offset: 0, radii: [1e7]).fences(along: stream(rows))
        let a = LatLng(uncheckedLatitude: -89.9, longitude: 0)
        let c = LatLng(uncheckedLatitude: far[1].latitude, longitude: far[1].longitude)
        #expect(abs(haversineDistance(a, c) - 9e6) < 1e-3)
    }
}
