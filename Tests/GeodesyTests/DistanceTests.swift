import Foundation
import Geodesy
import Testing

/// The textbook binary64 haversine, `2R asin(√h)`: kept here only to measure what the
/// well-conditioned form in `centralAngle` gains.
private func plainHaversine(_ a: LatLng, _ b: LatLng) -> Double {
    let dLat = radians(degrees: b.latitude - a.latitude)
    let dLon = radians(degrees: b.longitude - a.longitude)
    let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
    let h = s1 * s1 + cos(a.latitudeRadians) * cos(b.latitudeRadians) * s2 * s2
    return 2 * Earth.meanRadius * asin(min(1, h.squareRoot()))
}

@Suite struct DistanceTests {
    /// Every row of distances.csv: our distance against the 60-digit reference.
    @Test func haversineMatchesReferenceOnEveryRow() throws {
        let rows = try Fixtures.inverse()
        #expect(rows.count == 5000)
        var absolute = CategoryMax(), relative = CategoryMax()
        var plain = CategoryMax(), vector = CategoryMax()
        for row in rows {
            let d = haversineDistance(row.a, row.b)
            let err = abs(d - row.haversineMeters)
            absolute.record(row.category, err, id: row.id)
            if row.haversineMeters > 0 { relative.record(row.category, err / row.haversineMeters, id: row.id) }
            // The requirement: 1 mm on every row, near-antipodal ones included.
            #expect(err <= 1e-3, "row \(row.id) (\(row.category)): \(d) vs \(row.haversineMeters)")
            // What the formula actually achieves: the README's tight tolerance everywhere.
            #expect(err <= 1e-9 * row.haversineMeters + 1e-6, "row \(row.id) (\(row.category)): error \(err) m")
            #expect(d >= 0 && d <= Double.pi * Earth.meanRadius)
            plain.record(row.category, abs(plainHaversine(row.a, row.b) - row.haversineMeters), id: row.id)
            vector.record(row.category, abs(distance(row.a.unitVector, row.b.unitVector) - row.haversineMeters), id: row.id)
        }
        print(absolute.report("haversineDistance: max |error| in meters per category"))
        print(relative.report("haversineDistance: max relative error per category"))
        print(plain.report("plain asin haversine (for comparison): max |error| in meters"))
        print(vector.report("distance(UnitVector, UnitVector): max |error| in meters"))
        // Measured worst cases: 3.7e-9 m absolute, 5.3e-16 relative (2.4 ulp); keep some room
        // for other libms.
        #expect(absolute.overall <= 1e-7)
        #expect(relative.overall <= 2e-15)
        // The unit-vector form is also sub-micrometer everywhere.
        #expect(vector.overall <= 1e-6)
    }

    @Test func centralAngleBasics() throws {
        let p = try LatLng(latitude: 12.5, longitude: -170.25)
        #expect(centralAngle(p, p) == 0)
        let north = try LatLng(latitude: 90, longitude: 17), south = try LatLng(latitude: -90, longitude: -123)
        #expect(centralAngle(north, south) == Double.pi)
        #expect(centralAngle(north, try LatLng(latitude: 90, longitude: -50)) == 0)
        // -180 and 180 are the same meridian.
        #expect(centralAngle(try LatLng(latitude: 10, longitude: 180), try LatLng(latitude: 10, longitude: -180)) == 0)
        // Quarter circle along the equator.
        let q = centralAngle(try LatLng(latitude: 0, longitude: 0), try LatLng(latitude: 0, longitude: 90))
        #expect(abs(q - Double.pi / 2) <= 1e-15)
        // Exactly antipodal off the equator.
        let a = try LatLng(latitude: 33.3, longitude: 44.4), b = try LatLng(latitude: -33.3, longitude: 44.4 - 180)
        #expect(abs(centralAngle(a, b) - Double.pi) <= 4e-16)
    }

    @Test func distanceIsSymmetric() throws {
        var rng = SplitMix64(seed: 0xD157)
        for i in 0..<2000 {
            let a = try randomLatLng(&rng), b = try randomLatLng(&rng)
            let ab = haversineDistance(a, b), ba = haversineDistance(b, a)
            #expect(abs(ab - ba) <= 1e-8, "seed 0xD157 sample \(i): \(a) \(b)")
        }
    }

