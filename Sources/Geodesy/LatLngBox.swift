/// A latitude/longitude rectangle in degrees that may cross the antimeridian.
///
/// Representation: `south <= north` (degrees, in [-90, 90]); `west` and `east` in [-180, 180].
/// When `west <= east` the box spans the longitudes `west...east`; when `west > east` it
/// crosses the antimeridian and spans `west...180` together with `-180...east`.
/// A box that contains a pole spans every longitude: `west == -180`, `east == 180`.
/// The empty box has `south > north`.
public struct LatLngBox: Hashable, Sendable, CustomStringConvertible {
    /// Southern edge, degrees in [-90, 90].
    public var south: Double
    /// Northern edge, degrees in [-90, 90]; below `south` for the empty box.
    public var north: Double
    /// Western edge, degrees in [-180, 180]; greater than `east` when the box crosses the
    /// antimeridian.
    public var west: Double
    /// Eastern edge, degrees in [-180, 180].
    public var east: Double

    /// The box with these edges, in degrees, as given (not checked).
    @inlinable
    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// The box that contains nothing.
    public static let empty = LatLngBox(south: 1, north: -1, west: 180, east: -180)
    /// The box that contains the whole sphere.
    public static let full = LatLngBox(south: -90, north: 90, west: -180, east: 180)

    /// Whether the box holds no point (`south > north`).
    @inlinable public var isEmpty: Bool { south > north }
    /// True when the box spans the antimeridian (`west > east`).
    @inlinable public var crossesAntimeridian: Bool { west > east }
    /// True when every longitude is inside.
    @inlinable public var spansAllLongitudes: Bool { west == -180 && east == 180 }

    /// True when `p` lies inside or on the boundary. Longitudes -180 and 180 are the same meridian.
    @inlinable
    public func contains(_ p: LatLng) -> Bool {
        guard p.latitude >= south && p.latitude <= north else { return false }
        return containsLongitude(p.longitude)
    }

    /// True when longitude `lng` (degrees, in [-180, 180]) is inside the box's longitude span.
    @inlinable
    public func containsLongitude(_ lng: Double) -> Bool {
        if spansAllLongitudes { return true }
        let alt = lng == 180 ? -180 : (lng == -180 ? 180 : lng)
        if west <= east {
            return (lng >= west && lng <= east) || (alt >= west && alt <= east)
        }
        return lng >= west || lng <= east || alt >= west || alt <= east
    }

    /// The latitude and longitude ranges, for debugging.
    public var description: String { "[lat \(south)...\(north), lon \(west)...\(east)]" }
}
