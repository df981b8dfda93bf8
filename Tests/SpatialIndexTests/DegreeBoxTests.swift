import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct DegreeBoxTests {
    /// Where a point of a cap must be found in its box: at its longitude in [-180, 180), or at
    /// longitude + 360 for a box that crosses the antimeridian.
    static func boxHolds(_ box: DegreeBox, latitude: Double, longitude: Double) -> Bool {
        var lon = longitude.remainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 }
        let lat = Float(latitude)
        if box.contains(latitude: lat, longitude: Float(lon)) && (!box.isCrossing || Float(lon) >= box.west) {
            return true
        }
        return box.isCrossing && Float(lon) < box.west && box.contains(latitude: lat, longitude: Float(lon + 360))
    }

    /// Seeded property test: every sampled point of a cap (inside and exactly on the edge, by
    /// the exact test of its fast unit vector) is held by the cap's box, in exactly the way the
    /// tree looks it up. Centers stress the poles and the antimeridian; radii run 0 m to 500 km.
    @Test func capPointsAreInsideTheBox() {
        var rng = SplitMix64(seed: 41)
        var checked = 0
        for round in 0..<400 {
            let center: LatLng
            switch round % 4 {
            case 0: center = TestWorld.specialPlaces[Int(rng.next() % UInt64(TestWorld.specialPlaces.count))]
            case 1:
                center = LatLng(
                    uncheckedLatitude: rng.nextUnit() * 170 - 85,
                    longitude: rng.next() % 2 == 0 ? 179.99 + rng.nextUnit() * 0.01 : -180 + rng.nextUnit() * 0.01)
            case 2:
                center = LatLng(
                    uncheckedLatitude: (rng.next() % 2 == 0 ? 1 : -1) * (89 + rng.nextUnit()),
                    longitude: rng.nextUnit() * 360 - 180)
            default: center = TestWorld.uniform(&rng)
            }
            let radius = [0, 1, 100, 8046.72, 50_000, 500_000][Int(rng.next() % 6)] * (0.5 + rng.nextUnit())
            let fence = try! Fence(id: 0, center: center, radiusMeters: radius)
            let box = DegreeBox(cap: fence)
            #expect(box.west >= -180 && box.west <= 180 && box.east >= box.west, "\(fence)")
            for _ in 0..<40 {
                let p = TestWorld.destination(
                    center, bearingDegrees: rng.nextUnit() * 360,
                    meters: radius * (rng.next() % 3 == 0 ? 1 : rng.nextUnit()))
                let v = UnitVector(fastLatitude: p.latitude, longitude: p.longitude)
                guard v.chord2(to: fence.centerVector) <= fence.chord2 else { continue }
                checked += 1
                #expect(
                    DegreeBoxTests.boxHolds(box, latitude: p.latitude, longitude: p.longitude),
                    "\(p) in \(fence): box \(box), seed 41")
            }
        }
        #expect(checked > 8000)
    }

    @Test func crossingBoxes() {
        let east = try! Fence(id: 0, latitude: 10, longitude: 179.99, radiusMeters: 5000)
        let b = DegreeBox(cap: east)
        #expect(b.isCrossing && b.west < 179.99 && b.east > 180 && b.east < 180.05)
        let west = try! Fence(id: 1, latitude: 10, longitude: -179.99, radiusMeters: 5000)
        let c = DegreeBox(cap: west)
        #expect(c.isCrossing && c.west > 179.9 && c.west < 180 && c.east > 180.05 && c.east < 180.1)
        let polar = DegreeBox(cap: try! Fence(id: 2, latitude: 89.99, longitude: 3, radiusMeters: 5000))
        #expect(!polar.isCrossing && polar.west == -180 && polar.east == 180 && polar.north == 90)
        let plain = DegreeBox(cap: try! Fence(id: 3, latitude: 0, longitude: 0, radiusMeters: 1000))
        #expect(!plain.isCrossing && plain.west < 0 && plain.east > 0)
    }

    @Test func outwardRounding() {
        for x in [0.1, -0.1, 179.99999999, -179.99999999, 90, -90, 1e-30] {
            #expect(Double(DegreeBox.down(x)) <= x && Double(DegreeBox.up(x)) >= x)
            #expect(Double(DegreeBox.down(x).nextUp) > x && Double(DegreeBox.up(x).nextDown) < x)
        }
    }
}
