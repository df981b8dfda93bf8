import Geodesy

/// An axis-aligned box in the 3-D space of unit vectors, stored as `Float` with outward rounding,
/// used as the bounding volume of fences (spherical caps) in the R-trees.
///
/// Boxes over (x, y, z) rather than latitude/longitude need no antimeridian or pole case: a cap
/// that straddles the antimeridian or covers a pole is just a box like any other.
///
/// Invariant for a box made by ``init(capCenter:chord2:)``: every vector `p` with
/// `squaredChord(p, center) <= chord2`, for `p` and `center` of unit length up to rounding,
/// lies inside (the bounds carry 1e-12 of slack, then round outward to `Float`).
@usableFromInline
struct Box3: Equatable, Sendable {
    @usableFromInline var minX: Float
    @usableFromInline var minY: Float
    @usableFromInline var minZ: Float
    @usableFromInline var maxX: Float
    @usableFromInline var maxY: Float
    @usableFromInline var maxZ: Float

    @inlinable
    init(minX: Float, minY: Float, minZ: Float, maxX: Float, maxY: Float, maxZ: Float) {
        self.minX = minX
        self.minY = minY
        self.minZ = minZ
        self.maxX = maxX
        self.maxY = maxY
        self.maxZ = maxZ
    }

    /// The box that contains nothing (the identity of ``union(_:)``).
    @usableFromInline
    static let empty = Box3(
        minX: .infinity, minY: .infinity, minZ: .infinity,
        maxX: -.infinity, maxY: -.infinity, maxZ: -.infinity)

    /// Absolute slack added to every bound before rounding to `Float`: 1e-12 (about 6 µm on
    /// the Earth) dwarfs the ~1e-16 rounding of unit vectors and of the bound computation.
    @usableFromInline static let slack = 1e-12

    /// The bounding box of the spherical cap with unit-vector `center` and squared chord radius
    /// `chord2` (angular radius a, with cos a = 1 - chord2/2 and sin a = chord · sqrt(1 - chord2/4)).
    ///
    /// Derivation: for axis k, let θ be the angle between the axis e_k and the center, so
    /// cos θ = c_k and sin θ = sqrt(c_i^2 + c_j^2) (the other two components; accurate even
    /// where acos is not). A cap point p has p_k = cos(angle(p, e_k)), and that angle ranges over
    /// [max(0, θ - a), min(π, θ + a)]. Hence
    /// `max p_k = 1` if θ <= a (c_k >= cos a), else `cos(θ - a) = c_k cos a + sin θ sin a`;
    /// `min p_k = -1` if θ + a >= π (c_k <= -cos a), else `cos(θ + a) = c_k cos a - sin θ sin a`.
    @inlinable
    init(capCenter c: UnitVector, chord2: Double) {
        let c2 = Swift.min(Swift.max(chord2, 0), 4)
        let cosA = 1 - c2 * 0.5
        let sinA = Swift.max(0, c2 - c2 * c2 * 0.25).squareRoot()
        @inline(__always)
        func range(_ ck: Double, _ ci: Double, _ cj: Double) -> (Float, Float) {
            let sinTheta = (ci * ci + cj * cj).squareRoot()
            let hi = ck >= cosA ? 1 : ck * cosA + sinTheta * sinA
            let lo = ck <= -cosA ? -1 : ck * cosA - sinTheta * sinA
            return (Float(lo - Box3.slack).nextDown, Float(hi + Box3.slack).nextUp)
        }
        let (x0, x1) = range(c.x, c.y, c.z)
        let (y0, y1) = range(c.y, c.z, c.x)
        let (z0, z1) = range(c.z, c.x, c.y)
        self.init(minX: x0, minY: y0, minZ: z0, maxX: x1, maxY: y1, maxZ: z1)
    }

