#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// Bounding regions of a cell, ported from Google S2's `S2Cell::GetCapBound` and
/// `S2Cell::GetRectBound` (s2cell.cc), plus a non-allocating subdivision for the coverer.
extension Cell {
    /// A cap containing the cell: axis through the center of the cell's (u, v) rectangle
    /// (close to, but cheaper than, the true center), radius reaching the farthest vertex
    /// (S2's `GetCapBound`; not the smallest possible cap, but within a few percent).
    public var capBound: Cap {
        let axis = S2Projection.faceUVToXYZ(face, uvBounds.center).normalized
        var cap = Cap(center: axis, radius: .zero)
        for k in 0..<4 {
            let d = ChordAngle(axis, vertex(k))
            if d > cap.radius { cap.radius = d }
        }
        return cap
    }

    /// The latitude/longitude box of the cell, in degrees (S2's `GetRectBound`).
    ///
    /// Below level 0 the extremes are attained at vertices: one diagonal pair sets the
    /// latitude range, the other the longitude range. The box is then grown by 2 ε radians
    /// (ε = 2^-52) on every side to contain the lat/lng of any point inside the cell despite
    /// the rounding of normalization, and widened to all longitudes when it reaches a pole.
    /// Face cells use their known extents (±45° at edge midpoints, ±35.26° at the polar faces'
    /// corners).
    public var rectBound: LatLngBox {
        let eps = Double.ulpOfOne
        if level > 0 {
            let u = uvBounds.uLo + uvBounds.uHi
            let v = uvBounds.vLo + uvBounds.vHi
            let i = S2Projection.uAxis(face).z == 0 ? (u < 0 ? 1 : 0) : (u > 0 ? 1 : 0)
            let j = S2Projection.vAxis(face).z == 0 ? (v < 0 ? 1 : 0) : (v > 0 ? 1 : 0)
            let lat0 = latitude(i, j), lat1 = latitude(1 - i, 1 - j)
            var lat = (lo: Swift.min(lat0, lat1), hi: Swift.max(lat0, lat1))
            var lng = LngInterval.fromPointPair(longitude(i, 1 - j), longitude(1 - i, j))
            // Expanded(2 ε, 2 ε), clipped to [-π/2, π/2], then PolarClosure.
            lat = (Swift.max(-Double.pi / 2, lat.lo - 2 * eps), Swift.min(Double.pi / 2, lat.hi + 2 * eps))
            lng = lng.expanded(2 * eps)
            if lat.lo == -Double.pi / 2 || lat.hi == Double.pi / 2 { lng = .full }
            return LngInterval.box(lat: lat, lng: lng)
        }
        // asin(sqrt(1/3)) is the latitude of the cube corners; minus the 0.5 ε rounding error.
        let poleMinLat = asin((1.0 / 3).squareRoot()) - 0.5 * eps
        let q = Double.pi / 4
        var lat: (lo: Double, hi: Double)
        var lng: LngInterval
        switch face {
        case 0: lat = (-q, q); lng = LngInterval(lo: -q, hi: q)
        case 1: lat = (-q, q); lng = LngInterval(lo: q, hi: 3 * q)
        case 2: lat = (poleMinLat, Double.pi / 2); lng = .full
        case 3: lat = (-q, q); lng = LngInterval(lo: 3 * q, hi: -3 * q)
        case 4: lat = (-q, q); lng = LngInterval(lo: -3 * q, hi: -q)
        default: lat = (-Double.pi / 2, -poleMinLat); lng = .full
        }
        // Latitude grows by ε for the error of converting a point to lat/lng; atan2 is
        // semi-monotonic so longitude needs no margin.
        lat = (Swift.max(-Double.pi / 2, lat.lo - eps), Swift.min(Double.pi / 2, lat.hi + eps))
        return LngInterval.box(lat: lat, lng: lng)
    }

    /// Latitude in radians of the (u, v) corner (i, j), as `S2LatLng::Latitude`.
    @inlinable
    func latitude(_ i: Int, _ j: Int) -> Double {
        let p = S2Projection.faceUVToXYZ(face, uvBounds[0, i], uvBounds[1, j])
        return atan2(p.z, (p.x * p.x + p.y * p.y).squareRoot())
    }

    /// Longitude in radians of the (u, v) corner (i, j), as `S2LatLng::Longitude`.
    @inlinable
    func longitude(_ i: Int, _ j: Int) -> Double {
        let p = S2Projection.faceUVToXYZ(face, uvBounds[0, i], uvBounds[1, j])
        return atan2(p.y, p.x)
    }

