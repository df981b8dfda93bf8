import Foundation
import Geodesy
import Testing

@Suite struct NavigationTests {
    /// initialBearing against the 60-digit `sphere_azi1_deg` on every row where it is defined.
    @Test func initialBearingMatchesReference() throws {
        var errors = CategoryMax(), checked = 0
        for row in try Fixtures.inverse() where row.bearingDefined {
            let b = initialBearing(from: row.a, to: row.b)
            #expect(b >= 0 && b < 360, "row \(row.id)")
            let err = angleDifference(b, row.sphereAzimuthDegrees)
            // 1e-9 degrees (0.1 mm at 6,000 km) on every defined row, sub-meter steps included:
            // the cancellation-free denominator keeps even a 1 mm step's bearing to ~1e-12°.
            #expect(err <= 1e-9, "row \(row.id) (\(row.category)): \(b) vs \(row.sphereAzimuthDegrees)")
            errors.record(row.haversineMeters >= 1 ? row.category : row.category + " (< 1 m)", err, id: row.id)
            checked += 1
        }
        print(errors.report("initialBearing: max |error| in degrees per category"))
        #expect(errors.overall <= 1e-12)  // measured 8.5e-14°
        #expect(checked > 4000)
    }

    /// Rows with bearing_defined = 0: our documented conventions.
    @Test func initialBearingDegenerateRows() throws {
        var count = 0
        for row in try Fixtures.inverse() where !row.bearingDefined {
            count += 1
            let b = initialBearing(from: row.a, to: row.b)
            #expect(b.isFinite && b >= 0 && b < 360, "row \(row.id)")
            if row.a == row.b || haversineDistance(row.a, row.b) == 0 {
                if abs(row.a.latitude) != 90 { #expect(b == 0, "coincident row \(row.id)") }
            }
            if abs(row.a.latitude) == 90 && haversineDistance(row.a, row.b) > 1e-3 && abs(row.b.latitude) != 90 {
                // Start at a pole: 180 - Δλ at the North Pole, Δλ at the South Pole.
                let dLon = row.b.longitude - row.a.longitude
                let expected = row.a.latitude > 0 ? 180 - dLon : dLon
                #expect(angleDifference(b, expected) <= 1e-9, "pole-start row \(row.id)")
            }
        }
        #expect(count > 0)
    }

    @Test func bearingSpecialCases() throws {
        let p = try LatLng(latitude: 40, longitude: -75)
        #expect(initialBearing(from: p, to: p) == 0)
        #expect(initialBearing(from: p, to: try LatLng(latitude: 90, longitude: 123)) == 0)
        #expect(initialBearing(from: p, to: try LatLng(latitude: -90, longitude: 0)) == 180)
        #expect(initialBearing(from: try LatLng(latitude: 0, longitude: 0), to: try LatLng(latitude: 0, longitude: 10)) == 90)
        #expect(initialBearing(from: try LatLng(latitude: 0, longitude: 0), to: try LatLng(latitude: 0, longitude: -10)) == 270)
        // Across the antimeridian the short way is east.
        let east = initialBearing(from: try LatLng(latitude: 0, longitude: 179.5), to: try LatLng(latitude: 0, longitude: -179.5))
        #expect(east == 90)
        // At the North Pole, looking along the meridian 30°E to 100°E: 180 - 70 = 110.
        let b = initialBearing(from: try LatLng(latitude: 90, longitude: 30), to: try LatLng(latitude: 10, longitude: 100))
        #expect(abs(b - 110) <= 1e-12)
        // At the South Pole, Δλ.
        let s = initialBearing(from: try LatLng(latitude: -90, longitude: 30), to: try LatLng(latitude: 10, longitude: 100))
        #expect(abs(s - 70) <= 1e-12)
        // Exactly antipodal: finite and in range.
        let anti = initialBearing(from: try LatLng(latitude: 20, longitude: 10), to: try LatLng(latitude: -20, longitude: -170))
        #expect(anti.isFinite && anti >= 0 && anti < 360)
    }

    /// destination against `sphere_lat2`/`sphere_lon2` on every row of distances_direct.csv.
    @Test func destinationMatchesReference() throws {
        let rows = try Fixtures.direct()
        #expect(rows.count == 1000)
        var latErrors = CategoryMax(), lonErrors = CategoryMax(), meterErrors = CategoryMax()
        for row in rows {
            let p = destination(from: row.start, bearing: row.azimuthDegrees, distance: row.meters)
            #expect(p.longitude >= -180 && p.longitude < 180 && abs(p.latitude) <= 90, "row \(row.id)")
            let latErr = abs(p.latitude - row.sphereLat2)
            let lonErr = angleDifference(p.longitude, row.sphereLon2)
            let reference = LatLng(uncheckedLatitude: row.sphereLat2, longitude: row.sphereLon2)
            latErrors.record(row.category, latErr, id: row.id)
            lonErrors.record(row.category, lonErr, id: row.id)
            meterErrors.record(row.category, haversineDistance(p, reference), id: row.id)
            #expect(latErr <= 1e-9, "row \(row.id) (\(row.category)) lat \(p.latitude) vs \(row.sphereLat2)")
            #expect(lonErr <= 1e-9, "row \(row.id) (\(row.category)) lon \(p.longitude) vs \(row.sphereLon2)")
            #expect(haversineDistance(p, reference) <= 1e-6, "row \(row.id)")
        }
        print(latErrors.report("destination: max |latitude error| in degrees per category"))
        print(lonErrors.report("destination: max |longitude error| (mod 360) in degrees per category"))
        print(meterErrors.report("destination: max position error in meters per category"))
        #expect(meterErrors.overall <= 1e-8)  // measured 3e-9 m: the rounding of the output degrees
        #expect(latErrors.overall <= 1e-12 && lonErrors.overall <= 1e-12)
    }

    /// Travel out, then measure: distance and bearing come back.
    @Test func destinationRoundTrips() throws {
        let seed: UInt64 = 0xDE57
        var rng = SplitMix64(seed: seed)
        for i in 0..<3000 {
            var start = try randomLatLng(&rng)
            if i % 10 == 0 { start = try LatLng(latitude: i % 20 == 0 ? 90 : -90, longitude: start.longitude) }
            if i % 10 == 1 { start = try LatLng(latitude: start.latitude, longitude: i % 20 == 1 ? 180 : -180) }
            let bearing = 360 * rng.nextUnit()
            let d = pow(10, -3 + 10.2 * rng.nextUnit())  // 1 mm to ~16,000 km, log-uniform
            let p = destination(from: start, bearing: bearing, distance: d)
            let back = haversineDistance(start, p)
            #expect(abs(back - d) <= 1e-12 * d + 1e-8, "seed \(seed) sample \(i): \(start) \(bearing) \(d) -> \(back)")
            let b = initialBearing(from: start, to: p)
            // `p` is rounded to binary64 degrees, which moves it by up to ~2e-9 m (ulp of the
            // coordinates); that alone turns the bearing by 2e-9 m / d radians, so the tolerance
            // scales with 1/d (1.4e-7° at 1 m, 1e-12° at 10,000 km). The exact-input fixture
            // test above holds 1e-9° at every distance.
            let tol = degrees(radians: 4e-9 / d) + 1e-12
            #expect(angleDifference(b, bearing) <= tol, "seed \(seed) sample \(i): \(start) \(bearing) \(d) -> \(b)")
        }
    }

    /// The final bearing is the heading at the destination: continuing along it stays on the circle.
    @Test func finalBearingIsTheArrivalHeading() throws {
        let seed: UInt64 = 0xF1A1
        var rng = SplitMix64(seed: seed)
        for i in 0..<1000 {
            let start = try randomLatLng(&rng)
            let bearing = 360 * rng.nextUnit()
            let d = 1000 + 1.5e7 * rng.nextUnit()
            let mid = destination(from: start, bearing: bearing, distance: d)
            let further = destination(from: start, bearing: bearing, distance: d + 1000)
            let fb = finalBearing(from: start, to: mid)
            #expect(fb >= 0 && fb < 360)
            #expect(
                angleDifference(fb, initialBearing(from: mid, to: further)) <= 1e-6,
                "seed \(seed) sample \(i): \(start) \(bearing) \(d)")
        }
        // Due east along the equator arrives heading east.
        #expect(finalBearing(from: try LatLng(latitude: 0, longitude: 0), to: try LatLng(latitude: 0, longitude: 50)) == 90)
    }

