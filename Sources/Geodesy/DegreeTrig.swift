#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sine and cosine of an angle given in degrees, with exact argument reduction.
///
/// The angle is first reduced exactly to `r` in [-45°, 45°] plus a
/// multiple of 90°, and only `r` is converted to radians. So multiples of 90° give exact
/// 0 and ±1 (`cos(90°) == 0`, not 6e-17), and the sine of an angle near 180° keeps its
/// full relative accuracy. Idea from C. F. F. Karney's `sincosd` (GeographicLib,
/// "Algorithms for geodesics", 2013); this is our own implementation.
///
/// - Parameter degrees: a finite angle in degrees (any magnitude).
/// - Returns: `(sin, cos)` of the angle, each within about 1 ulp.
@inlinable
public func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
    if abs(degrees) <= 45 {  // the common case needs no reduction
        let rr = radians(degrees: degrees)
        return (sin(rr), cos(rr))
    }
    // Huge angles (beyond 2^40 · 90°) are first reduced modulo 360 with the exact IEEE
    // remainder (NaN and ±inf become NaN).
    let x = abs(degrees) <= 0x1p40 * 90 ? degrees : degrees.remainder(dividingBy: 360)
    let q = (x / 90).rounded(.toNearestOrEven)  // ties to even: ±45° stays in quadrant 0, like the fast path
    guard q.isFinite else { return (.nan, .nan) }
    // q·90 is exact (q < 2^41), and so is x - q·90 by Sterbenz (|x - q·90| <= 45 + ulp).
    let r = x - q * 90
    let quadrant = Int(q) & 3
    let rr = radians(degrees: r)
    let s = sin(rr), c = cos(rr)
    switch quadrant {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}

/// The longitude difference `to - from` in degrees, reduced to [-180, 180].
///
/// Both inputs are longitudes in [-180, 180]; the difference (in [-360, 360]) is rounded once
/// and the reduction by 360 is then exact (Sterbenz).
@inlinable
public func longitudeDifference(from: Double, to: Double) -> Double {
    let d = to - from
    if d > 180 { return d - 360 }
    if d < -180 { return d + 360 }
    return d
}

/// Error-free sum (Knuth's TwoSum): `hi = fl(a + b)` and `lo` such that `a + b == hi + lo`
/// exactly.
@inlinable
func twoSum(_ a: Double, _ b: Double) -> (hi: Double, lo: Double) {
    let hi = a + b
    let bPart = hi - a
    let aPart = hi - bPart
    return (hi, (a - aPart) + (b - bPart))
}

/// Sine and cosine of the angle `hi + lo` degrees, where `lo` is a tiny correction
/// (|lo| <= ulp(hi)): first-order expansion around ``sinCos(degrees:)`` of `hi`.
@inlinable
func sinCos(degrees hi: Double, plus lo: Double) -> (sin: Double, cos: Double) {
    let (s, c) = sinCos(degrees: hi)
    let e = radians(degrees: lo)
    return (s + c * e, c - s * e)
}
