#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A position on the sphere as geodetic latitude and longitude, in degrees.
///
/// Invariants (for values made by the throwing or normalizing initializers):
/// both coordinates are finite, `-90 <= latitude <= 90` and `-180 <= longitude <= 180`.
/// The throwing initializer keeps the longitude it is given (so both -180 and 180 can occur);
/// ``init(normalizingLatitude:longitude:)`` wraps it into `[-180, 180)`.
public struct LatLng: Hashable, Sendable, CustomStringConvertible {
    /// Latitude in degrees, north positive, in [-90, 90].
    public let latitude: Double
    /// Longitude in degrees, east positive, in [-180, 180].
    public let longitude: Double

    /// Validating initializer.
    /// - Throws: ``LatLngError`` naming the offending value: a NaN or infinite coordinate,
    ///   a latitude outside [-90, 90], or a longitude outside [-180, 180].
    @inlinable
    public init(latitude: Double, longitude: Double) throws(LatLngError) {
        guard latitude.isFinite else { throw .nonFiniteLatitude(latitude) }
        guard longitude.isFinite else { throw .nonFiniteLongitude(longitude) }
        guard abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard abs(longitude) <= 180 else { throw .longitudeOutOfRange(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Normalizing initializer: wraps the longitude into [-180, 180).
    /// The latitude must still be finite and within [-90, 90] (a latitude beyond a pole has no
    /// single sensible meaning, so it is an error rather than silently folded).
    /// - Throws: ``LatLngError`` for a non-finite coordinate or |latitude| > 90.
    @inlinable
    public init(normalizingLatitude latitude: Double, longitude: Double) throws(LatLngError) {
        guard latitude.isFinite else { throw .nonFiniteLatitude(latitude) }
        guard longitude.isFinite else { throw .nonFiniteLongitude(longitude) }
        guard abs(latitude) <= 90 else { throw .latitudeOutOfRange(latitude) }
        self.latitude = latitude
        self.longitude = LatLng.wrapLongitude(longitude)
    }

    /// Unchecked initializer for values already known to satisfy the invariants
    /// (for example, computed by this package from a valid position).
    @inlinable
    public init(uncheckedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Wraps a finite longitude in degrees into [-180, 180).
    @inlinable
    public static func wrapLongitude(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude < 180 { return longitude }
        var wrapped = fmod(longitude + 180, 360)
        if wrapped < 0 { wrapped += 360 }
        // fmod is exact; adding 180 back can round up to exactly 180 for tiny negatives.
        let result = wrapped - 180
        return result >= 180 ? -180 : result
    }

    /// Latitude in radians.
    @inlinable public var latitudeRadians: Double { radians(degrees: latitude) }
    /// Longitude in radians.
    @inlinable public var longitudeRadians: Double { radians(degrees: longitude) }

    /// The unit vector of this position, `(cos φ cos λ, cos φ sin λ, sin φ)`, computed exactly
    /// as S2's `S2LatLng::ToPoint()` does.
    @inlinable
    public var unitVector: UnitVector { UnitVector(self) }

    /// `(latitude, longitude)` in degrees.
    public var description: String { "(\(latitude), \(longitude))" }
}

/// Why a latitude/longitude pair was rejected. Each case carries the offending value.
public enum LatLngError: Error, Equatable, Sendable, CustomStringConvertible {
    case nonFiniteLatitude(Double)
    case nonFiniteLongitude(Double)
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)

    /// The name of the offending field: `"lat"` or `"lon"`.
    public var field: String {
        switch self {
        case .nonFiniteLatitude, .latitudeOutOfRange: return "lat"
        case .nonFiniteLongitude, .longitudeOutOfRange: return "lon"
        }
    }

    /// The field and the offending value, in words.
    public var description: String {
        switch self {
        case .nonFiniteLatitude(let v): return "latitude must be a finite number, got \(v)"
        case .nonFiniteLongitude(let v): return "longitude must be a finite number, got \(v)"
        case .latitudeOutOfRange(let v): return "latitude \(v) is outside [-90, 90] degrees"
        case .longitudeOutOfRange(let v): return "longitude \(v) is outside [-180, 180] degrees"
        }
    }
}
