// Fast sine and cosine of angles in degrees, without libm.
//
// These are a separate fast path for indexes and benchmarks; the S2-compatible conversions
// (``LatLng/unitVector``, ``UnitVector/init(_:)``) keep using libm so that they stay
// bit-identical to S2.
//
// Method (our own implementation; the scheme is the classic one of fdlibm's `__kernel_sin` /
// `__kernel_cos` and of Karney's `sincosd`):
// 1. Reduce in degrees: `q = round(x · fl(1/90))`, `r = x - 90·q` with `|r| <= 45` (plus
//    under 0.03° of slack from the rounded 1/90). `r` is exact (Sterbenz), so multiples of 90°
//    give exact 0 and ±1 and no accuracy is lost near 180°.
// 2. Convert `r` to radians as an unevaluated double-double `xh + xl = r · π/180` (Dekker's
//    product with Veltkamp splits, so no FMA is needed, plus the tail of π/180), accurate to
//    about 2^-100 relative; `xh²` is likewise kept as `t + tLo`.
// 3. `sin(x) = x + x³·P(x²)` and `cos(x) = 1 - x²/2 + x⁴·Q(x²)` with degree-5 near-minimax
//    polynomials on [-π/4, π/4] (approximation error below 2^-58 relative for sin, 2^-64
//    absolute for cos), evaluated by Estrin's scheme; the large terms (`-x³/6`, `1 - x²/2`)
//    are kept apart with their rounding errors, and the tail `xl` is folded in to first order.
// 4. Select and negate by the quadrant `q mod 4` without branches, both angles in one
//    `SIMD2<Double>` (SSE2 on x86-64).
//
// No allocation, no libm call (except `remainder` for angles beyond 2^40·90°), no Foundation.
//
// Measured accuracy (tests in `FastTrigTests.swift`): against an 80-bit reference on 300,000
// seeded random angles, max error 0.68 ulp (sin) and 0.69 ulp (cos), mean 0.25 / 0.23 ulp,
// 98.9% correctly rounded; against the mpmath fixture (3,000 angles including multiples of 45°,
// neighbors of quadrant boundaries, tiny and huge angles) max 0.60 ulp for both. Against
// glibc's `sin`/`cos` of `radians(degrees: x)` the difference is at most 4e-16 (up to 5 ulp
// where |value| >= 0.25), which is glibc's argument rounding, not ours.
//
// Domain: any finite angle in degrees. Angles beyond 2^40·90° are first reduced modulo 360
// with the exact IEEE remainder (a rarely taken branch). NaN and ±infinity give NaN.

/// Sine and cosine of an angle in degrees, computed without libm (see the notes at the top of
/// `FastTrig.swift`; max error 0.69 ulp, mostly correctly rounded).
///
/// - Parameter degrees: a finite angle in degrees (any magnitude).
/// - Returns: `(sin, cos)`; exact 0 and ±1 at multiples of 90° (the sine of ±0° is +0).
@inlinable
public func fastSinCos(degrees: Double) -> (sin: Double, cos: Double) {
    let r = fastSinCos(degrees: SIMD2(degrees, 0))
    return (r.sin[0], r.cos[0])
}

