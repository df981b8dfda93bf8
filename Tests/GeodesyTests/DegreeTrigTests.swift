import Foundation
import Geodesy
import Testing

@Suite struct DegreeTrigTests {
    @Test func exactAtMultiplesOfNinety() {
        let cases: [(Double, Double, Double)] = [
            (0, 0, 1), (90, 1, 0), (180, 0, -1), (270, -1, 0), (360, 0, 1),
            (-90, -1, 0), (-180, 0, -1), (450, 1, 0), (-720, 0, 1)
        ]
        for (angle, s, c) in cases {
            let r = sinCos(degrees: angle)
            #expect(r.sin == s && r.cos == c, "angle \(angle): \(r)")
        }
    }

    @Test func agreesWithLibm() {
        let seed: UInt64 = 0x5C
        var rng = SplitMix64(seed: seed)
        for i in 0..<5000 {
            let angle = 1440 * rng.nextUnit() - 720
            let r = sinCos(degrees: angle)
            #expect(abs(r.sin - sin(angle * .pi / 180)) <= 1e-14, "seed \(seed) sample \(i): \(angle)")
            #expect(abs(r.cos - cos(angle * .pi / 180)) <= 1e-14, "seed \(seed) sample \(i): \(angle)")
            #expect(abs(r.sin * r.sin + r.cos * r.cos - 1) <= 4e-16)
        }
        // Full relative accuracy next to 180°, where sin(x · π/180) has none.
        let x = 180 - 1e-10, gap = 180 - x  // the subtraction is exact (Sterbenz)
        let tiny = sinCos(degrees: x).sin, expected = gap * .pi / 180
        #expect(abs(tiny - expected) <= 4e-16 * expected)
    }

    /// Large angles take the same values as their exact reduction modulo 360.
    @Test func largeAnglesReduceExactly() {
        let seed: UInt64 = 0x1A5
        var rng = SplitMix64(seed: seed)
        var angles: [Double] = [1e13 + 0.3, -7.25e15, 0x1p40 * 90 + 37, 0x1p41 * 90 - 12.5, 1e300, -1e22]
        for _ in 0..<2000 { angles.append((rng.nextUnit() - 0.5) * pow(10, 20 * rng.nextUnit())) }
        for (i, x) in angles.enumerated() {
            let reduced = x.remainder(dividingBy: 360)  // exact
            let a = sinCos(degrees: x), b = sinCos(degrees: reduced)
            #expect(a.sin == b.sin && a.cos == b.cos, "seed \(seed) angle \(i): \(x) -> \(a) vs \(b)")
        }
        #expect(sinCos(degrees: .nan).sin.isNaN)
        #expect(sinCos(degrees: .infinity).cos.isNaN)
    }

    @Test func longitudeDifferenceWraps() {
        #expect(longitudeDifference(from: 179, to: -179) == 2)
        #expect(longitudeDifference(from: -179, to: 179) == -2)
        #expect(longitudeDifference(from: -180, to: 180) == 0)
        #expect(longitudeDifference(from: 0, to: 180) == 180)
        #expect(longitudeDifference(from: 10, to: -170) == -180)
        #expect(longitudeDifference(from: 20, to: 30) == 10)
    }
}
