#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A cylindrical map projection: x is proportional to longitude, y depends on latitude only,
/// so meridians are vertical lines and parallels horizontal lines.
///
/// Coordinates are in projected units (radians of longitude for x); ``MapFrame`` scales them to
/// pixels.
public enum MapProjection: String, Sendable, CaseIterable {
    /// Web Mercator (spherical, as web maps use): conformal, so small circles stay round; y is
    /// `ln(tan(π/4 + φ/2))`; latitudes are clamped to ±``mercatorLatitudeLimit``.
    case webMercator = "mercator"
    /// Equirectangular (plate carrée): y is the latitude in radians; distances along meridians
    /// are true, east-west distances stretch by 1/cos(latitude).
    case equirectangular

    /// The latitude (degrees) where Web Mercator is cut, making the world square:
    /// `2 atan(e^π) - π/2` = 85.0511287798°.
    public static let mercatorLatitudeLimit = 85.051_128_779_806_59

    /// Projected x of a longitude in degrees (radians; any finite longitude, unwrapped values
    /// beyond ±180 included).
    @inlinable public func x(longitude: Double) -> Double { radians(degrees: longitude) }

    /// Projected y of a latitude in degrees (north up: larger y is further north).
    public func y(latitude: Double) -> Double {
        switch self {
        case .equirectangular:
            return radians(degrees: max(-90, min(90, latitude)))
        case .webMercator:
            let limit = Self.mercatorLatitudeLimit
            let phi = radians(degrees: max(-limit, min(limit, latitude)))
            return log(tan(Double.pi / 4 + phi / 2))
        }
    }

    /// The northernmost latitude this projection draws (degrees).
    public var latitudeLimit: Double { self == .webMercator ? Self.mercatorLatitudeLimit : 90 }

    /// How many meters of ground one projected unit spans horizontally at `latitude` (degrees),
    /// on the sphere of radius `Earth/meanRadius`: along a parallel in both projections, and in
    /// every direction in Web Mercator.
    public func metersPerUnit(atLatitude latitude: Double) -> Double {
        Earth.meanRadius * cos(radians(degrees: latitude))
    }
}
