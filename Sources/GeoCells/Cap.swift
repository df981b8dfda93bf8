#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A spherical cap: the points of the unit sphere within an angle ``radius`` of ``center``
/// (boundary included). A geofence circle is a cap.
///
/// Representation (as Google S2's `S2Cap`): a center unit vector and the radius as a
/// ``ChordAngle`` (squared chord length), so point containment is
/// `|p - center|^2 <= radius.length2` with no trigonometry. The empty cap has radius
/// ``ChordAngle/negative``; the full cap has radius ``ChordAngle/straight`` (chord² = 4).
/// Meters are converted with the spherical Earth of radius `Earth.meanRadius` (6,371,008.8 m).
///
/// Invariant: `center` has unit length (up to rounding) and `radius` is a valid chord angle.
public struct Cap: Hashable, Sendable, CustomStringConvertible {
    /// The cap's axis, a unit vector.
    public var center: UnitVector
    /// The cap's angular radius as a chord angle.
    public var radius: ChordAngle

    /// A cap from its center and its chord-angle radius.
    @inlinable
    public init(center: UnitVector, radius: ChordAngle) {
        self.center = center
        self.radius = radius
    }

    /// A cap from its center and its angular radius in radians (clamped to π; a negative
    /// angle gives an empty cap). Matches `S2Cap(center, S1Angle::Radians(angle))`.
    @inlinable
    public init(center: UnitVector, angleRadians: Double) {
        self.center = center
        self.radius = ChordAngle(radians: Swift.min(angleRadians, Double.pi))
    }

    /// A geofence circle: center in degrees, radius in meters on the sphere of radius
    /// `Earth.meanRadius`. The angle is `meters / Earth.meanRadius` radians.
    @inlinable
    public init(center: LatLng, meters: Double) {
        self.init(center: center.unitVector, angleRadians: Earth.radians(fromMeters: meters))
    }

    /// The cap containing no point.
    public static let empty = Cap(center: UnitVector(x: 1, y: 0, z: 0), radius: .negative)
    /// The cap containing the whole sphere.
    public static let full = Cap(center: UnitVector(x: 1, y: 0, z: 0), radius: .straight)

    /// Whether the cap contains no point (a negative radius).
    @inlinable public var isEmpty: Bool { radius.isNegative }
    /// Whether the cap is the whole sphere (the largest chord angle).
    @inlinable public var isFull: Bool { radius.length2 == ChordAngle.maxLength2 }

    /// Distance from the cap's base plane to its apex along the axis, `1 - cos(radius)`
    /// (unit sphere; negative for the empty cap): `length2 / 2`.
    @inlinable public var height: Double { 0.5 * radius.length2 }

    /// Area on the unit sphere in steradians (`2π · height`; multiply by R² for m²).
    @inlinable public var area: Double { 2 * Double.pi * Swift.max(0, height) }

    /// The angular radius in radians (-1 for the empty cap).
    @inlinable public var radiusRadians: Double { radius.radians }

    /// True when `p` (a unit vector) lies inside the cap or on its boundary.
    @inlinable
    public func contains(_ p: UnitVector) -> Bool {
        ChordAngle(center, p) <= radius
    }

    /// True when `p` lies strictly inside the cap (always true for the full cap).
    @inlinable
    public func interiorContains(_ p: UnitVector) -> Bool {
        isFull || ChordAngle(center, p) < radius
    }

    /// The cap of the points not in this one (its boundary included): center `-center`,
    /// chord² `4 - length2`. The complement of the full cap is empty and vice versa.
    @inlinable
    public var complement: Cap {
        if isFull { return .empty }
        if isEmpty { return .full }
        return Cap(center: -center, radius: ChordAngle(length2: 4 - radius.length2))
    }

    /// The smallest cap containing this one: itself.
    @inlinable public var capBound: Cap { self }

    /// The latitude/longitude bounding box of the cap, in degrees.
    ///
    /// Port of `S2Cap::GetRectBound` (s2cap.cc): latitude range `lat ± radius`, clamped at the
    /// poles (a cap containing a pole spans every longitude); otherwise the longitude half-width
    /// `A` satisfies `sin A = sin(radius) / cos(lat)` (law of sines in the right spherical
    /// triangle pole–center–tangent point). Computed in radians, converted to degrees last.
    public var rectBound: LatLngBox {
        if isEmpty { return .empty }
        let lat = atan2(center.z, (center.x * center.x + center.y * center.y).squareRoot())
        let lng = atan2(center.y, center.x)
        let capAngle = radius.radians
        var allLongitudes = false
        var lngLo = -Double.pi, lngHi = Double.pi
        var latLo = lat - capAngle
        if latLo <= -Double.pi / 2 {
            latLo = -Double.pi / 2
            allLongitudes = true
        }
        var latHi = lat + capAngle
        if latHi >= Double.pi / 2 {
            latHi = Double.pi / 2
            allLongitudes = true
        }
        if !allLongitudes {
            let sinA = radius.sine
            let sinC = cos(lat)
            if sinA <= sinC {
                let angleA = asin(sinA / sinC)
                lngLo = remainder(lng - angleA, 2 * Double.pi)
                lngHi = remainder(lng + angleA, 2 * Double.pi)
            }
        }
        // S1Interval's constructor maps an endpoint of -π to π unless the interval is full.
        if lngLo == -Double.pi && lngHi != Double.pi { lngLo = Double.pi }
        if lngHi == -Double.pi && lngLo != Double.pi { lngHi = Double.pi }
        if lngLo == -Double.pi && lngHi == Double.pi {
            return LatLngBox(
                south: degrees(radians: latLo), north: degrees(radians: latHi), west: -180, east: 180)
        }
        return LatLngBox(
            south: degrees(radians: latLo), north: degrees(radians: latHi),
            west: degrees(radians: lngLo), east: degrees(radians: lngHi))
    }

    /// The center and the radius in radians, for debugging.
    public var description: String { "Cap(center: \(center), radius: \(radius.radians) rad)" }
}
