/// Exact sums of products of doubles as nonoverlapping floating-point expansions (Shewchuk,
/// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997).
///
/// An expansion is a list of doubles, in increasing magnitude, whose exact sum is the value and
/// whose nonzero components do not overlap bitwise; its sign is that of its largest nonzero
/// component. This is the multiple-precision back end of ``Predicates``: it replaces S2's
/// `ExactFloat` for the rare determinants that double arithmetic cannot decide. Exact unless a
/// product underflows (inputs below about 1e-100 in magnitude), which unit vectors of real
/// coordinates never produce.
@usableFromInline
struct ExactExpansion {
    /// The components, increasing in magnitude, nonoverlapping (zeros removed).
    @usableFromInline var components: [Double] = []

    @usableFromInline init() { components.reserveCapacity(32) }

    /// Adds `b` exactly (Shewchuk's Grow-Expansion with zero elimination).
    @usableFromInline
    mutating func add(_ b: Double) {
        var q = b
        var out = 0
        for i in components.indices {
            let e = components[i]
            let s = q + e
            let bv = s - q
            let err = (q - (s - bv)) + (e - bv)
            q = s
            if err != 0 {
                components[out] = err
                out += 1
            }
        }
        components.removeSubrange(out...)
        if q != 0 { components.append(q) }
    }

    /// Adds the exact product `a · b` (two components, via a fused multiply-add).
    @usableFromInline
    mutating func addProduct(_ a: Double, _ b: Double) {
        let p = a * b
        let e = (-p).addingProduct(a, b)
        add(e)
        add(p)
    }

    /// Adds the exact product `a · b · c`.
    @usableFromInline
    mutating func addProduct(_ a: Double, _ b: Double, _ c: Double) {
        let p = b * c
        let e = (-p).addingProduct(b, c)
        addProduct(a, p)
        addProduct(a, e)
    }

    /// -1, 0 or +1: the sign of the exact value.
    @usableFromInline
    var sign: Int {
        guard let top = components.last else { return 0 }
        return top > 0 ? 1 : -1
    }
}
