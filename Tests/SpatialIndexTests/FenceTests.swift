import Foundation
import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct FenceTests {
    @Test func validationNamesTheField() throws {
        #expect(throws: FenceError.negativeRadius(-1)) {
            try Fence(id: 1, latitude: 0, longitude: 0, radiusMeters: -1)
        }
        #expect(throws: FenceError.nonFiniteRadius(.infinity)) {
            try Fence(id: 1, latitude: 0, longitude: 0, radiusMeters: .infinity)
        }
        #expect(throws: FenceError.negativeID(-3)) {
            try Fence(id: -3, latitude: 0, longitude: 0, radiusMeters: 5)
        }
        #expect(throws: FenceError.invalidCenter(.latitudeOutOfRange(91))) {
            try Fence(id: 1, latitude: 91, longitude: 0, radiusMeters: 5)
        }
        do {
            _ = try Fence(id: 1, latitude: 0, longitude: 0, radiusMeters: .nan)
            Issue.record("NaN radius accepted")
        } catch {
            #expect(error.field == "radius_m")
        }
        #expect(FenceError.negativeID(-1).field == "id")
        #expect(FenceError.invalidCenter(.nonFiniteLongitude(.nan)).field == "lon")
    }

    @Test func chord2MatchesTheAngle() throws {
        let r = 8046.72
        let f = try Fence(id: 0, latitude: 10, longitude: 20, radiusMeters: r)
        let theta = r / Earth.meanRadius
        #expect(abs(f.chord2 - pow(2 * sin(theta / 2), 2)) <= 1e-18)
        #expect(Fence.chord2(forRadiusMeters: 0) == 0)
        #expect(Fence.chord2(forRadiusMeters: .pi * Earth.meanRadius) == 4)
        #expect(Fence.chord2(forRadiusMeters: 1e9) == 4)  // clamped, not wrapped around
        #expect(Fence.chord2(forRadiusMeters: .infinity) == 4)
        #expect(Fence.chord2(forRadiusMeters: -1) < 0)
        #expect(Fence.chord2(forRadiusMeters: .nan) < 0)
    }

    @Test func containsIsBoundaryInclusiveAndAgreesWithHaversine() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let c = TestWorld.uniform(&rng)
            let r = rng.nextUnit() * 100_000
            let f = try Fence(id: 0, center: c, radiusMeters: r)
            #expect(f.contains(c.unitVector), "center must be inside (seed 11)")
            // Points 1 mm inside and outside the boundary.
            let bearing = rng.nextUnit() * 360
            let inside = TestWorld.destination(c, bearingDegrees: bearing, meters: max(0, r - 0.001))
            let outside = TestWorld.destination(c, bearingDegrees: bearing, meters: r + 0.001)
            #expect(f.contains(inside.unitVector), "1 mm inside \(f) (seed 11)")
            #expect(!f.contains(outside.unitVector), "1 mm outside \(f) (seed 11)")
        }
        let whole = try Fence(id: 0, latitude: 0, longitude: 0, radiusMeters: 30_000_000)
        #expect(whole.contains(LatLng(uncheckedLatitude: 0, longitude: 180).unitVector))
        let zero = try Fence(id: 0, latitude: 90, longitude: 0, radiusMeters: 0)
        #expect(zero.contains(zero.centerVector))  // radius 0: the center itself, boundary inclusive
        #expect(!zero.contains(LatLng(uncheckedLatitude: 89.999_999, longitude: 0).unitVector))
    }
}
