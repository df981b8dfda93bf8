import Geodesy

/// Clipping of geodesic edges to cube faces and of (u, v) segments to rectangles, ported from
/// Google S2's s2edge_clipping.cc (version 0.10) with the same floating-point expressions, so
/// that the polygon index (``PolygonIndex``) assigns edges to exactly S2's cells.
public enum EdgeClipping {
    /// S2's `kFaceClipErrorRadians`: angle between a clipped vertex and the exact edge.
    public static let faceClipErrorRadians = 3 * Double.ulpOfOne
    /// S2's `kFaceClipErrorUVCoord`: error of one clipped u or v coordinate.
    public static let faceClipErrorUVCoord = 9 * (0.5).squareRoot() * Double.ulpOfOne
    /// S2's `kIntersectsRectErrorUVDist`: error of ``intersectsRect(_:_:_:)``.
    public static let intersectsRectErrorUVDist = 3 * (2.0).squareRoot() * Double.ulpOfOne
    /// S2's `kEdgeClipErrorUVCoord`: error of one coordinate clipped to a rectangle.
    public static let edgeClipErrorUVCoord = 2.25 * Double.ulpOfOne

    /// S2's `InterpolateDouble`: the value at `x` of the linear map taking `a` to `a1` and `b`
    /// to `b1`, interpolated from the nearer end. Requires `a != b`.
    @inlinable
    public static func interpolate(_ x: Double, _ a: Double, _ b: Double, _ a1: Double, _ b1: Double) -> Double {
        if abs(a - x) <= abs(b - x) {
            return a1 + (b1 - a1) * (x - a) / (b - a)
        } else {
            return b1 + (a1 - b1) * (x - b) / (a - b)
        }
    }

    @inlinable
    static func intersectsFace(_ n: UnitVector) -> Bool {
        let u = abs(n.x), v = abs(n.y), w = abs(n.z)
        return v >= w - u && u >= w - v
    }

    static func intersectsOppositeEdges(_ n: UnitVector) -> Bool {
        let u = abs(n.x), v = abs(n.y), w = abs(n.z)
        if abs(u - v) != w { return abs(u - v) >= w }
        return u >= v ? (u - w >= v) : (v - w >= u)
    }

    static func exitAxis(_ n: UnitVector) -> Int {
        if intersectsOppositeEdges(n) {
            return abs(n.x) >= abs(n.y) ? 1 : 0
        }
        let parity = (n.x.sign == .minus ? 1 : 0) ^ (n.y.sign == .minus ? 1 : 0) ^ (n.z.sign == .minus ? 1 : 0)
        return parity == 0 ? 1 : 0
    }

    static func exitPoint(_ n: UnitVector, _ axis: Int) -> UVPoint {
        if axis == 0 {
            let u: Double = n.y > 0 ? 1 : -1
            return UVPoint(u: u, v: (-u * n.x - n.z) / n.y)
        } else {
            let v: Double = n.x < 0 ? 1 : -1
            return UVPoint(u: (-v * n.y - n.z) / n.x, v: v)
        }
    }

    /// S2's `ClipDestination`; returns the score (0: B inside the face, 1-2: B' outside the
    /// edge's interior, 3: B not projectable) and sets `uv`.
    static func clipDestination(
        _ a: UnitVector, _ b: UnitVector, _ scaledN: UnitVector,
        _ aTangent: UnitVector, _ bTangent: UnitVector, _ scaleUV: Double,
        _ uv: inout UVPoint
    ) -> Int {
        let maxSafe = 1 - faceClipErrorUVCoord
        if b.z > 0 {
            uv = UVPoint(u: b.x / b.z, v: b.y / b.z)
            if max(abs(uv.u), abs(uv.v)) <= maxSafe { return 0 }
        }
        let e = exitPoint(scaledN, exitAxis(scaledN))
        uv = UVPoint(u: scaleUV * e.u, v: scaleUV * e.v)
        let p = UnitVector(x: uv.u, y: uv.v, z: 1)
        var score = 0
        if (p - a).dot(aTangent) < 0 {
            score = 2
        } else if (p - b).dot(bTangent) < 0 {
            score = 1
        }
        if score > 0 {
            if b.z <= 0 {
                score = 3
            } else {
                uv = UVPoint(u: b.x / b.z, v: b.y / b.z)
            }
        }
        return score
    }

    /// S2's `ClipToPaddedFace`: the part of edge AB inside `face` expanded by `padding` in
    /// (u, v), as two (u, v) points, or nil when the edge misses the padded face.
    public static func clipToPaddedFace(_ aXYZ: UnitVector, _ bXYZ: UnitVector, face: Int, padding: Double)
        -> (a: UVPoint, b: UVPoint)?
    {
        if S2Projection.face(of: aXYZ) == face && S2Projection.face(of: bXYZ) == face {
            return (S2Projection.validFaceXYZToUV(face, aXYZ), S2Projection.validFaceXYZToUV(face, bXYZ))
        }
        var n = S2Projection.faceXYZToUVW(face, Predicates.robustCross(aXYZ, bXYZ))
        let a = S2Projection.faceXYZToUVW(face, aXYZ)
        let b = S2Projection.faceXYZToUVW(face, bXYZ)
        let scaleUV = 1 + padding
        let scaledN = UnitVector(x: scaleUV * n.x, y: scaleUV * n.y, z: n.z)
        if !intersectsFace(scaledN) { return nil }
        n = n.normalized
        let aTangent = n.cross(a)
        let bTangent = b.cross(n)
        var aUV = UVPoint(u: 0, v: 0), bUV = UVPoint(u: 0, v: 0)
        let aScore = clipDestination(b, a, -scaledN, bTangent, aTangent, scaleUV, &aUV)
        let bScore = clipDestination(a, b, scaledN, aTangent, bTangent, scaleUV, &bUV)
        return aScore + bScore < 3 ? (aUV, bUV) : nil
    }

    /// S2's `IntersectsRect`: whether segment `a b` (in u, v) meets the closed rectangle, to
    /// within ``intersectsRectErrorUVDist``.
    @inlinable
    public static func intersectsRect(_ a: UVPoint, _ b: UVPoint, _ rect: UVRect) -> Bool {
        // The segment's bounding box must meet the rectangle.
        if max(a.u, b.u) < rect.uLo || min(a.u, b.u) > rect.uHi
            || max(a.v, b.v) < rect.vLo || min(a.v, b.v) > rect.vHi
        {
            return false
        }
        // n = (b - a).Ortho() = (-(b.v - a.v), b.u - a.u).
        let nu = -(b.v - a.v), nv = b.u - a.u
        let i = nu >= 0, j = nv >= 0
        let maxU = i ? rect.uHi : rect.uLo, maxV = j ? rect.vHi : rect.vLo
        let minU = i ? rect.uLo : rect.uHi, minV = j ? rect.vLo : rect.vHi
        let hi = nu * (maxU - a.u) + nv * (maxV - a.v)
        let lo = nu * (minU - a.u) + nv * (minV - a.v)
        return hi >= 0 && lo <= 0
    }
}
