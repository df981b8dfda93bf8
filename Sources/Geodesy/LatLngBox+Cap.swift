#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LatLngBox {
    /// Relative growth of a cap's angular radius before bounding it (about 4.5 ulp): covers the
    /// rounding of `meters / R` and of the degree conversion.
    @usableFromInline static let capRelativeSlack = 1e-15
    /// Absolute growth of a cap's angular radius in radians (1e-15 rad ≈ 6.4 nm): covers the
    /// rounding of positions computed near the cap's edge (about 1e-16 rad), so such points
    /// are inside the box even next to a pole, where their longitude is ill-conditioned.
    @usableFromInline static let capAbsoluteSlackRadians = 1e-15
    /// Outward margin added to every edge of a cap's box, in degrees (1e-12° ≈ 0.1 mm).
    public static let capMarginDegrees = 1e-12
    /// Allowance for the rounding of `90 ± |lat|` (ulp(180) = 2.8e-14°) when deciding whether
    /// the cap reaches a pole, in degrees; errs towards "reaches it".
    @usableFromInline static let poleGapSlackDegrees = 1e-13

    /// The latitude/longitude box of the spherical cap of all points within `meters` of
    /// `center` (great-circle distance on the sphere of radius `Earth.meanRadius`).
    ///
    /// - If the cap reaches a pole, the box spans all longitudes (`west == -180, east == 180`)
    ///   and its latitude range runs to that pole.
    /// - If it crosses the antimeridian, `west > east`.
    /// - Otherwise the longitude half-width is the exact
    ///   `asin(sin δ / cos φ)`, evaluated as `atan2(sin δ, √(cos(φ+δ) cos(φ-δ)))` with the
    ///   cosines taken from exact degree gaps to the poles, so it stays accurate even when the
    ///   cap's edge passes a hair from a pole (where the asin form loses half its digits).
    ///
    /// Conservative: the box is that of the cap of radius `δ(1 + 1e-15) + 1e-15 rad`, widened
    /// by ``capMarginDegrees`` (1e-12°) on every side, so no point of the cap — nor a point
    /// computed on its edge with double rounding — falls outside. It is tight to within
    /// about 1e-12° plus 6 nm otherwise.
    ///
    /// - Parameters:
    ///   - center: the cap's center.
    ///   - meters: the cap's radius in meters. `0` gives the point box of `center` (all
    ///     longitudes at a pole); `>= πR` (20,015,114.4 m, half the circumference) or `+∞`
    ///     gives ``full``; a negative or NaN radius means an empty cap and gives ``empty``.
    public static func bounding(center: LatLng, radius meters: Double) -> LatLngBox {
        guard meters >= 0 else { return .empty }  // negative or NaN
        let lat = center.latitude, lng = center.longitude
        if meters == 0 {
            if abs(lat) == 90 { return LatLngBox(south: lat, north: lat, west: -180, east: 180) }
            return LatLngBox(south: lat, north: lat, west: lng, east: lng)
        }
        let delta = meters / Earth.meanRadius * (1 + capRelativeSlack) + capAbsoluteSlackRadians
        if delta >= Double.pi { return .full }
        let deltaDegrees = degrees(radians: delta)
        let south = max(-90, lat - deltaDegrees - capMarginDegrees)
        let north = min(90, lat + deltaDegrees + capMarginDegrees)

        // Angular gaps (degrees) between the cap's edge and the near and far poles.
        let nearGap = (90 - abs(lat)) - deltaDegrees - poleGapSlackDegrees
        let farGap = (90 + abs(lat)) - deltaDegrees - poleGapSlackDegrees
        if nearGap <= 0 || farGap <= 0 {
            return LatLngBox(south: south, north: north, west: -180, east: 180)
        }
        // cos(|φ| + δ) = sin(nearGap), cos(|φ| - δ) = sin(farGap); both positive here,
        // and δ < 90° (a cap of 90° or more always reaches its near pole).
        let product = sinCos(degrees: nearGap).sin * sinCos(degrees: farGap).sin
        let halfWidth =
            degrees(radians: atan2(sin(delta), product.squareRoot()))
            + capMarginDegrees
        if halfWidth >= 180 { return LatLngBox(south: south, north: north, west: -180, east: 180) }
        var west = lng - halfWidth, east = lng + halfWidth
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        return LatLngBox(south: south, north: north, west: west, east: east)
    }
}
