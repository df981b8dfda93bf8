import Foundation
import Geodesy
import Testing

@Suite struct LatLngBoxCapTests {
    static let halfCircumference = Double.pi * Earth.meanRadius  // 20,015,086.8 m

    @Test func degenerateRadii() throws {
        let c = try LatLng(latitude: 12.5, longitude: -45.25)
        #expect(LatLngBox.bounding(center: c, radius: 0) == LatLngBox(south: 12.5, north: 12.5, west: -45.25, east: -45.25))
        #expect(LatLngBox.bounding(center: c, radius: -1).isEmpty)
        #expect(LatLngBox.bounding(center: c, radius: -.infinity).isEmpty)
        #expect(LatLngBox.bounding(center: c, radius: .nan).isEmpty)
        #expect(LatLngBox.bounding(center: c, radius: .infinity) == .full)
        #expect(LatLngBox.bounding(center: c, radius: Self.halfCircumference) == .full)
        #expect(LatLngBox.bounding(center: c, radius: 3e7) == .full)
        let pole = try LatLng(latitude: -90, longitude: 33)
        let polePoint = LatLngBox.bounding(center: pole, radius: 0)
        #expect(polePoint == LatLngBox(south: -90, north: -90, west: -180, east: 180))
        #expect(polePoint.contains(try LatLng(latitude: -90, longitude: -150)))
    }

    @Test func capsThroughAPoleSpanAllLongitudes() throws {
        // 100 km from the North Pole, radius 150 km: reaches over the pole.
        let c = try LatLng(latitude: 90 - degrees(radians: 100_000 / Earth.meanRadius), longitude: 10)
        let box = LatLngBox.bounding(center: c, radius: 150_000)
        #expect(box.spansAllLongitudes && box.north == 90)
        #expect(abs(box.south - (c.latitude - degrees(radians: 150_000 / Earth.meanRadius))) <= 1e-9)
        // Radius 99 km: does not reach the pole, so a finite longitude span, north < 90.
        let near = LatLngBox.bounding(center: c, radius: 99_000)
        #expect(!near.spansAllLongitudes && near.north < 90)
        // Center at the South Pole: [-90, -90 + r] and every longitude.
        let south = LatLngBox.bounding(center: try LatLng(latitude: -90, longitude: 0), radius: 1000)
        #expect(south.spansAllLongitudes && south.south == -90)
        #expect(abs(south.north - (-90 + degrees(radians: 1000 / Earth.meanRadius))) <= 2e-12)  // margin 1e-12°
        // A cap reaching both poles is the full box.
        let both = LatLngBox.bounding(center: try LatLng(latitude: 0, longitude: 0), radius: 10_010_000)
        #expect(both == .full)
    }

    @Test func capsAcrossTheAntimeridian() throws {
        for lon in [179.9, 180, -180, -179.9] {
            let c = try LatLng(latitude: -33, longitude: lon)
            let box = LatLngBox.bounding(center: c, radius: 50_000)
            #expect(box.crossesAntimeridian, "center lon \(lon): \(box)")
            #expect(box.contains(try LatLng(latitude: -33, longitude: 179.95)))
            #expect(box.contains(try LatLng(latitude: -33, longitude: -179.95)))
            #expect(!box.contains(try LatLng(latitude: -33, longitude: 0)))
        }
        // A tiny cap at lon 180 (1 m): still crosses (by its margin) and holds both spellings.
        let tiny = LatLngBox.bounding(center: try LatLng(latitude: 0, longitude: 180), radius: 1)
        #expect(tiny.contains(try LatLng(latitude: 0, longitude: 180)))
        #expect(tiny.contains(try LatLng(latitude: 0, longitude: -180)))
    }

    @Test func exactHalfWidth() throws {
        // asin(sin δ / cos φ) at 60°N, 500 km.
        let c = try LatLng(latitude: 60, longitude: 20)
        let delta = 500_000 / Earth.meanRadius
        let expected = degrees(radians: asin(sin(delta) / cos(Double.pi / 3)))
        let box = LatLngBox.bounding(center: c, radius: 500_000)
        #expect(abs((box.east - 20) - expected) <= 1e-11)
        #expect(abs((20 - box.west) - expected) <= 1e-11)
    }

