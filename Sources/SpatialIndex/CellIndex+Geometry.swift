import Geodesy
import GeoCells

/// Distances from a point to a cube-face cell (a (u, v) rectangle of a face: four
/// great-circle edges), as squared chords on the unit sphere, for the cell index's
/// classification. Accurate to ~1e-15 (rounding only), far inside the index's 1e-12
/// margin; valid for any point and any cell (the cell edges are great-circle arcs shorter
/// than π).
enum CellGeometry {
    /// The (u, v) bounds of cell (i, j) of a face cut into `2^level` equal steps per axis
    /// (exact: multiples of a power of two).
    static func rect(i: Int, j: Int, level: Int) -> UVRect {
        let step = 2 / Double(1 << level)
        return UVRect(uLo: -1 + Double(i) * step, uHi: -1 + Double(i + 1) * step,
                      vLo: -1 + Double(j) * step, vHi: -1 + Double(j + 1) * step)
    }

    /// The least and greatest squared chord from `c` (unit length) to the points of the cell
    /// with (u, v) bounds `rect` on `face`.
    static func chord2Range(from c: UnitVector, face: Int, rect: UVRect) -> (min: Double, max: Double) {
        let v = [
            S2Projection.faceUVToXYZ(face, rect.uLo, rect.vLo).normalized,
            S2Projection.faceUVToXYZ(face, rect.uHi, rect.vLo).normalized,
            S2Projection.faceUVToXYZ(face, rect.uHi, rect.vHi).normalized,
            S2Projection.faceUVToXYZ(face, rect.uLo, rect.vHi).normalized,
        ]
        let near = minChord2(c, v, face: face, rect: rect)
        // When every vertex is within 90 degrees of c (squared chord < 2, with room for
        // rounding), the whole cell is (it is the convex hull of its vertices) and the
        // farthest point is a vertex: along a great-circle arc inside the hemisphere around c,
        // the distance to c has no interior maximum. Otherwise the farthest point from c is
        // the nearest to -c, since |x - c|^2 + |x + c|^2 = 4 on the sphere.
        var far = 0.0
        for k in 0..<4 { far = Swift.max(far, chord2(c, v[k])) }
        if far >= 1.9 {  // 1.9 < 2: vertices near 90 degrees take the general path
            far = 4 - minChord2(-c, v, face: face, rect: rect)
        }
        return (near, far)
    }

    /// The least squared chord from `c` to the cell with vertices `v` (unit, counter-clockwise)
    /// and (u, v) bounds `rect` on `face`: 0 when `c` is in the cell (padded by 1e-12 in u and
    /// v), else the least distance to its four edges.
    static func minChord2(_ c: UnitVector, _ v: [UnitVector], face: Int, rect: UVRect) -> Double {
        let pad = 1e-12  // (u, v) units: a thousand times the rounding of the projection
        if let uv = S2Projection.faceXYZToUV(face, c),
           uv.u >= rect.uLo - pad, uv.u <= rect.uHi + pad, uv.v >= rect.vLo - pad, uv.v <= rect.vHi + pad {
            return 0
        }
        var best = Double.infinity
        for k in 0..<4 {
            best = Swift.min(best, arcChord2(c, v[k], v[(k + 1) & 3]))
        }
        return best
    }

    /// The least squared chord from `c` to the great-circle arc from `a` to `b` (unit vectors,
    /// arc shorter than π): to the arc's interior when the foot of the perpendicular from `c`
    /// lies on it, else to the nearer end.
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
