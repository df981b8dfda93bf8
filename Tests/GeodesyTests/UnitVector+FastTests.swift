import Foundation
import Geodesy
import Testing

@Suite struct UnitVectorFastTests {
    /// Against mpmath (Fixtures/fasttrig_points.csv): z = sin φ within 0.7 ulp; x and y, one more
    /// rounded product of two such values, within 2 ulp (measured 0.57 and 1.7 ulp); the libm
    /// path is worse (measured max 170 ulp, mean 1.3, on the uniform rows).
    @Test func matchesMpmath() throws {
        var xs = ErrorStats(), ys = ErrorStats(), zs = ErrorStats()
        // The S2-compatible libm path, for comparison (x, y and z together, uniform rows only:
        // at the special points its rounded radians give errors of up to 1e12 ulp).
        var libm = ErrorStats()
        for row in try Fixtures.rows("fasttrig_points.csv") {
            func d(_ k: String) -> Double { Double(row[k]!)! }
            let lat = d("lat"), lon = d("lon")
            let p = UnitVector(fastLatitude: lat, longitude: lon)
            func check(_ value: Double, _ key: String, _ stats: inout ErrorStats, libm: Bool = false) {
                let hi = d(key)
                if abs(hi) < .leastNormalMagnitude {
                    // Zero or subnormal true value: no ulp figure; libm is not expected to get it.
                    if !libm { #expect(abs(value - hi) <= 2 * .leastNonzeroMagnitude, "\(key) at (\(lat), \(lon)): \(value)") }
                } else {
                    stats.add(ulpError(value, hi: hi, d: d(key + "_d")), "(\(lat), \(lon))")
                }
            }
            if row["category"] == "uniform" {
                let s2 = LatLng(uncheckedLatitude: lat, longitude: lon).unitVector
                check(s2.x, "x", &libm, libm: true)
                check(s2.y, "y", &libm, libm: true)
                check(s2.z, "z", &libm, libm: true)
            }
            check(p.x, "x", &xs)
            check(p.y, "y", &ys)
            check(p.z, "z", &zs)
        }
        print("UnitVector(fastLatitude:longitude:) vs mpmath: x \(xs); y \(ys); z \(zs); libm path: \(libm)")
        #expect(Swift.max(xs.max, ys.max, zs.max) < libm.max, "libm path: \(libm)")
        #expect(xs.count >= 950 && ys.count >= 950 && zs.count >= 950)
        #expect(zs.max <= 0.7, "z: \(zs)")
        #expect(xs.max <= 2 && ys.max <= 2, "x: \(xs); y: \(ys)")
    }

    /// Poles and the cardinal meridians give exact components.
    @Test func exactAtCardinalPoints() {
        #expect(UnitVector(fastLatitude: 0, longitude: 0) == UnitVector(x: 1, y: 0, z: 0))
        #expect(UnitVector(fastLatitude: 0, longitude: 90) == UnitVector(x: 0, y: 1, z: 0))
        #expect(UnitVector(fastLatitude: 0, longitude: -180) == UnitVector(x: -1, y: 0, z: 0))
        #expect(UnitVector(fastLatitude: 90, longitude: 37).z == 1)
        #expect(UnitVector(fastLatitude: 90, longitude: 37).x == 0)
        #expect(UnitVector(fastLatitude: -90, longitude: -123).z == -1)
    }

    /// Close to the S2-compatible (libm) conversion everywhere, and of unit length.
    @Test func agreesWithLatLngUnitVector() {
        let seed: UInt64 = 0xC0FFEE
        var rng = SplitMix64(seed: seed)
        for i in 0..<100_000 {
            let lat = 180 * rng.nextUnit() - 90, lon = 360 * rng.nextUnit() - 180
            let a = UnitVector(fastLatitude: lat, longitude: lon)
            let b = LatLng(uncheckedLatitude: lat, longitude: lon).unitVector
            #expect(a.chord2(to: b) <= 1e-30, "seed \(seed) sample \(i): (\(lat), \(lon))")
            #expect(abs(a.norm2 - 1) <= 5e-16, "seed \(seed) sample \(i): (\(lat), \(lon))")
        }
    }

    /// Any finite longitude: equal to the longitude reduced exactly modulo 360.
    @Test func longitudeOutsideRange() {
        let seed: UInt64 = 0x10D
        var rng = SplitMix64(seed: seed)
        for i in 0..<5000 {
            let lat = 180 * rng.nextUnit() - 90, lon = 1e6 * (rng.nextUnit() - 0.5)
            let a = UnitVector(fastLatitude: lat, longitude: lon)
            let b = UnitVector(fastLatitude: lat, longitude: lon.remainder(dividingBy: 360))
            #expect(a == b, "seed \(seed) sample \(i): (\(lat), \(lon))")
        }
    }

    /// `init(quickLatitude:longitude:)` is within 6e-16 of `init(fastLatitude:longitude:)` in
    /// every component (seeded uniform points and both poles), and exact at the cardinal points.
    @Test func quickAgreesWithFast() {
        let seed: UInt64 = 0x0017_C4
        var rng = SplitMix64(seed: seed)
        var worst = 0.0
        for i in 0..<200_000 {
            let lat = i < 2 ? (i == 0 ? 90.0 : -90.0) : 180 * rng.nextUnit() - 90
            let lon = 360 * rng.nextUnit() - 180
            let a = UnitVector(quickLatitude: lat, longitude: lon), b = UnitVector(fastLatitude: lat, longitude: lon)
            let d = Swift.max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
            worst = Swift.max(worst, d)
            #expect(d <= 6e-16, "seed \(seed) sample \(i): (\(lat), \(lon)) differs by \(d)")
        }
        print("quickLatitude vs fastLatitude: max component difference \(worst)")
        #expect(UnitVector(quickLatitude: 0, longitude: 0) == UnitVector(x: 1, y: 0, z: 0))
        #expect(UnitVector(quickLatitude: 0, longitude: 90) == UnitVector(x: 0, y: 1, z: 0))
        #expect(UnitVector(quickLatitude: 0, longitude: -180) == UnitVector(x: -1, y: 0, z: 0))
        #expect(UnitVector(quickLatitude: 90, longitude: 37).z == 1)
        #expect(UnitVector(quickLatitude: -90, longitude: 37).z == -1)
    }
}
