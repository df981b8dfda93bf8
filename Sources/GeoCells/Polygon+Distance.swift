#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// Distance from a point to the polygon's boundary.
extension Polygon {
    /// The angle (radians) from `p` to the nearest point of geodesic edge `a b`.
    @inlinable
    public static func distanceToEdge(_ p: UnitVector, _ a: UnitVector, _ b: UnitVector) -> Double {
        let n = Predicates.robustCross(a, b)
        // Outward tangents at the endpoints: p projects into the edge's interior when it is
        // behind both.
        if p.dot(a.cross(n)) <= 0 && p.dot(n.cross(b)) <= 0 {
            let nn = n.norm
            if nn > 0 { return asin(min(1, abs(p.dot(n)) / nn)) }
        }
        return min(angle(p, a), angle(p, b))
    }

    @inlinable
    static func angle(_ p: UnitVector, _ q: UnitVector) -> Double { atan2(p.cross(q).norm, p.dot(q)) }

    /// The angle (radians) from `p` to the nearest boundary point (any loop).
    /// - Complexity: O(n).
    public func boundaryDistance(to p: UnitVector) -> Double {
        var best = Double.infinity
        for e in 0..<edgeCount {
            let (a, b) = edge(e)
            best = min(best, Polygon.distanceToEdge(p, a, b))
        }
        return best
    }

    /// The signed distance to the boundary in meters on the spherical Earth: negative inside,
    /// positive outside (the quantity a detector compares with its accuracy margin).
    public func signedBoundaryDistanceMeters(to p: UnitVector) -> Double {
        let d = Earth.meters(fromRadians: boundaryDistance(to: p))
        return contains(p) ? -d : d
    }
}
