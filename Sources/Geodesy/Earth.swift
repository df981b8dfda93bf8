/// The spherical Earth model used for all great-circle work in this package.
///
/// Every distance in the package is measured on a sphere of radius
/// ``meanRadius`` (the IUGG mean radius, 6,371,008.8 m). On real (WGS84)
/// geodesics this costs up to about 0.56 % of the distance (measured over the 5,000
/// reference pairs in Tests/GeodesyTests/Fixtures; docs/ACCURACY.md gives the figures).
public enum Earth {
    /// Mean Earth radius in meters (IUGG R1).
    public static let meanRadius: Double = 6_371_008.8

    /// Converts a distance on the surface in meters to an angle at the center in radians.
    @inlinable
    public static func radians(fromMeters meters: Double) -> Double { meters / meanRadius }

    /// Converts an angle at the center in radians to a surface distance in meters.
    @inlinable
    public static func meters(fromRadians radians: Double) -> Double { radians * meanRadius }
}

/// One international mile in meters (exact by definition): the package's only definition of it.
public let metersPerMile: Double = 1609.344

/// Degrees-to-radians conversion, written exactly as S2 does (`d * (π / 180)`) so that
/// points computed from latitude and longitude are bit-identical to Google S2's.
@inlinable
public func radians(degrees: Double) -> Double { degrees * (Double.pi / 180) }

/// Radians-to-degrees conversion (`r * (180 / π)`, as S2 does).
@inlinable
public func degrees(radians: Double) -> Double { radians * (180 / Double.pi) }
