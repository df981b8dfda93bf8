#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// A polygon on the unit sphere with geodesic edges, with Google S2's semantics (`S2Polygon`,
/// version 0.10): one or more loops; the interior is the set of points inside an odd number of
/// loops, so holes and multi-part polygons are plain loops and nesting needs no labels.
///
/// Each loop is normalized as S2's `S2Loop::Normalize` does: a ring whose left side is more
/// than half the sphere is reversed, so a loop always encloses at most a hemisphere whatever
/// the input orientation (GeoJSON's counter-clockwise shells and clockwise holes, or the
/// opposite). Loops may cross the antimeridian or surround a pole: edges are great-circle arcs
/// between unit vectors, and longitudes never wrap.
///
/// Containment is S2's exact semi-open model: `contains` is decided by counting crossings with
/// the robust predicates (``Predicates``, ``EdgeCrosser``) from a point of known state, so every
/// point of the sphere is in exactly one of a polygon and its complement, boundary points
/// included, identically to `S2Polygon::Contains(S2Point)`.
///
/// Representation: ``vertices`` holds all loops back to back, loop `k` occupying
/// `loopStarts[k] ..< loopStarts[k + 1]`; edge `e` runs from vertex `e` to the next vertex of
/// its loop. ``index`` is S2's shape index over the edges (``PolygonIndex``).
public struct Polygon: Sendable {
    /// All loop vertices, loop after loop (each loop normalized, see the type's comment).
    public let vertices: [UnitVector]
    /// Loop `k` is `vertices[loopStarts[k] ..< loopStarts[k + 1]]`; `loopStarts.last` is the
    /// vertex count.
    public let loopStarts: [Int]
    /// The number of other loops containing each loop: even for shells, odd for holes.
    public private(set) var depths: [Int]
    /// The index of the next vertex of the same loop, per vertex (the end of edge `e`).
    @usableFromInline let nextVertex: [Int32]
    /// Whether each loop contains ``Predicates/origin`` (S2's `origin_inside_`).
    @usableFromInline let originInside: [Bool]
    /// Whether each loop was reversed by normalization (to name input vertices in errors).
    let reversed: [Bool]
    /// S2's shape index over the edges.
    public let index: PolygonIndex

    /// Loops up to this many vertices in total are tested by brute force (S2's
    /// `kMaxBruteForceVertices`); larger ones through ``index``.
    @usableFromInline static let maxBruteForceVertices = 32

    /// A polygon from rings of points (each ring open: no repeat of its first vertex at the
    /// end). Every ring becomes a loop, normalized to at most a hemisphere.
    /// - Throws: ``PolygonError`` naming the ring and vertex: fewer than 3 vertices, a
    ///   duplicate vertex, antipodal consecutive vertices, self-intersection, crossing rings,
    ///   rings sharing an edge or crossing at a shared vertex.
    /// - Complexity: O(n log n) for n vertices on ordinary input (index build), plus
    ///   O(r² · n) nesting tests for r rings.
    public init(rings: [[UnitVector]]) throws(PolygonError) {
        if rings.isEmpty { throw .noRings }
        var vertices: [UnitVector] = []
        var starts = [0]
        var origin: [Bool] = []
        var reversed: [Bool] = []
        for (r, ring) in rings.enumerated() {
            let n = ring.count
            if n < 3 { throw .tooFewVertices(ring: r, count: n) }
            for i in 0..<n {
                let a = ring[i], b = ring[(i + 1) % n]
                if a == b { throw .duplicateVertex(ring: r, vertex: (i + 1) % n, duplicateOf: i) }
                if a == -b { throw .antipodalEdge(ring: r, vertex: i) }
            }
            var loop = ring
            var inside = Polygon.originInside(loop)
            let flip = !Polygon.isNormalized(loop, originInside: inside)
            if flip {
                loop.reverse()
                inside = !inside
            }
            vertices.append(contentsOf: loop)
            starts.append(vertices.count)
            origin.append(inside)
            reversed.append(flip)
        }
        var next = [Int32](repeating: 0, count: vertices.count)
        for k in 0..<(starts.count - 1) {
            for v in starts[k]..<starts[k + 1] { next[v] = Int32(v + 1 == starts[k + 1] ? starts[k] : v + 1) }
        }
        self.vertices = vertices
        self.loopStarts = starts
        self.nextVertex = next
        self.originInside = origin
        self.reversed = reversed
        self.depths = Array(repeating: 0, count: rings.count)
        self.index = PolygonIndex(
            edgeCount: vertices.count, edge: { e in (vertices[e], vertices[Int(next[e])]) },
            contains: { p in Polygon.bruteForceContains(vertices, starts, origin, p) })
        try validateCrossings(rings: rings)
        self.depths = computeDepths()
        try validateSharedVertices()
    }