/// Sine and cosine of two angles in degrees at once (one per SIMD lane); see
/// ``fastSinCos(degrees:)-(Double)``.
@inlinable
public func fastSinCos(degrees: SIMD2<Double>) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
    var x = degrees
    // Beyond 2^40·90° the quotient would lose its exactness; reduce modulo 360 first (exact).
    // (±infinity goes there too and becomes NaN; NaN skips it and stays NaN throughout.)
    let limit = FastTrig.reduceModulo360Above
    if any((x .> limit) .| (x .< -limit)) {
        x = SIMD2(FastTrig.reduceLarge(x[0]), FastTrig.reduceLarge(x[1]))
    }
    // q = round-to-nearest-even(x / 90) by the 1.5·2^52 trick: its low mantissa bits hold q mod 4.
    let shifted = x * FastTrig.inverseNinety + FastTrig.roundingShift
    let q = shifted - FastTrig.roundingShift
    let quadrant = unsafeBitCast(shifted, to: SIMD2<UInt64>.self)
    // Exact: q·90 is exact (|q| < 2^41) and x - q·90 is exact by Sterbenz's lemma.
    let r = x - q * 90

    // xh + xl = r · π/180 (Dekker's two-product with a Veltkamp split of r, plus r times the
    // tail of π/180).
    let xh = r * FastTrig.radiansPerDegree
    let c = r * FastTrig.veltkampFactor
    let rHi = c - (c - r)
    let rLo = r - rHi
    let productError =
        ((rHi * FastTrig.radiansPerDegreeHi - xh) + rHi * FastTrig.radiansPerDegreeLo
            + rLo * FastTrig.radiansPerDegreeHi) + rLo * FastTrig.radiansPerDegreeLo
    let xl = productError + r * FastTrig.radiansPerDegreeTail

    // t = xh² as a double-double tHi + tLo (Dekker again, splitting xh).
    let t = xh * xh
    let cx = xh * FastTrig.veltkampFactor
    let xHi = cx - (cx - xh)
    let xLo = xh - xHi
    let tLo = ((xHi * xHi - t) + 2 * xHi * xLo) + xLo * xLo

    // sin(xh + xl) ≈ xh + xh·t·(s0 + pRest(t)) + xl·(1 - t/2), with t = tHi + tLo. The s0 term
    // (up to a tenth of the result) is kept apart from the rest of the polynomial so that it
    // carries only two roundings. Estrin's scheme: shorter dependency chains than Horner.
    let t2 = t * t
    let pRest = t * FastTrig.s1 + t2 * ((FastTrig.s2 + t * FastTrig.s3) + t2 * (FastTrig.s4 + t * FastTrig.s5))
    let xt = xh * t
    let sinR = xh + (xt * FastTrig.s0 + (xt * pRest + (xl * (1 - 0.5 * t) + (xh * tLo) * FastTrig.s0)))

    // cos(xh + xl) ≈ (1 - t/2) + t²·Q(t) - xh·xl, with 1 - t/2 kept exact as w + its error.
    let qPoly =
        (FastTrig.c0 + t * FastTrig.c1) + t2
        * ((FastTrig.c2 + t * FastTrig.c3)
            + t2 * (FastTrig.c4 + t * FastTrig.c5))
    let h = 0.5 * t
    let w = 1 - h
    let cosR = w + ((((1 - w) - h) - 0.5 * tLo) + (t2 * qPoly - xh * xl))

    return FastTrig.inQuadrant(sin: sinR, cos: cosR, quadrant: quadrant)
}

/// Sine and cosine of two angles in degrees at once, as ``fastSinCos(degrees:)-(SIMD2<Double>)``
/// with half its operations and a little less accuracy: the same exact reduction in degrees,
/// then `r · π/180` rounded once and the same polynomials evaluated plainly (no double-double
/// terms). Measured max error 1.6 ulp (sin) and 1.5 ulp (cos) against an 80-bit reference
/// (`FastTrigTests`), so within 4e-16 of ``fastSinCos(degrees:)-(SIMD2<Double>)``.
///
/// - Parameter degrees: angles in degrees with |angle| <= 2^40·90 (the quotient by 90 stays
///   exact); NaN and ±infinity give NaN.
@inlinable
public func quickSinCos(degrees x: SIMD2<Double>) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
    let shifted = x * FastTrig.inverseNinety + FastTrig.roundingShift
    let q = shifted - FastTrig.roundingShift
    let r = x - q * 90  // exact, as in fastSinCos
    let xh = r * FastTrig.radiansPerDegree
    let t = xh * xh
    let t2 = t * t
    let p = (FastTrig.s0 + t * FastTrig.s1) + t2 * ((FastTrig.s2 + t * FastTrig.s3) + t2 * (FastTrig.s4 + t * FastTrig.s5))
    let sinR = xh + (xh * t) * p
    let qPoly = (FastTrig.c0 + t * FastTrig.c1) + t2 * ((FastTrig.c2 + t * FastTrig.c3) + t2 * (FastTrig.c4 + t * FastTrig.c5))
    let cosR = (1 - 0.5 * t) + t2 * qPoly
    return FastTrig.inQuadrant(sin: sinR, cos: cosR, quadrant: unsafeBitCast(shifted, to: SIMD2<UInt64>.self))
}

