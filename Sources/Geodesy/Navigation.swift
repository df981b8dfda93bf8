#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Bearings and the direct problem on the spherical Earth of radius `Earth.meanRadius`.
// Bearings are in degrees clockwise from true north, in [0, 360).

/// Reduces an angle in radians to a bearing in degrees in [0, 360) (and turns -0 into +0).
@inlinable
func bearingDegrees(radians angle: Double) -> Double {
    var d = degrees(radians: angle)
    if d < 0 { d += 360 }
    if d >= 360 { d -= 360 }  // a tiny negative angle rounds to exactly 360 above
    return d + 0.0
}

/// The textbook initial-bearing angle in radians, `atan2(y, x)` with `y = sin Δλ cos φ2` and
/// `x = sin Δφ + 2 sin φ1 cos φ2 sin²(Δλ/2)` (an exact rewrite of
/// `cos φ1 sin φ2 - sin φ1 cos φ2 cos Δλ` free of its cancellation for short steps).
/// Δλ and Δφ are given as exact double-double sums `hi + lo` in degrees.
@inlinable
func bearingKernel(
    sinLat1: Double, cosLat2: Double,
    dLon: Double, dLonLo: Double, dLat: Double, dLatLo: Double
) -> Double {
    let sinDLon = sinCos(degrees: dLon, plus: dLonLo).sin
    let sinHalfDLon = sinCos(degrees: dLon / 2, plus: dLonLo / 2).sin
    let sinDLat = sinCos(degrees: dLat, plus: dLatLo).sin
    let y = sinDLon * cosLat2
    let x = sinDLat + 2 * sinLat1 * cosLat2 * sinHalfDLon * sinHalfDLon
    return atan2(y, x)
}

/// Initial great-circle bearing (forward azimuth) at `from` towards `to`, in degrees
/// clockwise from north, in [0, 360).
///
/// Accurate to about 1e-13 degrees wherever the bearing is well defined (measured against
/// 60-digit references, 1 mm steps and pairs 1e-6 rad from antipodal included). Method: the
/// longitude and latitude differences are kept exact (error-free sums); a target on the near
/// hemisphere uses `bearingKernel` directly; a target on the far hemisphere is replaced by its
/// antipode (which lies near `from`, on the same great circle, in the opposite direction) and
/// the result turned by 180°, so nearly antipodal pairs keep full accuracy.
///
/// Defined results for degenerate inputs:
/// - coincident points: 0 (north);
/// - `to` exactly at a pole: exactly 0 (North Pole) or 180 (South Pole);
/// - `from` exactly at a pole: the pole's `longitude` field fixes "north" as the limit of
///   approaching the pole along that meridian, so the result is `180 - Δλ` at the North Pole
///   and `Δλ` at the South Pole (reduced to [0, 360)), where `Δλ = to.longitude - from.longitude`.
///   ``destination(from:bearing:distance:)`` uses the same convention, so the two round-trip;
/// - exactly antipodal points: every bearing reaches `to`; the result is finite, in [0, 360),
///   but otherwise unspecified.
@inlinable
public func initialBearing(from: LatLng, to: LatLng) -> Double {
    var (dLon, dLonLo) = twoSum(to.longitude, -from.longitude)
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }  // exact (Sterbenz)
    let (sinLat1, cosLat1) = sinCos(degrees: from.latitude)
    let (sinLat2, cosLat2) = sinCos(degrees: to.latitude)
    let cosDistance = sinLat1 * sinLat2 + cosLat1 * cosLat2 * sinCos(degrees: dLon).cos
    if cosDistance >= 0 {
        let (dLat, dLatLo) = twoSum(to.latitude, -from.latitude)
        return bearingDegrees(
            radians: bearingKernel(
                sinLat1: sinLat1, cosLat2: cosLat2, dLon: dLon, dLonLo: dLonLo, dLat: dLat, dLatLo: dLatLo))
    }
    // Far hemisphere: aim at the antipode of `to` (latitude -φ2, longitude λ2 ± 180), which is
    // closer to `from`, then turn around. |dLon| > 90 or both points near opposite poles;
    // either way `dLon ∓ 180` is exact when |dLon| >= 90 and its rounding otherwise only
    // moves the antipode by cos φ2 · 2⁻⁴⁴° (negligible next to a pole).
    let dLonAntipode = dLon > 0 ? dLon - 180 : dLon + 180
    let (dLat, dLatLo) = twoSum(-to.latitude, -from.latitude)
    let back = bearingDegrees(
        radians: bearingKernel(
            sinLat1: sinLat1, cosLat2: cosLat2, dLon: dLonAntipode, dLonLo: dLonLo, dLat: dLat, dLatLo: dLatLo))
    let b = back + 180
    return b >= 360 ? b - 360 : b
}

