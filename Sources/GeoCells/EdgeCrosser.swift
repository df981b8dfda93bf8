import Geodesy

/// Tests a fixed edge AB against a chain of edges C0C1, C1C2, … with S2's robust semantics,
/// ported from `S2EdgeCrosser` (s2edge_crosser.h/.cc, version 0.10).
///
/// ``crossingSign(_:)`` is +1 when AB and CD cross at a point interior to both, 0 when a vertex
/// of one edge equals a vertex of the other, -1 otherwise. ``edgeOrVertexCrossing(_:)`` adds
/// S2's vertex-crossing rule for shared vertices, so that counting crossings of a segment
/// with a loop's edges gives S2's semi-open containment (every point on the sphere is in
/// exactly one of a loop and its complement). Each call advances the chain: C becomes D.
public struct EdgeCrosser {
    public let a: UnitVector
    public let b: UnitVector
    @usableFromInline let aCrossB: UnitVector
    @usableFromInline var haveTangents = false
    @usableFromInline var aTangent = UnitVector(x: 0, y: 0, z: 0)
    @usableFromInline var bTangent = UnitVector(x: 0, y: 0, z: 0)
    /// The previous vertex of the chain.
    @usableFromInline var c: UnitVector
    @usableFromInline var acb: Int
    @usableFromInline var bda = 0

    /// A crosser for edge `a b` whose chain starts at `c`.
    @inlinable
    public init(_ a: UnitVector, _ b: UnitVector, chainStart c: UnitVector) {
        self.a = a
        self.b = b
        self.aCrossB = a.cross(b)
        self.c = c
        self.acb = -Predicates.triageSign(a, b, c, aCrossB)
    }

    /// Restarts the chain at `c`.
    @inlinable
    public mutating func restart(at c: UnitVector) {
        self.c = c
        acb = -Predicates.triageSign(a, b, c, aCrossB)
    }

    /// S2's `CrossingSign(d)` for the edge from the chain's last vertex to `d`.
    @inlinable
    public mutating func crossingSign(_ d: UnitVector) -> Int {
        let bdaTriage = Predicates.triageSign(a, b, d, aCrossB)
        if acb == -bdaTriage && bdaTriage != 0 {
            c = d
            acb = -bdaTriage
            return -1
        }
        bda = bdaTriage
        let result = crossingSignSlow(d)
        c = d
        acb = -bda
        return result
    }

    /// S2's `EdgeOrVertexCrossing(d)`: a proper crossing, or a shared vertex that the
    /// vertex-crossing rule counts.
    @inlinable
    public mutating func edgeOrVertexCrossing(_ d: UnitVector) -> Bool {
        let c0 = c
        let s = crossingSign(d)
        if s < 0 { return false }
        if s > 0 { return true }
        return EdgeCrosser.vertexCrossing(a, b, c0, d)
    }

    @usableFromInline
    mutating func crossingSignSlow(_ d: UnitVector) -> Int {
        if !haveTangents {
            let norm = Predicates.robustCross(a, b)
            aTangent = a.cross(norm)
            bTangent = norm.cross(b)
            haveTangents = true
        }
        let error = (1.5 + 1 / (3.0).squareRoot()) * Double.ulpOfOne
        if (c.dot(aTangent) > error && d.dot(aTangent) > error)
            || (c.dot(bTangent) > error && d.dot(bTangent) > error)
        {
            return -1
        }
        if a == c || a == d || b == c || b == d { return 0 }
        if a == b || c == d { return -1 }
        if acb == 0 { acb = -Predicates.expensiveSign(a, b, c) }
        if bda == 0 { bda = Predicates.expensiveSign(a, b, d) }
        if bda != acb { return -1 }
        let cCrossD = c.cross(d)
        let cbd = -Predicates.sign(c, d, b, aCrossB: cCrossD)
        if cbd != acb { return -1 }
        let dac = Predicates.sign(c, d, a, aCrossB: cCrossD)
        return dac != acb ? -1 : 1
    }

    /// S2's `CrossingSign(a, b, c, d)`.
    public static func crossingSign(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, _ d: UnitVector) -> Int {
        var crosser = EdgeCrosser(a, b, chainStart: c)
        return crosser.crossingSign(d)
    }

    /// S2's `VertexCrossing`: for edges AB and CD that share a vertex, whether the crossing
    /// counts (AB is further counter-clockwise around the shared vertex than CD, from the
    /// reference direction ``Predicates/ortho(_:)``). False for degenerate edges.
    public static func vertexCrossing(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, _ d: UnitVector) -> Bool {
        if a == b || c == d { return false }
        if a == c { return b == d || Predicates.orderedCCW(Predicates.ortho(a), d, b, around: a) }
        if b == d { return Predicates.orderedCCW(Predicates.ortho(b), c, a, around: b) }
        if a == d { return b == c || Predicates.orderedCCW(Predicates.ortho(a), c, b, around: a) }
        if b == c { return Predicates.orderedCCW(Predicates.ortho(b), d, a, around: b) }
        return false
    }

    /// S2's `EdgeOrVertexCrossing(a, b, c, d)`.
    public static func edgeOrVertexCrossing(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector, _ d: UnitVector) -> Bool {
        let s = crossingSign(a, b, c, d)
        if s < 0 { return false }
        if s > 0 { return true }
        return vertexCrossing(a, b, c, d)
    }
}
