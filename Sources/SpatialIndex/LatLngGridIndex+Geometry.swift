import Geodesy

/// Distances from a point to a latitude/longitude cell (``LatLngGrid``: two meridian arcs and
/// two parallels), as squared chords on the unit sphere, for the cell index's classification.
/// Accurate to ~1e-15 (rounding only), far inside the index's 1e-12 margin.
///
/// Why meridians suffice: the distance from `c` to a point of latitude φ grows with the
/// longitude difference |Δλ| in [0, π] (`cos d = sin φc sin φ + cos φc cos φ cos Δλ`, and
/// `cos φc cos φ >= 0`). So over a cell, for each latitude, the nearest point is at `c`'s own
/// longitude when the cell spans it, else on the nearer edge meridian; the farthest is on an
/// edge meridian unless the cell spans the antipodal meridian.
enum CellGeometry {
    /// The least and greatest squared chord from `c` (the unit vector of `center`) to the
    /// points of the cell with the given bounds (degrees; `east - west` in (0, 360]).
    static func chord2Range(
        from c: UnitVector, center: LatLng,
        cell: (south: Double, north: Double, west: Double, east: Double)
    )
        -> (min: Double, max: Double)
    {
        let width = cell.east - cell.west
        let near = nearChord2(from: c, center: center, cell: cell)
        // The antipodal meridian (with room for rounding) inside the cell: no useful bound.
        let antipode = offset(center.longitude + 180, from: cell.west)
        if antipode <= width + 1e-9 || antipode >= 360 - 1e-9 {
            return (near, 4)
        }
        // Farthest from c = nearest to -c, since |x - c|^2 + |x + c|^2 = 4 on the sphere.
        let minus = UnitVector(x: -c.x, y: -c.y, z: -c.z)
        let sw = corner(cell.south, cell.west), nw = corner(cell.north, cell.west)
        let se = corner(cell.south, cell.east), ne = corner(cell.north, cell.east)
        let far = 4 - Swift.min(arcChord2(minus, sw, nw), arcChord2(minus, se, ne))
        return (near, far)
    }

    /// The least squared chord from `c` (the unit vector of `center`) to the points of the box
    /// with the given bounds (degrees; `east >= west`; a width of 360 or more is all
    /// longitudes, and `east` may exceed 180). Allocation-free; the packed tree's bound for
    /// nearest queries.
    static func nearChord2(
        from c: UnitVector, center: LatLng,
        cell: (south: Double, north: Double, west: Double, east: Double)
    ) -> Double {
        let width = cell.east - cell.west
        if width >= 360 || offset(center.longitude, from: cell.west) <= width {
            // Along c's own meridian: the latitude gap to the cell's nearer parallel.
            let gap = Swift.max(0, cell.south - center.latitude, center.latitude - cell.north)
            let s = sinCos(degrees: gap / 2).sin
            return 4 * s * s
        }
        let sw = corner(cell.south, cell.west), nw = corner(cell.north, cell.west)
        let se = corner(cell.south, cell.east), ne = corner(cell.north, cell.east)
        return Swift.min(arcChord2(c, sw, nw), arcChord2(c, se, ne))
    }

    /// `longitude - west` reduced to [0, 360).
    static func offset(_ longitude: Double, from west: Double) -> Double {
        var d = (longitude - west).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d
    }

    /// The unit vector of a cell corner (degrees).
    static func corner(_ latitude: Double, _ longitude: Double) -> UnitVector {
        LatLng(uncheckedLatitude: latitude, longitude: longitude).unitVector
    }

    /// The least squared chord from `c` to the great-circle arc from `a` to `b` (unit vectors,
    /// arc shorter than π): to the arc's interior when the foot of the perpendicular from `c`
    /// lies on it, else to the nearer end. A degenerate arc (a = b) is its end point.
    static func arcChord2(_ c: UnitVector, _ a: UnitVector, _ b: UnitVector) -> Double {
        let ends = Swift.min(chord2(c, a), chord2(c, b))
        let n = a.cross(b)
        let nn = n.dot(n)
        guard nn > 0 else { return ends }
        // n × a points from a along the arc towards b, b × n from b towards a.
        if c.dot(n.cross(a)) > 0 && c.dot(b.cross(n)) > 0 {
            let cn = c.dot(n)
            let s2 = Swift.min(1, cn * cn / nn)  // sin^2 of the distance to the great circle
            // 2 (1 - cos d) = 2 sin^2 d / (1 + cos d), without cancellation for small d.
            let foot = 2 * s2 / (1 + (1 - s2).squareRoot())
            return Swift.min(ends, foot)
        }
        return ends
    }

    @inline(__always)
    static func chord2(_ a: UnitVector, _ b: UnitVector) -> Double {
        squaredChord(a.x, a.y, a.z, b.x, b.y, b.z)
    }
}