    @Test func midpointIsEquidistantAndHalfway() throws {
        let seed: UInt64 = 0x41D
        var rng = SplitMix64(seed: seed)
        for i in 0..<2000 {
            let a = try randomLatLng(&rng)
            var b = try randomLatLng(&rng)
            if i % 5 == 0 {  // exactly antipodal pairs
                b = try LatLng(normalizingLatitude: -a.latitude, longitude: a.longitude + 180)
            }
            let m = midpoint(a, b)
            let d = haversineDistance(a, b)
            let da = haversineDistance(a, m), db = haversineDistance(b, m)
            #expect(abs(da - db) <= 1e-6, "seed \(seed) sample \(i): \(a) \(b) -> \(m)")
            #expect(abs(da - d / 2) <= 1e-6, "seed \(seed) sample \(i)")
            let q = interpolate(a, b, fraction: 0.25)
            #expect(abs(haversineDistance(a, q) - d / 4) <= 1e-6, "seed \(seed) sample \(i)")
            #expect(abs(haversineDistance(q, b) - 3 * d / 4) <= 1e-6, "seed \(seed) sample \(i)")
            #expect(haversineDistance(interpolate(a, b, fraction: 1), b) <= 1e-6, "seed \(seed) sample \(i)")
            #expect(interpolate(a, b, fraction: 0) == LatLng(uncheckedLatitude: a.latitude, longitude: LatLng.wrapLongitude(a.longitude)))
        }
        // Two points on the equator.
        let m = midpoint(try LatLng(latitude: 0, longitude: 170), try LatLng(latitude: 0, longitude: -170))
        #expect(abs(m.latitude) <= 1e-12 && angleDifference(m.longitude, 180) <= 1e-12)
    }

