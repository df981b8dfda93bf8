#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the unit sphere as a 3-vector (x toward (0°, 0°), y toward (0°, 90°E),
/// z toward the North Pole). This is S2's `S2Point` representation.
///
/// Vectors made from a ``LatLng`` have unit length up to rounding; arithmetic helpers do not
/// renormalize unless asked (``normalized``).
public struct UnitVector: Hashable, Sendable, CustomStringConvertible {
    /// x component (towards latitude 0, longitude 0).
    public var x: Double
    /// y component (towards latitude 0, longitude 90° E).
    public var y: Double
    /// z component (towards the North Pole).
    public var z: Double

    /// The vector (x, y, z) as given: not normalized (see ``normalized``).
    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point of a latitude/longitude, bit-identical to `S2LatLng::ToPoint()`.
    @inlinable
    public init(_ latLng: LatLng) {
        let phi = latLng.latitudeRadians
        let theta = latLng.longitudeRadians
        let cosPhi = cos(phi)
        self.init(x: cos(theta) * cosPhi, y: sin(theta) * cosPhi, z: sin(phi))
    }

    /// Latitude and longitude of this (not necessarily unit-length) vector, in degrees,
    /// computed exactly as `S2LatLng(S2Point)` does; the longitude is in [-180, 180].
    /// `+ 0.0` turns a -0.0 component into +0.0, so (-1, -0, -0) maps to longitude +180 as in S2.
    @inlinable
    public var latLng: LatLng {
        let lat = atan2(z + 0.0, (x * x + y * y).squareRoot())
        let lng = atan2(y + 0.0, x + 0.0)
        return LatLng(uncheckedLatitude: degrees(radians: lat), longitude: degrees(radians: lng))
    }

    /// The dot product (the cosine of the angle between unit vectors).
    @inlinable public func dot(_ o: UnitVector) -> Double { x * o.x + y * o.y + z * o.z }

    /// The cross product (not normalized).
    @inlinable
    public func cross(_ o: UnitVector) -> UnitVector {
        UnitVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    /// The squared length.
    @inlinable public var norm2: Double { x * x + y * y + z * z }
    /// The length (1 for a unit vector, up to rounding).
    @inlinable public var norm: Double { norm2.squareRoot() }

    /// This vector scaled to unit length (the zero vector stays zero), computed as S2's
    /// `Vector3::Normalize` does (multiply by `1 / norm`), so results match S2 to the bit.
    @inlinable
    public var normalized: UnitVector {
        var n = norm
        if n != 0 { n = 1 / n }
        return self * n
    }

    /// Squared Euclidean (chord) distance to `o`: `|self - o|^2`. On the unit sphere this is
    /// `(2 sin(θ/2))^2` for the central angle θ, monotone in θ, and needs no trigonometry.
    @inlinable
    public func chord2(to o: UnitVector) -> Double {
        let dx = x - o.x, dy = y - o.y, dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }

    /// Component-wise sum (not normalized).
    @inlinable public static func + (a: UnitVector, b: UnitVector) -> UnitVector {
        UnitVector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
    }
    /// Component-wise difference (not normalized).
    @inlinable public static func - (a: UnitVector, b: UnitVector) -> UnitVector {
        UnitVector(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z)
    }
    /// Each component times `s` (not normalized).
    @inlinable public static func * (a: UnitVector, s: Double) -> UnitVector {
        UnitVector(x: a.x * s, y: a.y * s, z: a.z * s)
    }
    /// The opposite vector (the antipode of a unit vector).
    @inlinable public static prefix func - (a: UnitVector) -> UnitVector {
        UnitVector(x: -a.x, y: -a.y, z: -a.z)
    }

    /// `(x, y, z)`, for debugging.
    public var description: String { "(\(x), \(y), \(z))" }
}
