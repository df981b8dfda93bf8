#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sine and cosine of an angle given in degrees, with exact argument reduction.
///
/// The angle is first reduced exactly (IEEE `remainder`) to `r` in [-45°, 45°] plus a
/// multiple of 90°, and only `r` is converted to radians. So multiples of 90° give exact
/// 0 and ±1 (`cos(90°) == 0`, not 6e-17), and the sine of an angle near 180° keeps its
/// full relative accuracy. Idea from C. F. F. Karney's `sincosd` (GeographicLib,
/// "Algorithms for geodesics", 2013); this is our own implementation.
///
/// - Parameter degrees: a finite angle in degrees (any magnitude).
/// - Returns: `(sin, cos)` of the angle, each within about 1 ulp.
@inlinable
public func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
    let r = degrees.remainder(dividingBy: 90)  // exact; r in [-45, 45]
    // `degrees - r` is an exact multiple of 90; its quadrant (mod 4) picks the identity.
    let quadrant = Int(((degrees - r) / 90).rounded()) & 3
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