    /// The cube `p ± chord(d)` that contains every unit vector within squared chord `chord2` of
    /// `p` (|q_k - p_k| <= |q - p|), rounded outward; used to prune within-distance queries.
    @inlinable
    init(around p: UnitVector, chord2: Double) {
        let h = Swift.max(chord2, 0).squareRoot() + Box3.slack
        self.init(
            minX: Float(p.x - h).nextDown, minY: Float(p.y - h).nextDown,
            minZ: Float(p.z - h).nextDown, maxX: Float(p.x + h).nextUp,
            maxY: Float(p.y + h).nextUp, maxZ: Float(p.z + h).nextUp)
    }

    @inlinable
    func union(_ o: Box3) -> Box3 {
        Box3(
            minX: Swift.min(minX, o.minX), minY: Swift.min(minY, o.minY),
            minZ: Swift.min(minZ, o.minZ), maxX: Swift.max(maxX, o.maxX),
            maxY: Swift.max(maxY, o.maxY), maxZ: Swift.max(maxZ, o.maxZ))
    }

    @inlinable
    func contains(_ o: Box3) -> Bool {
        minX <= o.minX && minY <= o.minY && minZ <= o.minZ
            && maxX >= o.maxX && maxY >= o.maxY && maxZ >= o.maxZ
    }

    @inlinable
    func contains(x: Float, y: Float, z: Float) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY && z >= minZ && z <= maxZ
    }

    @inlinable
    func intersects(_ o: Box3) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
            && minZ <= o.maxZ && o.minZ <= maxZ
    }

    /// Volume as Double (0 for a degenerate box); used by the dynamic tree's heuristics.
    @inlinable
    var volume: Double {
        Double(maxX - minX) * Double(maxY - minY) * Double(maxZ - minZ)
    }

    /// Sum of the three edge lengths (R*'s "margin", halved).
    @inlinable
    var margin: Double {
        Double(maxX - minX) + Double(maxY - minY) + Double(maxZ - minZ)
    }

    /// Euclidean distance from `p` to the box (0 inside), in unit-sphere units: a lower bound on
    /// the chord from `p` to anything inside.
    @inlinable
    func distance(to p: UnitVector) -> Double {
        let dx = Swift.max(Double(minX) - p.x, 0, p.x - Double(maxX))
        let dy = Swift.max(Double(minY) - p.y, 0, p.y - Double(maxY))
        let dz = Swift.max(Double(minZ) - p.z, 0, p.z - Double(maxZ))
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}

/// Writes and reads `Box3` values as pairs of `SIMD4<Float>`: (min x, y, z, -inf) and
/// (max x, y, z, +inf), so that a point test is two vector compares and no branch.
extension Array where Element == SIMD4<Float> {
    @inlinable
    mutating func appendBox(_ b: Box3) {
        append(SIMD4(b.minX, b.minY, b.minZ, -.infinity))
        append(SIMD4(b.maxX, b.maxY, b.maxZ, .infinity))
    }
}

extension UnsafeBufferPointer where Element == SIMD4<Float> {
    @inlinable @inline(__always)
    func box(at i: Int) -> Box3 {
        let lo = self[i &* 2], hi = self[i &* 2 &+ 1]
        return Box3(minX: lo.x, minY: lo.y, minZ: lo.z, maxX: hi.x, maxY: hi.y, maxZ: hi.z)
    }

    /// True when box `i` contains `p` (x, y, z, 0): all four lanes of `lo <= p <= hi`.
    @inlinable @inline(__always)
    func boxContains(_ i: Int, _ p: SIMD4<Float>) -> Bool {
        all((p .>= self[i &* 2]) .& (p .<= self[i &* 2 &+ 1]))
    }

    /// 1 when box `i` contains `p`, else 0, computed with integer ANDs of the compare lanes
    /// (each 0 or -1) so that LLVM keeps it branch-free (from `Bool`, it re-creates a branch).
    @inlinable @inline(__always)
    func boxContainsBit(_ i: Int, _ p: SIMD4<Float>) -> Int {
        let mask = (p .>= self[i &* 2]) .& (p .<= self[i &* 2 &+ 1])
        let lanes = unsafeBitCast(mask, to: SIMD4<Int32>.self)
        return Int(truncatingIfNeeded: lanes.x & lanes.y & lanes.z & lanes.w & 1)
    }
}
