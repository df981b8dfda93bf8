import Geodesy

/// The coordinate systems of S2's cube-face decomposition of the sphere, and the conversions
/// between them, bit-identical to Google S2 (`s2coords.h`, quadratic projection):
///
/// * (x, y, z): a point in 3-space (`UnitVector`), not necessarily unit length.
/// * (face, u, v): cube face 0...5 and coordinates in [-1, 1] on that face's plane; the face
///   is the largest absolute component (+x, +y, +z, -x, -y, -z for faces 0...5).
/// * (face, s, t): u and v remapped to [0, 1] by S2's quadratic projection, which makes
///   cell areas vary by at most a factor of about 2.1.
/// * (face, i, j): s and t as integer leaf-cell coordinates in [0, 2^30).
/// * (face, si, ti): s and t as integers in [0, 2^31] that also address cell centers and
///   edges (`s = si / 2^31`).
public enum S2Projection {
    /// Leaf cells per face edge: 2^30 (`kLimitIJ`).
    public static let limitIJ = 1 << 30
    /// `si`/`ti` steps per face edge: 2^31 (`kMaxSiTi`).
    public static let maxSiTi: UInt32 = 1 << 31

    // MARK: (s, t) <-> (u, v)

    /// S2's quadratic s -> u projection: [0, 1] -> [-1, 1] (`S2::STtoUV`).
    @inlinable
    public static func stToUV(_ s: Double) -> Double {
        if s >= 0.5 { return (1 / 3.0) * (4 * s * s - 1) }
        return (1 / 3.0) * (1 - 4 * (1 - s) * (1 - s))
    }

    /// The inverse of ``stToUV(_:)``: [-1, 1] -> [0, 1] (`S2::UVtoST`).
    @inlinable @inline(__always)
    public static func uvToST(_ u: Double) -> Double {
        // S2 computes 0.5 sqrt(1 + 3u) for u >= 0 and 1 - 0.5 sqrt(1 - 3u) otherwise; for
        // u < 0, 1 - 3u is bit-identical to 1 + 3|u|, so one sqrt and a select give the same
        // result without an unpredictable branch.
        let r = 0.5 * (1 + 3 * abs(u)).squareRoot()
        return u >= 0 ? r : 1 - r
    }

    // MARK: (s, t) <-> (i, j), (si, ti)

    /// The leaf coordinate of `s`, clamped to [0, 2^30 - 1] (`S2::STtoIJ`).
    ///
    /// S2 rounds `2^30 * s - 0.5` with `FastIntRound`, an SSE2 `cvtsd2si` in the default
    /// round-half-to-even mode; adding and removing 1.5 * 2^52 rounds the same way for
    /// every value in range (|x| < 2^51) without a libm call.
    @inlinable @inline(__always)
    public static func stToIJ(_ s: Double) -> Int {
        let x = Double(limitIJ) * s - 0.5
        // 1.5 * 2^52: values of this magnitude have no fraction bits, so the sum rounds
        // x half-to-even; NaN and huge values are caught by the clamps below.
        let rounded = (x + 0x1.8p52) - 0x1.8p52
        let low = rounded >= 0 ? rounded : 0  // also maps NaN to 0
        let clamped = low < Double(limitIJ - 1) ? low : Double(limitIJ - 1)
        return Int(clamped)
    }

    /// The s coordinate of the low edge of leaf column `i` (`S2::IJtoSTMin`), i in [0, 2^30].
    @inlinable
    public static func ijToSTMin(_ i: Int) -> Double {
        (1.0 / Double(limitIJ)) * Double(i)
    }

    /// `si / 2^31` (`S2::SiTitoST`), si in [0, 2^31].
    @inlinable
    public static func siTiToST(_ si: UInt32) -> Double {
        (1.0 / Double(maxSiTi)) * Double(si)
    }

    /// `s * 2^31` rounded to the nearest integer, half away from zero (`S2::STtoSiTi`).
    @inlinable
    public static func stToSiTi(_ s: Double) -> UInt32 {
        UInt32((s * Double(maxSiTi)).rounded(.toNearestOrAwayFromZero))
    }

    // MARK: (face, u, v) <-> (x, y, z)

