import Geodesy
import Testing

@Suite struct LatLngTests {
    @Test func acceptsTheClosedRanges() throws {
        for (lat, lon) in [(90.0, 180.0), (-90, -180), (0, 0), (-0.0, -0.0), (45.5, -179.999)] {
            let p = try LatLng(latitude: lat, longitude: lon)
            #expect(p.latitude == lat && p.longitude == lon)
        }
    }

    @Test func rejectionsNameTheField() {
        let cases: [(Double, Double, LatLngError, String)] = [
            (.nan, 0, .nonFiniteLatitude(.nan), "lat"),
            (.infinity, 0, .nonFiniteLatitude(.infinity), "lat"),
            (-.infinity, 0, .nonFiniteLatitude(-.infinity), "lat"),
            (0, .nan, .nonFiniteLongitude(.nan), "lon"),
            (0, .infinity, .nonFiniteLongitude(.infinity), "lon"),
            (0, -.infinity, .nonFiniteLongitude(-.infinity), "lon"),
            (90.000000001, 0, .latitudeOutOfRange(90.000000001), "lat"),
            (-91, 0, .latitudeOutOfRange(-91), "lat"),
            (0, 180.0000001, .longitudeOutOfRange(180.0000001), "lon"),
            (0, -540, .longitudeOutOfRange(-540), "lon")
        ]
        for (lat, lon, expected, field) in cases {
            do {
                _ = try LatLng(latitude: lat, longitude: lon)
                Issue.record("(\(lat), \(lon)) was accepted")
            } catch {
                #expect(error.field == field, "(\(lat), \(lon)): \(error)")
                if lat.isNaN || lon.isNaN {
                    // NaN != NaN, so compare the case only.
                    #expect(error.description.contains("finite"), "(\(lat), \(lon)): \(error)")
                } else {
                    #expect(error == expected, "(\(lat), \(lon)): \(error)")
                }
                #expect(error.description.contains(field == "lat" ? "latitude" : "longitude"))
            }
        }
        // A bad latitude is reported before a bad longitude.
        #expect(throws: LatLngError.latitudeOutOfRange(100)) { try LatLng(latitude: 100, longitude: 500) }
    }

    @Test func normalizingInitializerWrapsLongitude() throws {
        let cases: [(Double, Double)] = [
            (180, -180), (-180, -180), (540, -180), (-540, -180), (360, 0), (-360, 0),
            (-181, 179), (181, -179), (179.5, 179.5), (-179.5, -179.5), (720.25, 0.25),
            (-0.0, -0.0), (1e-300, 1e-300), (3 * 360 + 45, 45)
        ]
        for (input, expected) in cases {
            let p = try LatLng(normalizingLatitude: 10, longitude: input)
            #expect(p.longitude == expected, "\(input) -> \(p.longitude)")
            #expect(p.latitude == 10)
        }
        // Huge but finite longitudes still land in [-180, 180).
        for input in [1e300, -1e300, 1e17 + 0.5, -123456789.123] {
            let lon = try LatLng(normalizingLatitude: 0, longitude: input).longitude
            #expect(lon >= -180 && lon < 180, "\(input) -> \(lon)")
        }
        // A tiny negative just below -180 must not round to +180.
        let below = try LatLng(normalizingLatitude: 0, longitude: -180 - 1e-14).longitude
        #expect(below >= -180 && below < 180)
        // The latitude is still validated, and NaN/inf rejected.
        #expect(throws: LatLngError.latitudeOutOfRange(90.5)) { try LatLng(normalizingLatitude: 90.5, longitude: 0) }
        #expect(throws: LatLngError.nonFiniteLongitude(.infinity)) { try LatLng(normalizingLatitude: 0, longitude: .infinity) }
        #expect(throws: (any Error).self) { try LatLng(normalizingLatitude: .nan, longitude: 0) }
    }

    @Test func unitVectorRoundTrip() throws {
        let seed: UInt64 = 0x1A7
        var rng = SplitMix64(seed: seed)
        for i in 0..<1000 {
            let p = try randomLatLng(&rng)
            let v = p.unitVector
            #expect(abs(v.norm - 1) <= 4e-16, "seed \(seed) sample \(i)")
            let q = v.latLng
            #expect(haversineDistance(p, q) <= 1e-8, "seed \(seed) sample \(i): \(p) -> \(q)")
        }
    }
}
