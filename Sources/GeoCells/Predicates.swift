import Geodesy

/// Robust orientation predicates on the unit sphere, ported from Google S2's `s2predicates`
/// (s2predicates.cc, version 0.10).
///
/// ``sign(_:_:_:)`` is the orientation of three points: +1 when `a, b, c` turn counter-clockwise
/// (`(a × b) · c > 0`), -1 when clockwise, 0 only when two of the points are identical. Exactly
/// collinear triples are resolved by S2's symbolic perturbation ("Simulation of Simplicity"),
/// so every answer is the sign of an exact determinant of slightly perturbed points and all
/// answers are mutually consistent. Evaluation is S2's cascade: a double determinant with a
/// proven error bound (``triageSign(_:_:_:_:)``), a more stable double determinant, then exact
/// arithmetic (`ExactExpansion` in place of S2's `ExactFloat`).
public enum Predicates {
    /// S2's `kMaxDetError`: the largest error of `(a × b) · c` in doubles for unit vectors.
    @usableFromInline static let maxDeterminantError = 1.8274 * Double.ulpOfOne

    /// S2's `S2::Origin()`: the fixed reference point of brute-force containment, near (but
    /// not at) the north pole and on no low-level cell boundary.
    public static let origin = UnitVector(x: -0.0099994664350250197, y: 0.0025924542609324121, z: 0.99994664350250195)

    /// The orientation of `a, b, c` (+1 counter-clockwise, -1 clockwise, 0 only if two points
    /// are equal). Requires unit-length inputs.
    @inlinable
    public static func sign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Int {
        sign(a, b, c, aCrossB: a.cross(b))
    }