    @Test func destinationEdgeCases() throws {
        let p = try LatLng(latitude: 10, longitude: 180)
        // Zero distance returns the start with its longitude normalized.
        #expect(destination(from: p, bearing: 45, distance: 0) == LatLng(uncheckedLatitude: 10, longitude: -180))
        // Half the circumference reaches the antipode whatever the bearing.
        for bearing in stride(from: 0.0, to: 360, by: 30) {
            let q = destination(from: p, bearing: bearing, distance: Double.pi * Earth.meanRadius)
            #expect(haversineDistance(q, try LatLng(latitude: -10, longitude: 0)) <= 1e-6)
        }
        // A full circumference comes back.
        let back = destination(from: p, bearing: 77, distance: 2 * Double.pi * Earth.meanRadius)
        #expect(haversineDistance(back, p) <= 1e-6)
        // Negative distance goes backwards.
        let fwd = destination(from: p, bearing: 200, distance: -5000)
        #expect(haversineDistance(fwd, destination(from: p, bearing: 20, distance: 5000)) <= 1e-9)
        // From the North Pole, bearing θ heads down the meridian λ + 180 - θ.
        let pole = try LatLng(latitude: 90, longitude: 30)
        let south = destination(from: pole, bearing: 180, distance: 1_000_000)
        #expect(abs(south.longitude - 30) <= 1e-12)
        let east = destination(from: pole, bearing: 90, distance: 1_000_000)
        #expect(abs(east.longitude - 120) <= 1e-12)
        // Bearings are taken modulo 360.
        let a = destination(from: p, bearing: 30, distance: 1e6), b = destination(from: p, bearing: 390, distance: 1e6)
        #expect(haversineDistance(a, b) <= 1e-9)
    }
}
