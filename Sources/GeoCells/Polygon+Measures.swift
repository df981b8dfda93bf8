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

    /// The area of the left side of a loop (steradians, in (0, 4π)): the fan of triangles from
    /// vertex 0 sums to it modulo 4π.
    static func loopArea(_ loop: ArraySlice<UnitVector>) -> Double {
        let v0 = loop[loop.startIndex]
        var sum = 0.0, compensation = 0.0
        var i = loop.startIndex + 1
        while i + 1 < loop.endIndex {
            // Kahan summation: thousands of small terms.
            let y = signedArea(v0, loop[i], loop[i + 1]) - compensation
            let t = sum + y
            compensation = (t - sum) - y
            sum = t
            i += 1
        }
        return sum > 0 ? sum : sum + 4 * Double.pi
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