    /// Seeded random caps of every kind: every point of the cap is in the box, and the box is
    /// tight (its edges are reached by the cap's boundary).
    @Test func randomCapsAreBoundedAndTight() throws {
        let seed: UInt64 = 0xCA9B0
        var rng = SplitMix64(seed: seed)
        let radii: [Double] = [
            0, 1, 500_000, 10_000_000, 20_015_000, Self.halfCircumference - 1,
            Self.halfCircumference + 1
        ]
        var worstSlack = 0.0  // how far a latitude edge lies beyond the cap's extreme, degrees
        var worstLongitudeSlack = 0.0, worstSlackMeters = 0.0  // same for longitude edges
        for caseIndex in 0..<600 {
            var center = try randomLatLng(&rng)
            switch caseIndex % 6 {
            case 0: center = try LatLng(latitude: caseIndex % 12 == 0 ? 90 : -90, longitude: center.longitude)
            case 1: center = try LatLng(latitude: (caseIndex % 12 == 1 ? 1 : -1) * (90 - 0.01 * rng.nextUnit()), longitude: center.longitude)
            case 2: center = try LatLng(latitude: center.latitude, longitude: caseIndex % 12 == 2 ? 180 : -180)
            case 3:
                center = try LatLng(
                    normalizingLatitude: center.latitude, longitude: 179.999 + 0.002 * rng.nextUnit() - (rng.nextUnit() < 0.5 ? 0 : 360))
            default: break
            }
            let radius =
                caseIndex < 7 * 40
                ? radii[caseIndex % radii.count]
                : pow(10, 7.3 * rng.nextUnit())  // log-uniform 1 m to 20,000 km
            let box = LatLngBox.bounding(center: center, radius: radius)
            let context = "seed \(seed) case \(caseIndex): center \(center) radius \(radius) box \(box)"
            #expect(!box.isEmpty, "\(context)")
            #expect(box.south >= -90 && box.north <= 90 && box.west >= -180 && box.east <= 180, "\(context)")
            #expect(box.contains(center), "\(context)")

            // Inside and boundary points.
            for k in 0..<200 {
                let fraction = k % 4 == 0 ? 1 : rng.nextUnit()
                let p = destination(
                    from: center, bearing: 360 * rng.nextUnit(),
                    distance: min(radius, Self.halfCircumference) * fraction)
                #expect(box.contains(p), "\(context): point \(p) at fraction \(fraction)")
            }

            // Tightness in latitude: the cap's northmost and southmost points.
            let northmost =
                radius >= Self.halfCircumference
                ? 90
                : destination(from: center, bearing: 0, distance: radius).latitude
            let reachesNorth = haversineDistance(center, try LatLng(latitude: 90, longitude: 0)) <= radius
            let reachesSouth = haversineDistance(center, try LatLng(latitude: -90, longitude: 0)) <= radius
            let expectedNorth = reachesNorth ? 90 : northmost
            let southmost =
                radius >= Self.halfCircumference
                ? -90
                : destination(from: center, bearing: 180, distance: radius).latitude
            let expectedSouth = reachesSouth ? -90 : southmost
            #expect(abs(box.north - expectedNorth) <= 1e-9, "\(context): north vs \(expectedNorth)")
            #expect(abs(box.south - expectedSouth) <= 1e-9, "\(context): south vs \(expectedSouth)")
            worstSlack = max(worstSlack, abs(box.north - expectedNorth), abs(box.south - expectedSouth))

            // Longitudes: all of them exactly when the cap reaches a pole (up to the ~6 nm
            // conservative growth of the radius).
            if reachesNorth || reachesSouth {
                #expect(box.spansAllLongitudes, "\(context)")
                continue
            }
            let poleGap =
                min(
                    haversineDistance(center, try LatLng(latitude: 90, longitude: 0)),
                    haversineDistance(center, try LatLng(latitude: -90, longitude: 0))) - radius
            if box.spansAllLongitudes {
                #expect(poleGap <= 1e-6, "\(context): spans all longitudes but misses the pole by \(poleGap) m")
                continue
            }
            // Extreme east offset of the boundary, by ternary search over the bearing in [0, 180]
            // (the offset is unimodal there); west mirrors it.
            func offset(_ bearing: Double) -> Double {
                longitudeDifference(
                    from: center.longitude,
                    to: destination(from: center, bearing: bearing, distance: radius).longitude)
            }
            var lo = 0.0, hi = 180.0
            for _ in 0..<100 {
                let m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3
                if offset(m1) < offset(m2) { lo = m1 } else { hi = m2 }
            }
            let maxOffset = offset((lo + hi) / 2)
            let halfWidth = longitudeDifference(from: center.longitude, to: box.east)
            let westHalfWidth = longitudeDifference(from: box.west, to: center.longitude)
            #expect(halfWidth >= maxOffset, "\(context): east half-width \(halfWidth) < \(maxOffset)")
            // Within 1e-9° of longitude at the equator (0.1 mm), scaled by 1/cos φ since a
            // degree of longitude shrinks towards the poles (the box's 6 nm radius growth is
            // 2e-8° of longitude 25 cm from a pole); looser when the edge passes within 1 m of
            // a pole, where longitudes are ill-conditioned.
            let cosLat = max(cos(center.latitudeRadians), 1e-9)
            let tol = (poleGap > 1 ? 1e-9 : 1e-3) / cosLat
            #expect(halfWidth - maxOffset <= tol, "\(context): east half-width \(halfWidth) vs \(maxOffset)")
            #expect(abs(westHalfWidth - halfWidth) <= 1e-12, "\(context): asymmetric")
            if poleGap > 1 { worstLongitudeSlack = max(worstLongitudeSlack, halfWidth - maxOffset) }
            if poleGap > 1 {
                worstSlackMeters = max(worstSlackMeters, radians(degrees: halfWidth - maxOffset) * cosLat * Earth.meanRadius)
            }
        }
        print(
            "cap bounds: worst latitude-edge slack \(worstSlack)°; longitude-edge slack \(worstLongitudeSlack)° of longitude, at most \(worstSlackMeters) m along the center's parallel"
        )
    }

    /// A cap whose edge just misses the pole: the longitude half-width is large and must still
    /// bound every point on the edge (where the asin form would lose half its digits).
    @Test func capGrazingAPole() throws {
        let seed: UInt64 = 0x9A2E
        var rng = SplitMix64(seed: seed)
        for i in 0..<200 {
            let lat = 60 + 29.9 * rng.nextUnit()
            let center = try LatLng(latitude: lat, longitude: 360 * rng.nextUnit() - 180)
            let toPole = radians(degrees: 90 - lat) * Earth.meanRadius
            let miss = pow(10, -3 + 6 * rng.nextUnit())  // edge 1 mm to 1 km from the pole
            let radius = toPole - miss
            let box = LatLngBox.bounding(center: center, radius: radius)
            let context = "seed \(seed) sample \(i): center \(center) radius \(radius) miss \(miss) box \(box)"
            for k in 0..<720 {
                let p = destination(from: center, bearing: Double(k) / 2, distance: radius)
                #expect(box.contains(p), "\(context): point \(p)")
            }
        }
    }
}
