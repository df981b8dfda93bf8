import Geodesy
import Testing

@Suite struct LatLngBoxPointsTests {
    func p(_ lat: Double, _ lon: Double) -> LatLng { LatLng(uncheckedLatitude: lat, longitude: lon) }

    @Test func emptyAndSingle() {
        #expect(LatLngBox.bounding([LatLng]()).isEmpty)
        #expect(LatLngBox.bounding([p(1, 2)]) == LatLngBox(south: 1, north: 1, west: 2, east: 2))
    }

    @Test func ordinaryPointsGiveThePlainBox() {
        let box = LatLngBox.bounding([p(60.1, 24.9), p(43.7, 7.4), p(50, 10)])
        #expect(box == LatLngBox(south: 43.7, north: 60.1, west: 7.4, east: 24.9))
        #expect(!box.crossesAntimeridian)
    }

    @Test func pointsAcrossTheAntimeridianGiveANarrowCrossingBox() {
        // Fiji-like: 177.5 E and 179.9 E and 179.5 W.
        let box = LatLngBox.bounding([p(-17.8, 177.5), p(-18.1, 179.9), p(-16.5, -179.5)])
        #expect(box == LatLngBox(south: -18.1, north: -16.5, west: 177.5, east: -179.5))
        #expect(box.crossesAntimeridian)
        #expect(box.contains(p(-17, 180)) && box.contains(p(-17, -180)) && !box.contains(p(-17, 0)))
    }

    @Test func plus180IsTheSameMeridianAsMinus180() {
        let box = LatLngBox.bounding([p(0, 180), p(1, -179)])
        #expect(box == LatLngBox(south: 0, north: 1, west: -180, east: -179))
    }

    @Test func randomPointsAreAllInsideAndTheArcIsMinimal() {
        var rng = SplitMix64(seed: 2024)
        for trial in 0..<200 {
            let center = rng.nextUnit() * 360 - 180
            let spread = rng.nextUnit() * 200
            let points = (0..<(1 + Int(rng.next() % 20))).map { _ in
                p(rng.nextUnit() * 180 - 90, LatLng.wrapLongitude(center + (rng.nextUnit() - 0.5) * spread))
            }
            let box = LatLngBox.bounding(points)
            for q in points { #expect(box.contains(q), "seed 2024 trial \(trial): \(q) outside \(box)") }
            // Minimal: the box's width never exceeds the spread the points were drawn from.
            let width = box.crossesAntimeridian ? box.east + 360 - box.west : box.east - box.west
            #expect(width <= spread + 1e-9, "seed 2024 trial \(trial): width \(width) > \(spread)")
        }
    }
}
