import Geodesy
import GeoCells

/// A closed outline on the sphere, ready to project: vertices in degrees with longitudes
/// *unwrapped* (each differs from the previous by less than 180, so a ring across the
/// antimeridian runs past ±180 instead of jumping across the map).
///
/// A ring around a pole gains or loses 360 degrees of longitude over one turn; ``pole`` says which
/// pole it encloses, and ``mapPolygon(latitudeLimit:)`` closes it along the map's top or bottom
/// edge so that the fill covers the polar side. A region larger than a hemisphere is drawn as the
/// complement of its ``ring`` (``isComplement``).
public struct GeoOutline: Sendable {
    /// The boundary's vertices (degrees), longitudes unwrapped, first vertex not repeated.
    public let ring: [(latitude: Double, longitude: Double)]
    /// +1 when the ring encloses the North Pole on its inner side, -1 the South Pole, 0 neither.
    public let pole: Int
    /// True when the region is the outside of ``ring`` (caps with radius beyond a quarter of
    /// the Earth's circumference: the ring is drawn around the antipode instead).
    public let isComplement: Bool

    /// An outline from vertices in order (degrees, longitudes in any range); they are unwrapped here.
    /// When the ring turns once around the Earth's axis it encloses a pole: `enclosedPole` names
    /// it (+1 north, -1 south); without it, the hemisphere holding most of the ring is taken.
    public init(vertices: [LatLng], isComplement: Bool = false, enclosedPole: Int? = nil) {
        var ring: [(latitude: Double, longitude: Double)] = []
        ring.reserveCapacity(vertices.count)
        var previous = 0.0
        for (i, v) in vertices.enumerated() {
            var lon = v.longitude
            if i > 0 { lon -= 360 * ((lon - previous) / 360).rounded() }
            ring.append((v.latitude, lon))
            previous = lon
        }
        self.ring = ring
        self.isComplement = isComplement
        if let first = ring.first, let last = ring.last {
            var closing = first.longitude - last.longitude
            closing -= 360 * (closing / 360).rounded()
            let turn = last.longitude + closing - first.longitude  // total longitude change over the loop
            pole = abs(turn) < 180 ? 0 : (enclosedPole ?? (ring.map(\.latitude).reduce(0, +) >= 0 ? 1 : -1))
        } else {
            pole = 0
        }
    }

    /// The great-circle outline of a circular fence: `segments` points at equal bearings from
    /// `center` at `radius` meters (`destination(from:bearing:distance:)` on the sphere of
    /// radius `Earth/meanRadius`). A radius beyond a quarter circumference is drawn as the
    /// complement of the circle around the antipode; radius 0 or less gives a degenerate ring at
    /// the center.
    ///
    /// - Parameters:
    ///   - center: the fence's center.
    ///   - radius: the fence's radius in meters.
    ///   - segments: at least 8; ``segments(forPixelRadius:)`` picks one for a picture.
    /// - Precondition: `radius` is finite.
    public static func circle(center: LatLng, radius: Double, segments: Int) -> GeoOutline {
        precondition(radius.isFinite, "GeoOutline.circle: radius must be finite")
        let n = max(8, segments)
        let quarter = Double.pi / 2 * Earth.meanRadius
        let half = Double.pi * Earth.meanRadius
        let r = min(max(radius, 0), half)
        if r > quarter {
            let antipode = LatLng(uncheckedLatitude: -center.latitude, longitude: LatLng.wrapLongitude(center.longitude + 180))
            let vertices = (0..<n).map { k in destination(from: antipode, bearing: 360 * Double(k) / Double(n), distance: half - r) }
            return GeoOutline(vertices: vertices, isComplement: true, enclosedPole: antipode.latitude >= 0 ? 1 : -1)
        }
        let vertices = (0..<n).map { k in destination(from: center, bearing: 360 * Double(k) / Double(n), distance: r) }
        return GeoOutline(vertices: vertices, enclosedPole: center.latitude >= 0 ? 1 : -1)
    }

    /// Number of outline segments for a circle about `pixels` in radius: one every ~3 pixels of
    /// circumference, between 16 and 360, so small fences stay light and large ones stay round.
    public static func segments(forPixelRadius pixels: Double) -> Int {
        let wanted = (2 * Double.pi * pixels / 3).rounded(.up)
        guard wanted < 360 else { return 360 }  // also NaN, +infinity and radii past Int's range
        return wanted > 16 ? Int(wanted) : 16  // also negative radii
    }

    /// The outline of an S2 cell: its four vertices (`Cell/vertex(_:)`) joined by great-circle
    /// edges, each cut into `pointsPerEdge` straight pieces (cells are geodesic quadrilaterals;
    /// 1 is enough below a few kilometers).
    public static func cell(_ id: CellID, pointsPerEdge: Int = 1) -> GeoOutline {
        let cell = Cell(id)
        let corners = (0..<4).map { cell.vertex($0).latLng }
        let n = max(1, pointsPerEdge)
        var vertices: [LatLng] = []
        vertices.reserveCapacity(4 * n)
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            vertices.append(a)
            for step in 1..<n { vertices.append(interpolate(a, b, fraction: Double(step) / Double(n))) }
        }
        return GeoOutline(vertices: vertices)
    }

    /// Pieces per edge for a cell of `level` so that the drawn edge stays within a fraction of a
    /// percent of the true geodesic: 1 from level 8 (about 40 km) down, up to 16 for a face.
    public static func pointsPerEdge(level: Int) -> Int { level >= 8 ? 1 : 1 << min(4, (8 - level + 1) / 2) }

    /// The polygon to fill on a map (degrees, longitudes unwrapped): the ring, closed along the
    /// latitude `±latitudeLimit` when it encloses a pole so the polar side is filled.
    /// For ``isComplement`` outlines, fill this polygon together with the whole view using the
    /// even-odd rule.
    public func mapPolygon(latitudeLimit: Double) -> [(latitude: Double, longitude: Double)] {
        guard pole != 0, let first = ring.first, let last = ring.last else { return ring }
        var closing = first.longitude - last.longitude
        closing -= 360 * (closing / 360).rounded()
        let edge = Double(pole) * latitudeLimit
        let end = last.longitude + closing  // the first vertex's longitude, one turn on
        var polygon = ring
        polygon.append((first.latitude, end))
        polygon.append((edge, end))
        polygon.append((edge, first.longitude))
        return polygon
    }

    /// The smallest and largest unwrapped longitude of ``ring`` (degrees).
    public var longitudeRange: (min: Double, max: Double) {
        var lo = Double.infinity, hi = -Double.infinity
        for v in ring { lo = min(lo, v.longitude); hi = max(hi, v.longitude) }
        return (lo, hi)
    }
}
