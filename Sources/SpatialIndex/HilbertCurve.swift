import Geodesy

/// Sort keys along a Hilbert curve, for the trees' bulk loads: ``key(_:)`` over unit vectors
/// for the dynamic tree's 3-D boxes, ``key(latitude:longitude:)`` over degrees for the packed
/// tree's latitude/longitude boxes.
///
/// A unit vector is projected onto the face of the enclosing cube that it points through (the
/// axis of its largest component, with sign: 6 faces, as S2 does), the two other components
/// divided by the largest give (u, v) in [-1, 1], quantised to 16 bits each, and the key is
/// `face << 32 | hilbert(u, v)`. Nearby points on one face get nearby keys; this is what makes
/// consecutive fences in a bulk-loaded tree spatially compact. GeoCells' `CellID` orders points
/// along S2's curve too, but through its quadratic projection at 30 levels: more work per key
/// than a sort needs, and SpatialIndex depends on Geodesy alone.
@usableFromInline
enum HilbertCurve {
    /// Quantisation: 16 bits per coordinate (65,536 steps over a face, ~150 m at the Equator),
    /// as mourner/flatbush uses; finer order adds nothing once 16 fences share a node.
    @usableFromInline static let bits = 16

    /// The Hilbert-curve distance of cell (x, y) on a 2^16 x 2^16 grid: the classic iterative
    /// conversion (quadrant digit per level, then rotate/flip the lower-level coordinates),
    /// written from the description in Hamilton's "Compact Hilbert Indices" and the Wikipedia
    /// "Hilbert curve" article's xy2d.
    @inlinable
    static func index(x: UInt32, y: UInt32) -> UInt32 {
        var x = x, y = y
        var d: UInt32 = 0
        let n: UInt32 = 1 << bits
        var s: UInt32 = n >> 1
        while s > 0 {
            let rx: UInt32 = (x & s) != 0 ? 1 : 0
            let ry: UInt32 = (y & s) != 0 ? 1 : 0
            d &+= s &* s &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = n &- 1 &- x
                    y = n &- 1 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    /// The sort key of a unit vector (see the type's comment).
    @inlinable
    static func key(_ p: UnitVector) -> UInt64 {
        let ax = abs(p.x), ay = abs(p.y), az = abs(p.z)
        let face: UInt64
        let u: Double, v: Double
        if ax >= ay && ax >= az {
            face = p.x >= 0 ? 0 : 3
            u = p.y / ax; v = p.z / ax
        } else if ay >= az {
            face = p.y >= 0 ? 1 : 4
            u = p.z / ay; v = p.x / ay
        } else {
            face = p.z >= 0 ? 2 : 5
            u = p.x / az; v = p.y / az
        }
        let scale = Double((1 << bits) - 1)
        @inline(__always) func quantise(_ t: Double) -> UInt32 {
            let q = ((t + 1) * 0.5 * scale).rounded(.down)
            return q.isNaN ? 0 : UInt32(Swift.min(Swift.max(q, 0), scale))
        }
        return face << 32 | UInt64(index(x: quantise(u), y: quantise(v)))
    }

    /// The sort key of a point in degrees, for trees with latitude/longitude boxes: the Hilbert
    /// distance of (longitude, latitude) quantised to 16 bits each over [-180, 180] x [-90, 90]
    /// (steps of 0.0055 x 0.0027 degrees). Out-of-range or NaN inputs are clamped (NaN to 0).
    @inlinable
    static func key(latitude: Double, longitude: Double) -> UInt64 {
        let scale = Double((1 << bits) - 1)
        @inline(__always) func quantise(_ t: Double) -> UInt32 {
            let q = (t * scale).rounded(.down)
            return q.isNaN ? 0 : UInt32(Swift.min(Swift.max(q, 0), scale))
        }
        return UInt64(index(x: quantise((longitude + 180) / 360), y: quantise((latitude + 90) / 180)))
    }
}