    /// The (not unit-length) point of face coordinates (`S2::FaceUVtoXYZ`).
    @inlinable
    public static func faceUVToXYZ(_ face: Int, _ u: Double, _ v: Double) -> UnitVector {
        switch face {
        case 0: return UnitVector(x: 1, y: u, z: v)
        case 1: return UnitVector(x: -u, y: 1, z: v)
        case 2: return UnitVector(x: -u, y: -v, z: 1)
        case 3: return UnitVector(x: -1, y: -v, z: -u)
        case 4: return UnitVector(x: v, y: -1, z: -u)
        default: return UnitVector(x: v, y: u, z: -1)
        }
    }

    /// ``faceUVToXYZ(_:_:_:)`` of a ``UVPoint``.
    @inlinable
    public static func faceUVToXYZ(_ face: Int, _ uv: UVPoint) -> UnitVector {
        faceUVToXYZ(face, uv.u, uv.v)
    }

    /// (u, v) of `p` on `face`, assuming `p` lies in that face's hemisphere
    /// (`S2::ValidFaceXYZtoUV`).
    @inlinable
    public static func validFaceXYZToUV(_ face: Int, _ p: UnitVector) -> UVPoint {
        switch face {
        case 0: return UVPoint(u: p.y / p.x, v: p.z / p.x)
        case 1: return UVPoint(u: -p.x / p.y, v: p.z / p.y)
        case 2: return UVPoint(u: -p.x / p.z, v: -p.y / p.z)
        case 3: return UVPoint(u: p.z / p.x, v: p.y / p.x)
        case 4: return UVPoint(u: p.z / p.y, v: -p.x / p.y)
        default: return UVPoint(u: -p.y / p.z, v: -p.x / p.z)
        }
    }

    /// The cube face of `p`: the axis of its largest absolute component, ties resolved as
    /// `S2Point::LargestAbsComponent` (x over nothing, then z over y), plus 3 when that
    /// component is negative (`S2::GetFace`).
    @inlinable
    public static func face(of p: UnitVector) -> Int {
        xyzToFaceUV(p).face
    }

    /// The face of `p` and its (u, v) there (`S2::XYZtoFaceUV`).
    ///
    /// Each coordinate is one correctly rounded division of the same operands as
    /// ``validFaceXYZToUV(_:_:)`` (negating a numerator commutes with rounding), so the
    /// results are bit-identical to S2's; the operands are chosen with selects rather than
    /// a six-way switch.
    @inlinable @inline(__always)
    public static func xyzToFaceUV(_ p: UnitVector) -> (face: Int, uv: UVPoint) {
        let ax = abs(p.x), ay = abs(p.y), az = abs(p.z)
        // LargestAbsComponent: (|x| > |y|) ? ((|x| > |z|) ? 0 : 2) : ((|y| > |z|) ? 1 : 2).
        let xOverY = ax > ay
        let larger = xOverY ? ax : ay
        let overZ = larger > az
        let axis = overZ ? (xOverY ? 0 : 1) : 2
        let d = overZ ? (xOverY ? p.x : p.y) : p.z
        let negative = d < 0
        // Numerators of (u, v) on the positive face of each axis: (y, z), (-x, z), (-x, -y);
        // the negative face swaps them (faces 3, 4, 5: (z, y), (z, -x), (-y, -x)).
        let n1 = axis == 0 ? p.y : -p.x
        let n2 = axis == 2 ? -p.y : p.z
        let u = (negative ? n2 : n1) / d
        let v = (negative ? n1 : n2) / d
        return (negative ? axis + 3 : axis, UVPoint(u: u, v: v))
    }

    /// (u, v) of `p` on the given face, or nil when `p` is not in that face's open hemisphere
    /// (`S2::FaceXYZtoUV`).
    @inlinable
    public static func faceXYZToUV(_ face: Int, _ p: UnitVector) -> UVPoint? {
        switch face {
        case 0: if p.x <= 0 { return nil }
        case 1: if p.y <= 0 { return nil }
        case 2: if p.z <= 0 { return nil }
        case 3: if p.x >= 0 { return nil }
        case 4: if p.y >= 0 { return nil }
        default: if p.z >= 0 { return nil }
        }
        return validFaceXYZToUV(face, p)
    }

    /// The (not unit-length) point of face (si, ti) coordinates (`S2::FaceSiTitoXYZ`).
    @inlinable
    public static func faceSiTiToXYZ(_ face: Int, _ si: UInt32, _ ti: UInt32) -> UnitVector {
        faceUVToXYZ(face, stToUV(siTiToST(si)), stToUV(siTiToST(ti)))
    }

