#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// Area and centroid.
extension Polygon {
    /// The signed area (steradians) of the spherical triangle `a, b, c`: positive when
    /// counter-clockwise. `2 · atan2(a · (b × c), 1 + a·b + b·c + c·a)` (Van Oosterom and
    /// Strackee), with the triple product taken over `b - a` and `c - a` so that small
    /// triangles keep their relative accuracy.
    @inlinable
    public static func signedArea(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        2 * atan2(a.dot((b - a).cross(c - a)), 1 + a.dot(b) + b.dot(c) + c.dot(a))
    }

    /// The signed area of the spherical triangle `a, b, c` by Girard's formula over the edges'
    /// normals (S2's `GirardArea`, signed by ``Predicates/sign(_:_:_:)``): for triangles with a
    /// nearly antipodal pair of vertices, where both terms of ``signedArea(_:_:_:)`` are tiny
    /// and lose their relative accuracy (a loop edge 1e-11 radians short of a half circle gave
    /// an area 1.8e-6 sr off), while the normals from ``Predicates/robustCross(_:_:)`` and the
    /// angles between them keep an absolute accuracy of a few ε.
    static func girardSignedArea(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        let ab = Predicates.robustCross(a, b), bc = Predicates.robustCross(b, c), ac = Predicates.robustCross(a, c)
        func angle(_ x: UnitVector, _ y: UnitVector) -> Double { atan2(x.cross(y).norm, x.dot(y)) }
        let area = max(0, angle(ab, ac) - angle(ab, bc) + angle(bc, ac))
        return Predicates.sign(a, b, c) > 0 ? area : -area
    }

    /// The area of the left side of a loop (steradians, in [0, 4π)), as S2's `S2::GetArea`
    /// computes it: a fan of signed triangles (``signedArea(_:_:_:)``, or Girard's formula,
    /// ``girardSignedArea(_:_:_:)``, for a triangle with two vertices within 1e-5 radians of
    /// antipodal: only a loop edge can be, the fan's own edges never are) summed with Kahan
    /// compensation, whose origin moves, as in S2's `GetSurfaceIntegral`, before any fan edge
    /// would come within 1e-5 radians of a half circle (a fan from vertex 0 of a great circle,
    /// such as the equator, is degenerate); the sum taken modulo 4π; and, when that is within
    /// the curvature's error bound of 0, the sign of the curvature (``curvature(_:)``) decides
    /// between a tiny area and nearly 4π.
    /// - Complexity: O(n).
    static func loopArea(_ loop: ArraySlice<UnitVector>) -> Double {
        let n = loop.count
        if n < 3 { return 0 }
        let v = { (i: Int) in loop[loop.startIndex + i] }
        let maxLength = Double.pi - 1e-5
        var sum = 0.0, compensation = 0.0
        // cos(π - 1e-5) + 1 = 5e-11: a pair of vertices nearer to antipodal than the fan allows.
        let antipodal = -1 + 5e-11
        func add(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) {
            let nearlyAntipodal = a.dot(b) < antipodal || b.dot(c) < antipodal || c.dot(a) < antipodal
            let area = nearlyAntipodal ? girardSignedArea(a, b, c) : signedArea(a, b, c)
            // Kahan summation: thousands of small terms.
            let y = area - compensation
            let t = sum + y
            compensation = (t - sum) - y
            sum = t
        }
        var origin = v(0)
        for i in 1..<(n - 1) {
            if angle(v(i + 1), origin) > maxLength {
                let oldOrigin = origin
                if origin == v(0) {
                    origin = Predicates.robustCross(v(0), v(i)).normalized
                } else if angle(v(i), v(0)) < maxLength {
                    origin = v(0)
                } else {
                    origin = v(0).cross(oldOrigin).normalized
                    add(v(0), oldOrigin, origin)
                }
                add(oldOrigin, v(i), origin)
            }
            add(origin, v(i), v(i + 1))
        }
        if origin != v(0) { add(origin, v(n - 1), v(0)) }
        var area = remainder(sum, 4 * Double.pi)
        if abs(area) <= 9.73 * Double.ulpOfOne * Double(n) {
            let c = curvature(Array(loop))
            if area <= 0 && c > 0 { area = Double.leastNormalMagnitude }
            if area >= 0 && c < 0 { area = -Double.leastNormalMagnitude }
        }
        return area < 0 ? area + 4 * Double.pi : area
    }

    /// The area of loop `k` (steradians; at most 2π after normalization).
    public func loopArea(_ k: Int) -> Double {
        Polygon.loopArea(vertices[loopStarts[k]..<loopStarts[k + 1]])
    }

    /// The area in steradians: shells minus holes (S2's `S2Polygon::GetArea`).
    /// Multiply by `Earth.radius²` for square meters.
    public var area: Double {
        var total = 0.0
        for k in 0..<loopCount { total += isHole(k) ? -loopArea(k) : loopArea(k) }
        return max(0, total)
    }

    /// The area in square meters on the spherical Earth.
    public var areaSquareMeters: Double { area * Earth.meanRadius * Earth.meanRadius }

    /// The true centroid of the polygon's surface (holes subtracted), as a unit vector; nil
    /// for a region whose centroid integral vanishes (e.g. symmetric about the center).
    /// Uses ∫ x dA = ½ Σ θₑ n̂ₑ over the counter-clockwise boundary edges (θ the edge angle,
    /// n̂ its unit normal), exact for geodesic edges.
    public var centroid: UnitVector? {
        var sum = UnitVector(x: 0, y: 0, z: 0)
        for k in 0..<loopCount {
            var loopSum = UnitVector(x: 0, y: 0, z: 0)
            for e in loopStarts[k]..<loopStarts[k + 1] {
                let (a, b) = edge(e)
                let n = a.cross(b)
                let len = n.norm
                if len == 0 { continue }
                let theta = atan2(len, a.dot(b))
                loopSum = loopSum + n * (theta / len)
            }
            sum = isHole(k) ? sum - loopSum : sum + loopSum
        }
        if sum.norm2 == 0 { return nil }
        return sum.normalized
    }
}
