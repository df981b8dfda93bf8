import Foundation
import Geodesy
import Testing

/// The spacing of binary64 numbers at |x|: 2^(exponent(x) - 52), at least 2^-1074
/// (the same definition as Fixtures/gen_fasttrig.py).
func ulpOf(_ x: Double) -> Double {
    x == 0 ? .leastNonzeroMagnitude : Double(sign: .plus, exponent: max(x.exponent - 52, -1074), significand: 1)
}

/// Error of `value` in ulps of a reference given as its rounded value `hi` plus the residual
/// `d` (exact - hi) in ulps of `hi`.
func ulpError(_ value: Double, hi: Double, d: Double) -> Double {
    abs((value - hi) / ulpOf(hi) - d)
}

/// Max and mean of a set of errors.
struct ErrorStats: CustomStringConvertible {
    var max = 0.0, sum = 0.0, count = 0, worst = ""
    mutating func add(_ e: Double, _ label: @autoclosure () -> String) {
        if e > max { max = e; worst = label() }
        sum += e
        count += 1
    }
    var mean: Double { count == 0 ? 0 : sum / Double(count) }
    var description: String { "max \(max) ulp (at \(worst)), mean \(mean) ulp over \(count)" }
}

@Suite struct FastTrigTests {
    /// Against mpmath (Fixtures/fasttrig_angles.csv): every normal sine and cosine within 0.7 ulp
    /// of the exact value (measured max 0.60), at least 98% correctly rounded; subnormal results
    /// (angles below 1.3e-306 degrees) within 2 units of 2^-1074.
    @Test func matchesMpmathWithinHalfUlp() throws {
        var sinStats = ErrorStats(), cosStats = ErrorStats()
        var correctlyRounded = 0, total = 0
        for row in try Fixtures.rows("fasttrig_angles.csv") {
            func d(_ k: String) -> Double { Double(row[k]!)! }
            let x = d("degrees")
            let r = fastSinCos(degrees: x)
            if abs(d("sin")) < .leastNormalMagnitude {
                #expect(abs(r.sin - d("sin")) <= 2 * .leastNonzeroMagnitude, "sin \(x): \(r.sin)")
            } else {
                sinStats.add(ulpError(r.sin, hi: d("sin"), d: d("sin_d")), "sin \(x)")
            }
            cosStats.add(ulpError(r.cos, hi: d("cos"), d: d("cos_d")), "cos \(x)")
            correctlyRounded += (r.sin == d("sin") ? 1 : 0) + (r.cos == d("cos") ? 1 : 0)
            total += 2
        }
        print("fastSinCos vs mpmath: sin \(sinStats); cos \(cosStats); correctly rounded \(correctlyRounded)/\(total)")
        #expect(cosStats.count == 3000 && sinStats.count >= 2970)
        #expect(sinStats.max <= 0.7, "sin: \(sinStats)")
        #expect(cosStats.max <= 0.7, "cos: \(cosStats)")
        #expect(Double(correctlyRounded) >= 0.98 * Double(total), "\(correctlyRounded) of \(total)")
    }

    #if arch(x86_64) && (os(Linux) || os(macOS))
    /// Errors of `f` against an 80-bit reference on 300,000 seeded random angles (uniform in
    /// [-180, 180] and [-90, 90], and log-uniform magnitudes 1e-9...1e3): the angle is reduced
    /// exactly in degrees (r = x - 90q, exact in Double), then `sinl`/`cosl` of r·π/180 in
    /// Float80 (64-bit significand, so the reference is good to about 1/500 ulp of a Double).
    static func againstExtendedReference(
        _ name: String, seed: UInt64, _ f: (Double) -> (sin: Double, cos: Double)
    ) -> (sin: ErrorStats, cos: ErrorStats, correctlyRounded: Int) {
        var rng = SplitMix64(seed: seed)
        var sinStats = ErrorStats(), cosStats = ErrorStats()
        var correctlyRounded = 0
        let radiansPerDegree80 = Float80.pi / 180
        for i in 0..<300_000 {
            let x: Double
            switch i % 3 {
            case 0: x = 360 * rng.nextUnit() - 180
            case 1: x = 180 * rng.nextUnit() - 90
            default: x = (rng.nextUnit() < 0.5 ? -1 : 1) * pow(10, 12 * rng.nextUnit() - 9)
            }
            let q = (x / 90).rounded(.toNearestOrEven)
            let r = Float80(x - 90 * q) * radiansPerDegree80
            let s80 = sin(r), c80 = cos(r)
            let (refSin, refCos): (Float80, Float80)
            switch Int(q) & 3 {
            case 0: (refSin, refCos) = (s80, c80)
            case 1: (refSin, refCos) = (c80, -s80)
            case 2: (refSin, refCos) = (-s80, -c80)
            default: (refSin, refCos) = (-c80, s80)
            }
            let v = f(x)
            for (value, ref, isSin) in [(v.sin, refSin, true), (v.cos, refCos, false)] {
                let rounded = Double(ref)
                let e = Double(abs(Float80(value) - ref)) / ulpOf(rounded)
                if isSin { sinStats.add(e, "seed \(seed) sample \(i): sin \(x)") } else { cosStats.add(e, "seed \(seed) sample \(i): cos \(x)") }
                correctlyRounded += value == rounded ? 1 : 0
            }
        }
        print("\(name) vs Float80: sin \(sinStats); cos \(cosStats); correctly rounded \(correctlyRounded)/600000")
        return (sinStats, cosStats, correctlyRounded)
    }