    /// `p` in the (u, v, w) frame of `face` (`S2::FaceXYZtoUVW`): the dot products with the
    /// face's u-axis, v-axis and normal.
    @inlinable
    public static func faceXYZToUVW(_ face: Int, _ p: UnitVector) -> UnitVector {
        switch face {
        case 0: return UnitVector(x: p.y, y: p.z, z: p.x)
        case 1: return UnitVector(x: -p.x, y: p.z, z: p.y)
        case 2: return UnitVector(x: -p.x, y: -p.y, z: p.z)
        case 3: return UnitVector(x: -p.z, y: -p.y, z: -p.x)
        case 4: return UnitVector(x: -p.z, y: p.x, z: -p.y)
        default: return UnitVector(x: p.y, y: p.x, z: -p.z)
        }
    }

    // MARK: Face frames and edge normals

    /// The right-handed normal (not unit length) of the edge `u = const` on `face`, oriented
    /// along the positive v-axis (`S2::GetUNorm`).
    @inlinable
    public static func uNorm(_ face: Int, _ u: Double) -> UnitVector {
        switch face {
        case 0: return UnitVector(x: u, y: -1, z: 0)
        case 1: return UnitVector(x: 1, y: u, z: 0)
        case 2: return UnitVector(x: 1, y: 0, z: u)
        case 3: return UnitVector(x: -u, y: 0, z: 1)
        case 4: return UnitVector(x: 0, y: -u, z: 1)
        default: return UnitVector(x: 0, y: -1, z: -u)
        }
    }

    /// The right-handed normal (not unit length) of the edge `v = const` on `face`, oriented
    /// along the positive u-axis (`S2::GetVNorm`).
    @inlinable
    public static func vNorm(_ face: Int, _ v: Double) -> UnitVector {
        switch face {
        case 0: return UnitVector(x: -v, y: 0, z: 1)
        case 1: return UnitVector(x: 0, y: -v, z: 1)
        case 2: return UnitVector(x: 0, y: -1, z: -v)
        case 3: return UnitVector(x: v, y: -1, z: 0)
        case 4: return UnitVector(x: 1, y: v, z: 0)
        default: return UnitVector(x: 1, y: 0, z: v)
        }
    }

    /// Axis `axis` (0 = u, 1 = v, 2 = w the face normal) of `face`, a unit vector
    /// (`S2::GetUVWAxis`).
    @inlinable
    public static func uvwAxis(_ face: Int, _ axis: Int) -> UnitVector {
        // The columns of S2's kFaceUVWAxes: (u, v, w) of each face, read off faceUVToXYZ.
        switch (face, axis) {
        case (0, 0), (5, 0): return UnitVector(x: 0, y: 1, z: 0)
        case (0, 1), (1, 1): return UnitVector(x: 0, y: 0, z: 1)
        case (0, _): return UnitVector(x: 1, y: 0, z: 0)
        case (1, 0), (2, 0): return UnitVector(x: -1, y: 0, z: 0)
        case (1, _): return UnitVector(x: 0, y: 1, z: 0)
        case (2, 1), (3, 1): return UnitVector(x: 0, y: -1, z: 0)
        case (2, _): return UnitVector(x: 0, y: 0, z: 1)
        case (3, 0), (4, 0): return UnitVector(x: 0, y: 0, z: -1)
        case (3, _): return UnitVector(x: -1, y: 0, z: 0)
        case (4, 1), (5, 1): return UnitVector(x: 1, y: 0, z: 0)
        case (4, _): return UnitVector(x: 0, y: -1, z: 0)
        default: return UnitVector(x: 0, y: 0, z: -1)
        }
    }

    /// The u-axis of `face` (`S2::GetUAxis`).
    @inlinable public static func uAxis(_ face: Int) -> UnitVector { uvwAxis(face, 0) }
    /// The v-axis of `face` (`S2::GetVAxis`).
    @inlinable public static func vAxis(_ face: Int) -> UnitVector { uvwAxis(face, 1) }
    /// The unit outward normal of `face`, its center point (`S2::GetNorm`).
    @inlinable public static func faceNormal(_ face: Int) -> UnitVector { uvwAxis(face, 2) }

    /// The face adjacent to `face` in the negative (`direction` 0) or positive (1) direction
    /// of `axis` (0 = u, 1 = v, 2 = w) (`S2::GetUVWFace`).
    @inlinable
    public static func uvwFace(_ face: Int, _ axis: Int, _ direction: Int) -> Int {
        let a = uvwAxis(face, axis)
        let p = direction == 0 ? -a : a
        return self.face(of: p)
    }
}