/// Constants of ``fastSinCos(degrees:)-(SIMD2<Double>)``.
@usableFromInline
enum FastTrig {
    /// fl(1/90): only picks the quadrant, so its rounding merely moves ties at ±45°·odd.
    @inlinable static var inverseNinety: Double { 1.0 / 90 }
    /// 1.5·2^52: adding it rounds |y| < 2^51 to an integer held in the low mantissa bits.
    @inlinable static var roundingShift: Double { 0x1.8p52 }
    /// 2^40·90: above this, q = x/90 would exceed 2^40 and is reduced modulo 360 first.
    @inlinable static var reduceModulo360Above: Double { 0x1p40 * 90 }

    /// fl(π/180).
    @inlinable static var radiansPerDegree: Double { 0x1.1df46a2529d39p-6 }
    /// π/180 - fl(π/180), rounded (mpmath, 200 bits).
    @inlinable static var radiansPerDegreeTail: Double { 0x1.5c1d8becdd291p-62 }
    /// Veltkamp split of fl(π/180): 26 high bits and the rest (Hi + Lo == fl(π/180) exactly).
    @inlinable static var radiansPerDegreeHi: Double { 0x1.1df46a0000000p-6 }
    @inlinable static var radiansPerDegreeLo: Double { 0x1.294e9c8000000p-33 }
    /// 2^27 + 1: Veltkamp's splitting constant for 53-bit doubles.
    @inlinable static var veltkampFactor: Double { 134_217_729 }

    // sin x = x + x³·(s0 + s1·t + … + s5·t⁵), t = x², |x| <= π/4: weighted least squares
    // refined by Lawson's iteration in mpmath (near-minimax), relative error < 2^-58.
    @inlinable static var s0: Double { -0x1.5555555555549p-3 }
    @inlinable static var s1: Double { 0x1.111111110f880p-7 }
    @inlinable static var s2: Double { -0x1.a01a019c12665p-13 }
    @inlinable static var s3: Double { 0x1.71de357870f4cp-19 }
    @inlinable static var s4: Double { -0x1.ae5e66d29a2b1p-26 }
    @inlinable static var s5: Double { 0x1.5d932eb4dadf3p-33 }

    // cos x = 1 - x²/2 + x⁴·(c0 + c1·t + … + c5·t⁵), same fit, absolute error < 2^-64.
    @inlinable static var c0: Double { 0x1.555555555554cp-5 }
    @inlinable static var c1: Double { -0x1.6c16c16c15184p-10 }
    @inlinable static var c2: Double { 0x1.a01a019cb2670p-16 }
    @inlinable static var c3: Double { -0x1.27e4f80a71365p-22 }
    @inlinable static var c4: Double { 0x1.1ee9ec448b0cfp-29 }
    @inlinable static var c5: Double { -0x1.8faecdb1a011cp-37 }

    /// The sine and cosine of `x + 90° q` from those of `x` (`sin`, `cos`), with `q mod 4` in the
    /// low bits of `quadrant`: odd q swaps sine and cosine; sine is negated for q mod 4 in
    /// {2, 3}, cosine for q mod 4 in {1, 2}. No branches.
    @inlinable @inline(__always)
    static func inQuadrant(
        sin sinR: SIMD2<Double>, cos cosR: SIMD2<Double>, quadrant: SIMD2<UInt64>
    ) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
        let swap = (quadrant & 1) .== 1
        let sinSign = (quadrant & 2) &<< 62
        let cosSign = ((quadrant &+ 1) & 2) &<< 62
        let s = sinR.replacing(with: cosR, where: swap)
        let cs = cosR.replacing(with: sinR, where: swap)
        let sinOut = unsafeBitCast(unsafeBitCast(s, to: SIMD2<UInt64>.self) ^ sinSign, to: SIMD2<Double>.self)
        let cosOut = unsafeBitCast(unsafeBitCast(cs, to: SIMD2<UInt64>.self) ^ cosSign, to: SIMD2<Double>.self)
        return (sinOut, cosOut)
    }

    /// Exact reduction of a huge angle modulo 360 (NaN and ±infinity become NaN).
    @usableFromInline
    static func reduceLarge(_ x: Double) -> Double {
        abs(x) > reduceModulo360Above ? x.remainder(dividingBy: 360) : x
    }
}
