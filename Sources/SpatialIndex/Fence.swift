#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A circular geofence: every point within `radiusMeters` (great circle, on the sphere of radius
/// `Earth.meanRadius`, 6,371,008.8 m) of `center`, boundary included.
///
/// Representation: the center both as `LatLng` (degrees) and as a precomputed `UnitVector`,
/// and the squared chord `chord2 = (2 sin(r / 2R))^2` of the radius, clamped to [0, 4]
/// (4 = the whole sphere, reached at r >= πR). "Point p is inside" is
/// `p.chord2(to: centerVector) <= chord2`: no trigonometry, no pole or antimeridian case.
/// The chord test agrees with a haversine test except within about 1e-9 m of the boundary.
///
/// Invariants: `id` is in `0...Int32.max` (the sign bit is kept free for indexes that tag ids);
/// `radiusMeters` is finite and >= 0.
public struct Fence: Hashable, Sendable, CustomStringConvertible {
    /// Caller's identifier, in `0...Int32.max`. Indexes report hits by this id.
    public let id: Int32
    /// Center, degrees.
    public let center: LatLng
    /// Radius in meters, finite and >= 0.
    public let radiusMeters: Double
    /// `center.unitVector`, precomputed.
    public let centerVector: UnitVector
    /// Squared chord length of the radius on the unit sphere, in [0, 4].
    public let chord2: Double

    /// Validating initializer.
    /// - Throws: ``FenceError`` naming the field: a negative `id`, or a non-finite or negative
    ///   radius.
    @inlinable
    public init(id: Int32, center: LatLng, radiusMeters: Double) throws(FenceError) {
        guard id >= 0 else { throw .negativeID(id) }
        guard radiusMeters.isFinite else { throw .nonFiniteRadius(radiusMeters) }
        guard radiusMeters >= 0 else { throw .negativeRadius(radiusMeters) }
        self.id = id
        self.center = center
        self.radiusMeters = radiusMeters
        self.centerVector = center.unitVector
        self.chord2 = Fence.chord2(forRadiusMeters: radiusMeters)
    }

    /// Validating initializer from raw degrees (latitude in [-90, 90], longitude in [-180, 180]).
    /// - Throws: ``FenceError/invalidCenter(_:)`` wrapping the `LatLngError`, or the radius and
    ///   id errors of ``init(id:center:radiusMeters:)``.
    @inlinable
    public init(id: Int32, latitude: Double, longitude: Double, radiusMeters: Double) throws(FenceError) {
        let center: LatLng
        do {
            center = try LatLng(latitude: latitude, longitude: longitude)
        } catch {
            throw .invalidCenter(error)
        }
        try self.init(id: id, center: center, radiusMeters: radiusMeters)
    }

    /// True when `p` (a unit vector) lies inside or on the boundary of this fence.
    @inlinable
    public func contains(_ p: UnitVector) -> Bool {
        squaredChord(p.x, p.y, p.z, centerVector.x, centerVector.y, centerVector.z) <= chord2
    }

    /// The squared chord `(2 sin(θ / 2))^2` of a great-circle distance in meters (θ = d / R),
    /// clamped to [0, 4]. Negative or NaN distances give -1 (matches nothing, since every
    /// squared chord is >= 0); +infinity gives 4 (the whole sphere).
    @inlinable
    public static func chord2(forRadiusMeters meters: Double) -> Double {
        guard meters >= 0 else { return -1 }  // also catches NaN
        return Geodesy.chord2(forMeters: meters)
    }

    /// The id, center and radius, for debugging.
    public var description: String { "Fence(\(id), \(center), \(radiusMeters) m)" }
}

/// Why a fence was rejected; ``field`` names the offending CSV column.
public enum FenceError: Error, Equatable, Sendable, CustomStringConvertible {
    case negativeID(Int32)
    case nonFiniteRadius(Double)
    case negativeRadius(Double)
    case invalidCenter(LatLngError)

    /// The offending field: `"id"`, `"radius_m"`, `"lat"` or `"lon"`.
    public var field: String {
        switch self {
        case .negativeID: return "id"
        case .nonFiniteRadius, .negativeRadius: return "radius_m"
        case .invalidCenter(let e): return e.field
        }
    }

    /// The field and the offending value, in words.
    public var description: String {
        switch self {
        case .negativeID(let v): return "fence id must be in 0...\(Int32.max), got \(v)"
        case .nonFiniteRadius(let v): return "radius_m must be a finite number, got \(v)"
        case .negativeRadius(let v): return "radius_m must be >= 0, got \(v)"
        case .invalidCenter(let e): return e.description
        }
    }
}

/// `|p - c|^2` written once, so that every index (and brute force) computes bit-identical
/// squared chords: same operand order, no fused multiply-add.
@inlinable @inline(__always)
func squaredChord(
    _ px: Double, _ py: Double, _ pz: Double,
    _ cx: Double, _ cy: Double, _ cz: Double
) -> Double {
    let dx = px - cx, dy = py - cy, dz = pz - cz
    return dx * dx + dy * dy + dz * dz
}