    /// A polygon from rings of latitude/longitude points (degrees), each ring open.
    /// - Throws: as ``init(rings:)``.
    public init(latLngRings: [[LatLng]]) throws(PolygonError) {
        try self.init(rings: latLngRings.map { ring in ring.map { UnitVector($0) } })
    }

    /// The number of loops.
    @inlinable public var loopCount: Int { loopStarts.count - 1 }

    /// The number of edges (= vertices).
    @inlinable public var edgeCount: Int { vertices.count }

    /// The endpoints of edge `e`.
    @inlinable
    public func edge(_ e: Int) -> (UnitVector, UnitVector) { (vertices[e], vertices[Int(nextVertex[e])]) }

    /// Whether loop `k` is a hole (odd depth).
    @inlinable public func isHole(_ k: Int) -> Bool { depths[k] & 1 == 1 }

    /// Whether the polygon contains `p` (S2's semi-open model; exact, see the type's comment).
    /// - Complexity: O(n) for n ≤ 32 vertices, else O(log cells + edges in p's index cell).
    public func contains(_ p: UnitVector) -> Bool {
        if isBruteForce {
            return Polygon.bruteForceContains(vertices, loopStarts, originInside, p)
        }
        guard let k = index.locate(p) else { return false }
        return cellContains(k, p)
    }

    /// Whether the polygon contains `p`, counting crossings from the center of index cell `k`
    /// (which must contain `p`): S2's `S2ContainsPointQuery::ShapeContains`.
    @usableFromInline
    func cellContains(_ k: Int, _ p: UnitVector) -> Bool {
        var inside = index.containsCenter[k]
        let edges = index.edges(ofCell: k)
        if edges.isEmpty { return inside }
        var crosser = EdgeCrosser(index.cellIDs[k].centerPoint, p, chainStart: vertices[Int(edges.first!)])
        var previousEnd: Int32 = -1
        for e in edges {
            if e != previousEnd { crosser.restart(at: vertices[Int(e)]) }
            let end = nextVertex[Int(e)]
            inside = inside != crosser.edgeOrVertexCrossing(vertices[Int(end)])
            previousEnd = end
        }
        return inside
    }

    /// Loop `k` contains `p` (brute force from the origin, S2's `S2Loop::BruteForceContains`).
    public func loopContains(_ k: Int, _ p: UnitVector) -> Bool {
        Polygon.loopContains(vertices, loopStarts[k], loopStarts[k + 1], originInside[k], p)
    }

    static func bruteForceContains(_ v: [UnitVector], _ starts: [Int], _ origin: [Bool], _ p: UnitVector) -> Bool {
        var inside = false
        for k in 0..<(starts.count - 1) where loopContains(v, starts[k], starts[k + 1], origin[k], p) {
            inside.toggle()
        }
        return inside
    }

    static func loopContains(_ v: [UnitVector], _ start: Int, _ end: Int, _ originInside: Bool, _ p: UnitVector) -> Bool {
        v.withUnsafeBufferPointer { loopContains($0, start, end, originInside: originInside, p) }
    }

    /// Whether the loop `v[start ..< end]` contains `p`, given whether it contains
    /// ``Predicates/origin`` (``loopContainsOrigin(_:)``): crossings counted from the origin,
    /// S2's `S2Loop::BruteForceContains`. For flat copies of small polygons' loops; the
    /// XOR over a polygon's loops is ``contains(_:)-(UnitVector)`` for polygons of up to 32 vertices.
    /// - Complexity: O(end - start).
    @inlinable
    public static func loopContains(
        _ v: UnsafeBufferPointer<UnitVector>, _ start: Int, _ end: Int, originInside: Bool, _ p: UnitVector
    ) -> Bool {
        var inside = originInside
        var crosser = EdgeCrosser(Predicates.origin, p, chainStart: v[start])
        for i in (start + 1)..<end where crosser.edgeOrVertexCrossing(v[i]) { inside.toggle() }
        if crosser.edgeOrVertexCrossing(v[start]) { inside.toggle() }
        return inside
    }