    /// ``sign(_:_:_:)`` with `a × b` supplied by the caller (exactly `a.cross(b)`).
    @inlinable
    public static func sign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, aCrossB: UnitVector) -> Int {
        let s = triageSign(a, b, c, aCrossB)
        return s != 0 ? s : expensiveSign(a, b, c)
    }

    /// +1 or -1 when the double determinant is certainly of that sign, else 0 (S2's
    /// `TriageSign`).
    @inlinable @inline(__always)
    public static func triageSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, _ aCrossB: UnitVector) -> Int {
        let det = aCrossB.dot(c)
        if det > maxDeterminantError { return 1 }
        if det < -maxDeterminantError { return -1 }
        return 0
    }

    /// The sign resolved by stable, then exact, arithmetic and symbolic perturbation (S2's
    /// `ExpensiveSign`): never 0 unless two points are equal; with `perturb: false` the exact
    /// unperturbed sign, which is 0 for exactly collinear points.
    public static func expensiveSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, perturb: Bool = true) -> Int {
        if a == b || b == c || c == a { return 0 }
        let s = stableSign(a, b, c)
        if s != 0 { return s }
        return exactSign(a, b, c, perturb: perturb)
    }

    /// S2's `StableSign`: the determinant computed about the longest edge, with its error bound.
    static func stableSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Int {
        let ab = b - a, bc = c - b, ca = a - c
        let ab2 = ab.norm2, bc2 = bc.norm2, ca2 = ca.norm2
        let multiplier = 3.2321 * Double.ulpOfOne
        let det: Double, maxError: Double
        if ab2 >= bc2 && ab2 >= ca2 {
            det = -(ca.cross(bc).dot(c))
            maxError = multiplier * (ca2 * bc2).squareRoot()
        } else if bc2 >= ca2 {
            det = -(ab.cross(ca).dot(a))
            maxError = multiplier * (ab2 * ca2).squareRoot()
        } else {
            det = -(bc.cross(ab).dot(b))
            maxError = multiplier * (bc2 * ab2).squareRoot()
        }
        return (maxError > 0 && abs(det) <= maxError) ? 0 : (det > 0 ? 1 : -1)
    }

    /// Lexicographic order of points (S2's `Vector3::operator<`).
    @usableFromInline
    static func lexLess(_ p: UnitVector, _ q: UnitVector) -> Bool {
        if p.x != q.x { return p.x < q.x }
        if p.y != q.y { return p.y < q.y }
        return p.z < q.z
    }

    /// S2's `ExactSign`: the exact determinant of the lexicographically sorted points, then
    /// `SymbolicallyPerturbedSign` when it is zero. Requires distinct points.
    static func exactSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, perturb: Bool) -> Int {
        var pa = a, pb = b, pc = c
        var permSign = 1
        if lexLess(pb, pa) { swap(&pa, &pb); permSign = -permSign }
        if lexLess(pc, pb) { swap(&pb, &pc); permSign = -permSign }
        if lexLess(pb, pa) { swap(&pa, &pb); permSign = -permSign }
        var det = ExactExpansion()
        // a · (b × c), each triple product exactly.
        det.addProduct(pa.x, pb.y, pc.z)
        det.addProduct(-pa.x, pb.z, pc.y)
        det.addProduct(pa.y, pb.z, pc.x)
        det.addProduct(-pa.y, pb.x, pc.z)
        det.addProduct(pa.z, pb.x, pc.y)
        det.addProduct(-pa.z, pb.y, pc.x)
        var s = det.sign
        if s == 0 && perturb { s = symbolicallyPerturbedSign(pa, pb, pc) }
        return permSign * s
    }

    /// The exact sign of `p · q - r · s`.
    static func differenceSign(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Int {
        var e = ExactExpansion()
        e.addProduct(p, q)
        e.addProduct(-r, s)
        return e.sign
    }

    /// S2's `SymbolicallyPerturbedSign` (Edelsbrunner and Mücke, Table 4-ii): the sign of the
    /// determinant of `a < b < c` (lexicographically) after infinitesimal perturbations
    /// `da[2] > da[1] > da[0] > db[2] > … > dc[0]`, for an exactly zero determinant.
    static func symbolicallyPerturbedSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Int {
        // b × c, component by component.
        var s = differenceSign(b.x, c.y, b.y, c.x)  // da[2]
        if s != 0 { return s }
        s = differenceSign(b.z, c.x, b.x, c.z)  // da[1]
        if s != 0 { return s }
        s = differenceSign(b.y, c.z, b.z, c.y)  // da[0]
        if s != 0 { return s }
        s = differenceSign(c.x, a.y, c.y, a.x)  // db[2]
        if s != 0 { return s }
        s = signum(c.x)  // db[2] · da[1]
        if s != 0 { return s }
        s = -signum(c.y)  // db[2] · da[0]
        if s != 0 { return s }
        s = differenceSign(c.z, a.x, c.x, a.z)  // db[1]
        if s != 0 { return s }
        s = signum(c.z)  // db[1] · da[0]
        if s != 0 { return s }
        s = differenceSign(a.x, b.y, a.y, b.x)  // dc[2]
        if s != 0 { return s }
        s = -signum(b.x)  // dc[2] · da[1]
        if s != 0 { return s }
        s = signum(b.y)  // dc[2] · da[0]
        if s != 0 { return s }
        s = signum(a.x)  // dc[2] · db[1]
        if s != 0 { return s }
        return 1  // dc[2] · db[1] · da[0]
    }

    @usableFromInline
    static func signum(_ x: Double) -> Int { x > 0 ? 1 : (x < 0 ? -1 : 0) }

    /// True when `a, b, c` are encountered in that order sweeping counter-clockwise around `o`
    /// (S2's `OrderedCCW`): true if `a == b` or `b == c`, false if `a == c`.
    /// Requires `a, b, c` distinct from `o`.
    public static func orderedCCW(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, around o: UnitVector) -> Bool {
        var sum = 0
        if sign(b, o, a) >= 0 { sum += 1 }
        if sign(c, o, b) >= 0 { sum += 1 }
        if sign(a, o, c) > 0 { sum += 1 }
        return sum >= 2
    }

    /// A unit vector orthogonal to `a`, bit-identical to S2's `S2::Ortho` (and `S2::RefDir`),
    /// the reference direction of the vertex-crossing rules.
    @inlinable
    public static func ortho(_ a: UnitVector) -> UnitVector {
        let ax = abs(a.x), ay = abs(a.y), az = abs(a.z)
        var k = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2)
        k -= 1
        if k < 0 { k = 2 }
        var t = UnitVector(x: 0.012, y: 0.0053, z: 0.00457)
        switch k {
        case 0: t.x = 1
        case 1: t.y = 1
        default: t.z = 1
        }
        return a.cross(t).normalized
    }

    /// A vector parallel to `a × b` that is stable when `a` and `b` are nearly equal or
    /// antipodal (S2's `RobustCrossProd` first stage, `(a - b) × (a + b)`, which is exactly
    /// what S2 returns for every pair of points more than about 1e-15 radians apart); `ortho(a)`
    /// when `a == b`.
    @inlinable
    public static func robustCross(_ a: UnitVector, _ b: UnitVector) -> UnitVector {
        let r = (a - b).cross(a + b)
        if r.x != 0 || r.y != 0 || r.z != 0 { return r }
        return ortho(a)
    }

    /// How two wedges with a common vertex relate (S2's `S2::WedgeRelation`).
    public enum WedgeRelation: Sendable {
        case equals, contains, isContained, properlyOverlaps, isDisjoint
    }

    /// S2's `S2::GetWedgeRelation`: how the wedge (a0, ab1, a2) relates to the wedge
    /// (b0, ab1, b2), both turning counter-clockwise around the shared vertex `ab1`; where
    /// edges coincide the most specific relation is returned.
    public static func wedgeRelation(
        _ a0: UnitVector, _ ab1: UnitVector, _ a2: UnitVector,
        _ b0: UnitVector, _ b2: UnitVector
    ) -> WedgeRelation {
        if a0 == b0 && a2 == b2 { return .equals }
        if orderedCCW(a0, a2, b2, around: ab1) {
            if orderedCCW(b2, b0, a0, around: ab1) { return .contains }
            return a2 == b2 ? .isContained : .properlyOverlaps
        }
        if orderedCCW(a0, b0, b2, around: ab1) { return .isContained }
        return orderedCCW(a0, b0, a2, around: ab1) ? .isDisjoint : .properlyOverlaps
    }

    /// S2's `S2::WedgeContains`: whether the wedge (a0, ab1, a2) contains the wedge
    /// (b0, ab1, b2), both turning counter-clockwise around the shared vertex `ab1`.
    public static func wedgeContains(
        _ a0: UnitVector, _ ab1: UnitVector, _ a2: UnitVector,
        _ b0: UnitVector, _ b2: UnitVector
    ) -> Bool {
        orderedCCW(a2, b2, b0, around: ab1) && orderedCCW(b0, a0, a2, around: ab1)
    }
}