    /// The four children in Hilbert order without allocating, with bounds split at the
    /// parent's (u, v) center exactly as ``children()`` / S2's `Subdivide`.
    /// Precondition: not a leaf.
    @inlinable
    func subdivided() -> Quad {
        let mid = id.centerUV
        var quad = Quad()
        var childID = id.childBegin()
        for pos in 0..<4 {
            let ij = HilbertTables.posToIJ[orientation][pos]
            let i = ij >> 1, j = ij & 1
            var b = uvBounds
            b[0, 1 - i] = mid.u
            b[1, 1 - j] = mid.v
            quad[pos] = Cell(
                id: childID, face: face, level: level + 1,
                orientation: orientation ^ HilbertTables.posToOrientation[pos], uvBounds: b)
            childID = childID.next
        }
        return quad
    }

    /// Four cells held inline (the children of one cell).
    @usableFromInline
    struct Quad: Sendable {
        @usableFromInline var c0, c1, c2, c3: Cell
        @inlinable init() {
            let face = Cell(
                id: .none, face: 0, level: 0, orientation: 0,
                uvBounds: UVRect(uLo: 0, uHi: 0, vLo: 0, vHi: 0))
            c0 = face; c1 = face; c2 = face; c3 = face
        }
        @inlinable subscript(k: Int) -> Cell {
            get {
                switch k {
                case 0: return c0
                case 1: return c1
                case 2: return c2
                default: return c3
                }
            }
            set {
                switch k {
                case 0: c0 = newValue
                case 1: c1 = newValue
                case 2: c2 = newValue
                default: c3 = newValue
                }
            }
        }
    }
}

/// A longitude interval in radians on the circle (S2's `S1Interval`), just what the cell
/// bounds need: `lo > hi` means the interval crosses ±π; the full circle is [-π, π].
@usableFromInline
struct LngInterval: Sendable {
    var lo: Double
    var hi: Double

    static let full = LngInterval(lo: -Double.pi, hi: Double.pi)

    /// S1Interval's constructor rule: an endpoint at -π becomes π unless the interval is full.
    init(lo: Double, hi: Double) {
        var lo = lo, hi = hi
        if lo == -Double.pi && hi != Double.pi { lo = Double.pi }
        if hi == -Double.pi && lo != Double.pi { hi = Double.pi }
        self.lo = lo
        self.hi = hi
    }

    var isFull: Bool { lo == -Double.pi && hi == Double.pi }

    /// Length in radians (`S1Interval::GetLength`).
    var length: Double {
        var l = hi - lo
        if l >= 0 { return l }
        l += 2 * Double.pi
        return l > 0 ? l : -1
    }

    /// The shorter interval containing both points (`S1Interval::FromPointPair`).
    static func fromPointPair(_ a: Double, _ b: Double) -> LngInterval {
        let p1 = a == -Double.pi ? Double.pi : a
        let p2 = b == -Double.pi ? Double.pi : b
        var d = p2 - p1
        if d < 0 { d = (p2 + Double.pi) - (p1 - Double.pi) }
        return d <= Double.pi ? LngInterval(lo: p1, hi: p2) : LngInterval(lo: p2, hi: p1)
    }

    /// Grown by `margin` >= 0 at both ends (`S1Interval::Expanded`); full when it would wrap.
    func expanded(_ margin: Double) -> LngInterval {
        if length + 2 * margin + 2 * Double.ulpOfOne >= 2 * Double.pi { return .full }
        var lo = remainder(self.lo - margin, 2 * Double.pi)
        let hi = remainder(self.hi + margin, 2 * Double.pi)
        if lo <= -Double.pi { lo = Double.pi }
        return LngInterval(lo: lo, hi: hi)
    }

    /// A box in degrees from a latitude range and this longitude range (radians).
    static func box(lat: (lo: Double, hi: Double), lng: LngInterval) -> LatLngBox {
        if lng.isFull {
            return LatLngBox(south: degrees(radians: lat.lo), north: degrees(radians: lat.hi), west: -180, east: 180)
        }
        return LatLngBox(
            south: degrees(radians: lat.lo), north: degrees(radians: lat.hi),
            west: degrees(radians: lng.lo), east: degrees(radians: lng.hi))
    }
}
