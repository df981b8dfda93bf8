#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

extension Cell {
    // MARK: Area

    /// The average area of cells at `level`, in steradians: 4π / 6 / 4^level
    /// (`AverageArea`).
    @inlinable
    public static func averageArea(level: Int) -> Double {
        CellMetric.avgArea.value(level: level)
    }

    /// The average area of cells at this level, in steradians.
    @inlinable public var averageArea: Double { Cell.averageArea(level: level) }

    /// S2's fast area estimate in steradians (`ApproxArea`): the planar area of the
    /// quadrilateral of unit vertices, corrected for curvature as if the cell were a cap;
    /// accurate to about 3% at level 2 and better below.
    public func approxArea() -> Double {
        // All cells at the first two levels have the same area.
        if level < 2 { return averageArea }
        let flatArea = 0.5 * (vertex(2) - vertex(0)).cross(vertex(3) - vertex(1)).norm
        // A cap of projected disc area πr² has area ratio 2 / (1 + sqrt(1 - r²)).
        // 0.3183...: M_1_PI, the double nearest 1/π, as S2 uses it.
        return flatArea * 2 / (1 + (1 - min(0.318309886183790671538 * flatArea, 1.0)).squareRoot())
    }

    /// The area in steradians as S2's `ExactArea`: the sum of the spherical triangles
    /// (v0, v1, v2) and (v0, v2, v3), each by l'Huilier's theorem with Kahan's stable side
    /// lengths (accurate to ~6 digits even
    /// for leaf cells of ~1e-18 sr). Multiply by R² for square meters.
    public func exactArea() -> Double {
        let v0 = vertex(0), v1 = vertex(1), v2 = vertex(2), v3 = vertex(3)
        return Cell.triangleArea(v0, v1, v2) + Cell.triangleArea(v0, v2, v3)
    }

    /// The area of the spherical triangle of unit vectors a, b, c in steradians, as S2's
    /// `S2::Area`: l'Huilier's theorem, except for skinny triangles where Girard's formula
    /// is more accurate.
    static func triangleArea(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        let sa = stableAngle(b, c), sb = stableAngle(c, a), sc = stableAngle(a, b)
        let s = 0.5 * (sa + sb + sc)
        // Below a semi-perimeter of 3e-4 Girard's absolute error (~1e-15) is never better.
        if s >= 3e-4 {
            let s2 = s * s
            let dmin = s - max(sa, max(sb, sc))
            // Skinny enough to consider Girard (S2's empirical thresholds).
            if dmin < 1e-2 * s * s2 * s2 {
                let area = girardArea(a, b, c)
                // 5e-15: Girard's maximum absolute error, added to stay conservative.
                if dmin < s * (0.1 * (area + 5e-15)) { return area }
            }
        }
        return 4
            * atan(
                max(
                    0.0,
                    tan(0.5 * s) * tan(0.5 * (s - sa)) * tan(0.5 * (s - sb))
                        * tan(0.5 * (s - sc))
                ).squareRoot())
    }

    /// Girard's formula via angles between edge-plane normals (`S2::GirardArea`).
    static func girardArea(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        let ab = stableCross(a, b), bc = stableCross(b, c), ac = stableCross(a, c)
        return max(0.0, angle(ab, ac) - angle(ab, bc) + angle(bc, ac))
    }

    /// `(a - b) x (a + b)` = 2 (a x b), better conditioned when a and b are close
    /// (the double-precision step of S2's `RobustCrossProd`).
    static func stableCross(_ a: UnitVector, _ b: UnitVector) -> UnitVector {
        (a - b).cross(a + b)
    }

    /// The angle between unit vectors in radians by Kahan's stable form
    /// `2 atan2(|a - b|, |a + b|)`, accurate also for nearly (anti)parallel vectors
    /// (`S2::StableAngle`, used by current S2 for triangle sides).
    static func stableAngle(_ a: UnitVector, _ b: UnitVector) -> Double {
        2 * atan2((a - b).norm, (a + b).norm)
    }

    /// The angle between two vectors in radians, `atan2(|a x b|, a . b)` (`Vector3::Angle`).
    static func angle(_ a: UnitVector, _ b: UnitVector) -> Double {
        atan2(a.cross(b).norm, a.dot(b))
    }
}