    /// Whether loop `k` contains ``Predicates/origin`` (S2's `origin_inside_`).
    @inlinable
    public func loopContainsOrigin(_ k: Int) -> Bool { originInside[k] }

    /// Whether ``contains(_:)-(UnitVector)`` counts crossings over every edge from the origin (true up to 32
    /// vertices: then ``loopContains(_:_:_:originInside:_:)`` over the loops gives the same answer).
    @inlinable
    public var isBruteForce: Bool { vertices.count <= Polygon.maxBruteForceVertices }

    /// S2's `InitOriginAndBound`: whether the loop contains the origin, from the orientation
    /// at vertex 1 (inside iff on the left of the path 0, 1, 2).
    static func originInside(_ loop: [UnitVector]) -> Bool {
        let v1Inside = Predicates.orderedCCW(Predicates.ortho(loop[1]), loop[0], loop[2], around: loop[1])
        return v1Inside != loopContains(loop, 0, loop.count, false, loop[1])
    }

    /// Whether the loop's left side is at most a hemisphere, as S2's `S2::IsNormalized`
    /// decides it: the geodesic curvature (``curvature(_:)``, 2π minus the area) is at least
    /// minus its error bound, 9.73 ε per vertex. So a loop within rounding of a hemisphere (a
    /// great circle such as the equator) is normalized in both orientations and kept as given.
    static func isNormalized(_ loop: [UnitVector], originInside: Bool) -> Bool {
        curvature(loop) >= -9.73 * Double.ulpOfOne * Double(loop.count)
    }

    /// S2's `S2::GetCurvature` for a loop without degeneracies (no repeated vertex, no edge
    /// pair ABA; validation rejects those): the turn angles (S2's `TurnAngle`) summed with
    /// Kahan compensation in S2's canonical order (from the smallest vertex, in the direction
    /// whose vertex sequence is smaller), so a rotated loop gives the same sum and a reversed
    /// one its negation, bit for bit as S2 does.
    /// - Complexity: O(n).
    static func curvature(_ loop: [UnitVector]) -> Double {
        let n = loop.count
        func less(_ a: UnitVector, _ b: UnitVector) -> Bool {
            a.x != b.x ? a.x < b.x : (a.y != b.y ? a.y < b.y : a.z < b.z)
        }
        // The canonical order (S2's GetCanonicalLoopOrder; vertices are distinct here, so the
        // smallest vertex occurs once). Indexes run over 0 ..< 2n, taken modulo n.
        var m = 0
        for i in 1..<n where less(loop[i], loop[m]) { m = i }
        var first = m, dir = 1
        for k in 1..<n {
            let forward = loop[(m + k) % n], backward = loop[(m + n - k) % n]
            if forward == backward { continue }
            if less(backward, forward) { (first, dir) = (m + n, -1) }
            break
        }
        func turnAngle(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
            let x = Predicates.robustCross(a, b), y = Predicates.robustCross(b, c)
            let angle = atan2(x.cross(y).norm, x.dot(y))
            return Predicates.sign(a, b, c) > 0 ? angle : -angle
        }
        var i = first
        var sum = turnAngle(loop[(i + n - dir) % n], loop[i % n], loop[(i + dir) % n])
        var compensation = 0.0
        for _ in 1..<n {
            i += dir
            var angle = turnAngle(loop[(i - dir) % n], loop[i % n], loop[(i + dir) % n])
            let oldSum = sum
            angle += compensation
            sum += angle
            compensation = (oldSum - sum) + angle
        }
        let maxCurvature = 2 * Double.pi - 4 * Double.ulpOfOne
        sum += compensation
        return max(-maxCurvature, min(maxCurvature, Double(dir) * sum))
    }
}