    @Test func chord2Clamps() {
        #expect(chord2(forMeters: 0) == 0)
        #expect(chord2(forMeters: -5) == 0)
        #expect(chord2(forMeters: -.infinity) == 0)
        #expect(chord2(forMeters: Double.pi * Earth.meanRadius) == 4)
        #expect(chord2(forMeters: 1e9) == 4)
        #expect(chord2(forMeters: .infinity) == 4)
        #expect(chord2(forMeters: .nan).isNaN)
        #expect(meters(forChord2: 0) == 0)
        #expect(meters(forChord2: -1) == 0)
        #expect(meters(forChord2: 4) == Double.pi * Earth.meanRadius)
        #expect(meters(forChord2: 5) == Double.pi * Earth.meanRadius)
        #expect(meters(forChord2: .nan).isNaN)
        // A quarter circumference is a chord of √2.
        #expect(abs(chord2(forMeters: Double.pi / 2 * Earth.meanRadius) - 2) <= 1e-15)
    }

    @Test func chord2RoundTripsAndAgreesWithVectors() throws {
        var rng = SplitMix64(seed: 0xC40D)
        for i in 0..<2000 {
            // Log-uniform radii from 1 mm to 20,000 km.
            let r = pow(10, -3 + 10.3 * rng.nextUnit())
            let back = meters(forChord2: chord2(forMeters: r))
            #expect(abs(back - r) <= 1e-9 * r + 1e-9, "seed 0xC40D sample \(i): r \(r) back \(back)")
            // A point at distance r from c has squared chord chord2(forMeters: r).
            let c = try randomLatLng(&rng)
            let p = destination(from: c, bearing: 360 * rng.nextUnit(), distance: r)
            let measured = c.unitVector.chord2(to: p.unitVector)
            #expect(abs(measured - chord2(forMeters: r)) <= 1e-14, "seed 0xC40D sample \(i): r \(r)")
        }
        // Monotone.
        var previous = -1.0
        for k in 0...1000 {
            let c2 = chord2(forMeters: Double(k) * 20_100)
            #expect(c2 >= previous)
            previous = c2
        }
    }

    /// The index test `|p - c|² <= chord2(forMeters: r)` agrees with `haversineDistance <= r`
    /// except within a micrometer of the boundary.
    @Test func chordTestAgreesWithDistanceTest() throws {
        let seed: UInt64 = 0xC0DE
        var rng = SplitMix64(seed: seed)
        var disagreements = 0
        for i in 0..<20_000 {
            let c = try randomLatLng(&rng)
            let r = pow(10, 7.3 * rng.nextUnit())
            // Points near the boundary on purpose: distance r·(1 ± 1e-3·u).
            let d = r * (1 + 2e-3 * (rng.nextUnit() - 0.5))
            let p = destination(from: c, bearing: 360 * rng.nextUnit(), distance: d)
            let byDistance = haversineDistance(c, p) <= r
            let byChord = c.unitVector.chord2(to: p.unitVector) <= chord2(forMeters: r)
            if byDistance != byChord {
                disagreements += 1
                #expect(abs(haversineDistance(c, p) - r) <= 1e-6, "seed \(seed) sample \(i): \(c) r \(r) p \(p)")
            }
        }
        #expect(disagreements < 20)
    }

    @Test func unitVectorDistanceHandlesScaleAndZero() throws {
        let a = try LatLng(latitude: 48.85, longitude: 2.35).unitVector
        let b = try LatLng(latitude: 51.5, longitude: -0.12).unitVector
        let d = distance(a, b)
        #expect(abs(distance(a * 3, b * 0.5) - d) <= 1e-7)
        #expect(distance(a, a) == 0)
        #expect(distance(UnitVector(x: 0, y: 0, z: 0), a) == 0)
        #expect(abs(d - haversineDistance(a.latLng, b.latLng)) <= 1e-7)
    }

    /// Measures how far the sphere is from the WGS84 ellipsoid and checks the bound that the
    /// package documents (0.6 %). The figures go into README.md.
    @Test func sphereVersusWGS84() throws {
        var absolute = CategoryMax(), relative = CategoryMax()
        for row in try Fixtures.inverse() {
            let d = haversineDistance(row.a, row.b)
            let diff = abs(d - row.wgs84Meters)
            absolute.record(row.category, diff, id: row.id)
            if row.wgs84Meters >= 1 { relative.record(row.category, diff / row.wgs84Meters, id: row.id) }
            #expect(diff <= 0.006 * row.wgs84Meters + 1e-6, "row \(row.id) (\(row.category))")
        }
        print(absolute.report("sphere vs WGS84 geodesic: max |difference| in meters per category"))
        print(relative.report("sphere vs WGS84 geodesic: max relative difference per category (rows >= 1 m)"))
        #expect(relative.overall > 0.001)  // the sphere really is an approximation
    }
}

/// A uniformly random position on the sphere.
func randomLatLng(_ rng: inout SplitMix64) throws -> LatLng {
    let z = 2 * rng.nextUnit() - 1
    return try LatLng(latitude: degrees(radians: asin(z)), longitude: 360 * rng.nextUnit() - 180)
}
