#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Great-circle distances on the spherical Earth of radius `Earth.meanRadius` (6,371,008.8 m).

/// The central angle between two positions, in radians, in [0, π].
///
/// Accurate to a few ulp of the angle everywhere, including coincident, 1 mm-apart, nearly
/// antipodal and pole-to-pole pairs. The plain haversine `2 asin(√h)` loses up to ~0.2 m near
/// antipodes (asin near 1 amplifies rounding); instead this uses the haversine split into
/// two sums of squares, `h = sin²(Δφ/2)cos²(Δλ/2) + cos²(φm)sin²(Δλ/2)` and
/// `1 - h = cos²(Δφ/2)cos²(Δλ/2) + sin²(φm)sin²(Δλ/2)` (φm the mean latitude), each computed
/// without cancellation, and `θ = 2 atan2(√h, √(1 - h))`. Coordinate differences and the
/// latitude sum are kept exact (TwoSum) and half-angles are taken in degrees with exact
/// argument reduction (``sinCos(degrees:)``).
///
/// Measured against 60-digit references (Tests/GeodesyTests/Fixtures/distances.csv): see
/// docs/ACCURACY.md; the worst error over 5,000 pairs is a few nanometers.
@inlinable
public func centralAngle(_ a: LatLng, _ b: LatLng) -> Double {
    // Differences kept exact (TwoSum), so that even a 1 mm step across the antimeridian
    // (a longitude difference near 360 before reduction) keeps full relative accuracy.
    let (dLat, dLatLo) = twoSum(b.latitude, -a.latitude)
    var (dLon, dLonLo) = twoSum(b.longitude, -a.longitude)
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }  // exact (Sterbenz)
    let (sinHalfDLat, cosHalfDLat) = sinCos(degrees: dLat / 2, plus: dLatLo / 2)
    let (sinHalfDLon, cosHalfDLon) = sinCos(degrees: dLon / 2, plus: dLonLo / 2)
    // The latitude sum is kept exact so that cos φm keeps its relative accuracy next to a
    // pole (where it scales the whole distance of a short east-west step).
    let (latSum, latSumLo) = twoSum(a.latitude, b.latitude)
    let (sinMeanLat, cosMeanLat) = sinCos(degrees: latSum / 2, plus: latSumLo / 2)
    let p = sinHalfDLat * cosHalfDLon, q = cosMeanLat * sinHalfDLon
    let u = cosHalfDLat * cosHalfDLon, v = sinMeanLat * sinHalfDLon
    let h = p * p + q * q  // sin²(θ/2)
    let k = u * u + v * v  // cos²(θ/2)
    return 2 * atan2(h.squareRoot(), k.squareRoot())
}

/// Great-circle distance in meters between two positions on the sphere of radius
/// `Earth.meanRadius`: `R · centralAngle(a, b)`, in [0, πR] (πR ≈ 20,015,114.4 m).
///
/// Named for the haversine family it belongs to; see ``centralAngle(_:_:)`` for the
/// well-conditioned form used and its accuracy (nanometers, including near-antipodal pairs).
@inlinable
public func haversineDistance(_ a: LatLng, _ b: LatLng) -> Double {
    centralAngle(a, b) * Earth.meanRadius
}

/// Great-circle distance in meters between two points given as vectors (not necessarily of
/// unit length; only their directions matter): `R · atan2(|a × b|, a · b)`.
///
/// Accurate to about 1e-16 rad (under 1 nm) absolute at every separation, including nearly
/// antipodal points. A zero vector gives 0.
@inlinable
public func distance(_ a: UnitVector, _ b: UnitVector) -> Double {
    atan2(a.cross(b).norm, a.dot(b)) * Earth.meanRadius
}

/// Squared chord length on the unit sphere for a surface distance: `(2 sin(r / 2R))²`.
///
/// A point `p` lies within `meters` of `c` when `|p - c|² <= chord2(forMeters: meters)`
/// (unit vectors), which needs no trigonometry per test. The chord test and
/// `haversineDistance(c, p) <= meters` can disagree only for points within about a
/// micrometer of the boundary (rounding of the unit vectors, ~1e-16 per component).
/// - Parameter meters: a distance in meters. `<= 0` gives 0 (only the center itself);
///   `>= πR` (half the circumference, 20,015,114.4 m) gives 4 (the whole sphere); NaN gives
///   NaN, against which every comparison is false (contains nothing).
/// - Returns: a squared chord in [0, 4] (unitless, on the unit sphere).
@inlinable
public func chord2(forMeters meters: Double) -> Double {
    if meters <= 0 { return 0 }
    let halfAngle = meters / (2 * Earth.meanRadius)  // radians
    if halfAngle >= Double.pi / 2 { return 4 }
    let chord = 2 * sin(halfAngle)
    return chord * chord
}

/// Surface distance in meters for a squared chord on the unit sphere: `2R asin(√c / 2)`,
/// the inverse of ``chord2(forMeters:)``.
/// - Parameter chord2: a squared chord; `<= 0` gives 0, `>= 4` gives πR, NaN gives NaN.
@inlinable
public func meters(forChord2 chord2: Double) -> Double {
    if chord2 <= 0 { return 0 }
    if chord2 >= 4 { return Double.pi * Earth.meanRadius }
    return 2 * Earth.meanRadius * asin(chord2.squareRoot() / 2)
}