    /// `fastSinCos` against the 80-bit reference: measured max 0.69 ulp, 98.9% correctly rounded.
    @Test func matchesExtendedPrecisionReference() {
        let seed: UInt64 = 0xE80
        let (sinStats, cosStats, correctlyRounded) = Self.againstExtendedReference("fastSinCos", seed: seed) {
            fastSinCos(degrees: $0)
        }
        #expect(sinStats.max <= 0.72, "\(sinStats)")
        #expect(cosStats.max <= 0.72, "\(cosStats)")
        #expect(correctlyRounded >= 585_000, "seed \(seed): \(correctlyRounded) of 600000 correctly rounded")
    }

    /// `quickSinCos` (no double-double terms) against the same reference: measured max 1.6 ulp
    /// (sin) and 1.5 ulp (cos).
    @Test func quickSinCosIsWithinTwoUlps() {
        let (sinStats, cosStats, _) = Self.againstExtendedReference("quickSinCos", seed: 0xE80) {
            let r = quickSinCos(degrees: SIMD2($0, 0))
            return (r.sin[0], r.cos[0])
        }
        #expect(sinStats.max <= 1.7, "\(sinStats)")
        #expect(cosStats.max <= 1.6, "\(cosStats)")
    }
    #endif

    /// Against glibc's sin and cos of `radians(degrees: x)` (the S2-compatible path): they agree
    /// to 4e-16, and the differences are glibc's, whose argument x·π/180 is rounded before the
    /// call (up to 2.2e-16 at 180°, many ulps of a small result).
    @Test func agreesWithLibm() {
        let seed: UInt64 = 0xFA57
        var rng = SplitMix64(seed: seed)
        var sinStats = ErrorStats(), cosStats = ErrorStats()
        for i in 0..<200_000 {
            let x = 360 * rng.nextUnit() - 180
            let r = fastSinCos(degrees: x)
            let rad = radians(degrees: x)
            let s = sin(rad), c = cos(rad)
            #expect(abs(r.sin - s) <= 4e-16 && abs(r.cos - c) <= 4e-16, "seed \(seed) sample \(i): \(x)")
            // In ulps only where the value is not near a zero crossing (there glibc's rounded
            // argument dominates).
            if abs(s) >= 0.25 { sinStats.add(abs(r.sin - s) / ulpOf(s), "\(x)") }
            if abs(c) >= 0.25 { cosStats.add(abs(r.cos - c) / ulpOf(c), "\(x)") }
        }
        print("fastSinCos vs glibc (|value| >= 0.25): sin \(sinStats); cos \(cosStats)")
        #expect(sinStats.max <= 8 && cosStats.max <= 8, "seed \(seed): sin \(sinStats); cos \(cosStats)")
    }

    @Test func exactAtMultiplesOfNinety() {
        for k in -12...12 {
            let r = fastSinCos(degrees: Double(k) * 90)
            let expected: (Double, Double) = [(0, 1), (1, 0), (0, -1), (-1, 0)][((k % 4) + 4) % 4]
            #expect(r.sin == expected.0 && r.cos == expected.1, "\(k) · 90°: \(r)")
        }
        #expect(fastSinCos(degrees: 45).sin == fastSinCos(degrees: 45).cos)
    }

    /// Odd symmetry of sine and even symmetry of cosine hold exactly (the reduction is exact).
    @Test func symmetries() {
        let seed: UInt64 = 0x5E77
        var rng = SplitMix64(seed: seed)
        for i in 0..<20_000 {
            let x = 1440 * rng.nextUnit() - 720
            let a = fastSinCos(degrees: x), b = fastSinCos(degrees: -x)
            #expect(a.sin == -b.sin && a.cos == b.cos, "seed \(seed) sample \(i): \(x)")
            #expect(abs(a.sin * a.sin + a.cos * a.cos - 1) <= 3e-16, "seed \(seed) sample \(i): \(x)")
        }
    }

    /// Large angles take the same values as their exact reduction modulo 360; NaN and infinities
    /// give NaN.
    @Test func largeAnglesReduceExactly() {
        let seed: UInt64 = 0xB16
        var rng = SplitMix64(seed: seed)
        var angles: [Double] = [
            1e13 + 0.3, -7.25e15, 0x1p40 * 90 + 37, 0x1p41 * 90 - 12.5, 1e300, -1e22,
            .greatestFiniteMagnitude
        ]
        for _ in 0..<2000 { angles.append((rng.nextUnit() - 0.5) * pow(10, 20 * rng.nextUnit())) }
        for (i, x) in angles.enumerated() {
            let a = fastSinCos(degrees: x), b = fastSinCos(degrees: x.remainder(dividingBy: 360))
            #expect(a.sin == b.sin && a.cos == b.cos, "seed \(seed) angle \(i): \(x) -> \(a) vs \(b)")
        }
        for x in [Double.nan, .infinity, -.infinity] {
            let r = fastSinCos(degrees: x)
            #expect(r.sin.isNaN && r.cos.isNaN, "\(x): \(r)")
        }
    }

    /// The two SIMD lanes are independent and equal the scalar function.
    @Test func lanesMatchScalar() {
        let seed: UInt64 = 0x1A7E
        var rng = SplitMix64(seed: seed)
        for i in 0..<5000 {
            let a = 360 * rng.nextUnit() - 180, b = 1e15 * (rng.nextUnit() - 0.5)
            let v = fastSinCos(degrees: SIMD2(a, b))
            let sa = fastSinCos(degrees: a), sb = fastSinCos(degrees: b)
            #expect(v.sin == SIMD2(sa.sin, sb.sin) && v.cos == SIMD2(sa.cos, sb.cos), "seed \(seed) sample \(i)")
        }
    }
}