/// Final bearing: the direction of travel on arrival at `to` along the great circle from
/// `from`, in degrees clockwise from north, in [0, 360). Equal to the initial bearing from
/// `to` back to `from`, reversed; degenerate cases follow ``initialBearing(from:to:)``.
@inlinable
public func finalBearing(from: LatLng, to: LatLng) -> Double {
    var b = initialBearing(from: to, to: from) + 180
    if b >= 360 { b -= 360 }
    return b
}

/// The position reached by traveling `distance` meters along a great circle from `from`,
/// starting with bearing `bearing` (degrees clockwise from north).
///
/// Computed in the frame rotated to `from`'s meridian:
/// `q = (cos φ1 cos δ - sin φ1 sin δ cos θ, sin δ sin θ, sin φ1 cos δ + cos φ1 sin δ cos θ)`,
/// `lat2 = atan2(q.z, |q.xy|)`, `lon2 = λ1 + atan2(q.y, q.x)`, δ = distance / R. Using atan2
/// for the latitude (instead of asin) keeps full accuracy next to the poles. At a pole the
/// bearing is measured as in ``initialBearing(from:to:)`` (north along the meridian of
/// `from.longitude`).
///
/// - Parameters:
///   - from: the starting point.
///   - bearing: degrees, any finite value (taken modulo 360).
///   - distance: meters, finite; a negative distance travels backwards; distances beyond
///     πR continue around the sphere.
/// - Returns: latitude in [-90, 90], longitude normalized to [-180, 180). A distance of 0
///   returns `from` itself (longitude normalized).
/// - Precondition: `bearing` and `distance` are finite (a programming error otherwise: values
///   read from input are validated where they are read).
@inlinable
public func destination(from: LatLng, bearing: Double, distance: Double) -> LatLng {
    precondition(bearing.isFinite, "destination: bearing must be finite")
    precondition(distance.isFinite, "destination: distance must be finite")
    if distance == 0 {
        return LatLng(
            uncheckedLatitude: from.latitude,
            longitude: LatLng.wrapLongitude(from.longitude))
    }
    let delta = distance / Earth.meanRadius
    let sinDelta = sin(delta), cosDelta = cos(delta)
    let (sinTheta, cosTheta) = sinCos(degrees: bearing)
    let (sinLat1, cosLat1) = sinCos(degrees: from.latitude)
    let x = cosLat1 * cosDelta - sinLat1 * sinDelta * cosTheta
    let y = sinDelta * sinTheta
    let z = sinLat1 * cosDelta + cosLat1 * sinDelta * cosTheta
    let lat2 = degrees(radians: atan2(z, (x * x + y * y).squareRoot()))
    let dLon = degrees(radians: atan2(y, x))
    return LatLng(uncheckedLatitude: lat2, longitude: addLongitude(from.longitude, dLon))
}

/// `lon + delta` wrapped into [-180, 180) with a single rounding (degrees; `lon` in
/// [-180, 180], `|delta| <= 180`): the sum is kept exact (TwoSum), reduced by 360 exactly
/// (Sterbenz), and only then rounded.
@inlinable
func addLongitude(_ lon: Double, _ delta: Double) -> Double {
    var (hi, lo) = twoSum(lon, delta)
    if hi < -180 { hi += 360 } else if hi >= 180 { hi -= 360 }
    var r = hi + lo
    if r >= 180 { r -= 360 } else if r < -180 { r += 360 }
    return r
}

/// The point a `fraction` of the way from `a` to `b` along the great circle
/// (0 gives `a`, 1 gives `b` up to rounding, 0.5 the midpoint; values outside [0, 1]
/// extrapolate along the same circle). For antipodal `a` and `b` the circle follows
/// ``initialBearing(from:to:)``. Longitude normalized to [-180, 180).
@inlinable
public func interpolate(_ a: LatLng, _ b: LatLng, fraction: Double) -> LatLng {
    destination(
        from: a, bearing: initialBearing(from: a, to: b),
        distance: fraction * haversineDistance(a, b))
}

/// The great-circle midpoint of `a` and `b`: equidistant from both (to well under a
/// nanometer), half-way along the shorter arc. Antipodal pairs get one of their
/// (infinitely many) midpoints, chosen by ``initialBearing(from:to:)``.
@inlinable
public func midpoint(_ a: LatLng, _ b: LatLng) -> LatLng {
    interpolate(a, b, fraction: 0.5)
}
