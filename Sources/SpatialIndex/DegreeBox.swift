import Geodesy

/// A latitude/longitude box in `Float` degrees over the "unwrapped" longitude line: `west` in
/// [-180, 180], `east >= west`, and `east` past 180 for a box that crosses the antimeridian
/// (the part east of it, shifted by +360). The packed tree's node boxes.
///
/// Invariants: the box of a fence contains every point of its cap, with each point's longitude
/// taken in [-180, 180) or, for a box that crosses (``isCrossing``), that longitude + 360
/// where it lies east of the antimeridian. Bounds are rounded outward from the `Double` cap box,
/// and rounding to nearest is monotone, so a `Double` coordinate inside stays inside after its
/// own rounding to `Float`. ``empty`` contains nothing; a union of boxes may span more than 360
/// degrees of longitude (it is then merely loose).
@usableFromInline
struct DegreeBox: Equatable, Sendable {
    @usableFromInline var south: Float
    @usableFromInline var north: Float
    @usableFromInline var west: Float
    @usableFromInline var east: Float

    /// The box containing nothing: every test fails (`south = +inf`, `north = -inf`).
    static let empty = DegreeBox(south: .infinity, north: -.infinity, west: .infinity, east: -.infinity)

    @usableFromInline init(south: Float, north: Float, west: Float, east: Float) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// Margin added to a fence's radius before bounding its cap, meters: covers the error of
    /// the fix's unit vector (``UnitVector/init(fastLatitude:longitude:)``, < 1e-15) and of
    /// its degrees recomputed from a vector (`atan2`), many times over. Costs nothing measurable
    /// in false candidates.
    @usableFromInline static let capPadMeters = 0.01

    /// The box of the cap of `fence` (radius + ``capPadMeters``), rounded outward to `Float`.
    init(cap fence: Fence) {
        let b = LatLngBox.bounding(center: fence.center, radius: fence.radiusMeters + DegreeBox.capPadMeters)
        let east = b.west > b.east ? b.east + 360 : b.east
        self.init(
            south: DegreeBox.down(b.south), north: DegreeBox.up(b.north),
            west: DegreeBox.down(b.west), east: DegreeBox.up(east))
    }

    /// Whether the box reaches the antimeridian from the west (east edge at 180 or beyond) without
    /// starting at -180. A fix of such a box's cap lies either at `longitude >= west` or, east of
    /// the antimeridian, at `longitude + 360 <= east`, never both. A box from -180 to 180 or
    /// beyond contains every longitude in [-180, 180) as it is.
    var isCrossing: Bool { east >= 180 && west > -180 }

    /// The smallest box containing both.
    func union(_ o: DegreeBox) -> DegreeBox {
        DegreeBox(
            south: Swift.min(south, o.south), north: Swift.max(north, o.north),
            west: Swift.min(west, o.west), east: Swift.max(east, o.east))
    }

    /// Whether the box contains the point (`longitude` on the unwrapped line, as the box).
    func contains(latitude: Float, longitude: Float) -> Bool {
        latitude >= south && latitude <= north && longitude >= west && longitude <= east
    }

    /// Whether the box contains `o`.
    func contains(_ o: DegreeBox) -> Bool {
        south <= o.south && north >= o.north && west <= o.west && east >= o.east
    }

    /// The largest `Float` not above `x`.
    static func down(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }

    /// The smallest `Float` not below `x`.
    static func up(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }
}
