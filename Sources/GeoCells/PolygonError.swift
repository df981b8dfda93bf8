/// Why a set of rings is not a valid polygon in S2's sense. Rings and vertices are numbered
/// from 0 in the order given to ``Polygon/init(rings:)`` (a ring's vertices without the
/// closing repeat of the first); an edge is named by its first vertex (edge k joins vertex k
/// to vertex k + 1, the last edge closes the ring).
public enum PolygonError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A ring with fewer than 3 vertices.
    case tooFewVertices(ring: Int, count: Int)
    /// A vertex equal to an earlier vertex of the same ring (adjacent or not).
    case duplicateVertex(ring: Int, vertex: Int, duplicateOf: Int)
    /// Two consecutive vertices that are antipodal (the edge between them is undefined).
    case antipodalEdge(ring: Int, vertex: Int)
    /// Two edges of one ring cross.
    case selfIntersection(ring: Int, edge: Int, crossesEdge: Int)
    /// An edge of one ring crosses an edge of another.
    case ringsCross(ring: Int, edge: Int, otherRing: Int, otherEdge: Int)
    /// Two rings have an edge in common (in the same or the opposite direction): edge `edge`
    /// of `ring` joins the same two points as edge `otherEdge` of `otherRing`. S2 rejects this
    /// (`POLYGON_LOOPS_SHARE_EDGE`); it is also what cutting a polygon at the antimeridian into
    /// two parts, as RFC 7946 suggests, produces along the cut.
    case ringsShareEdge(ring: Int, edge: Int, otherRing: Int, otherEdge: Int)
    /// Two rings touch at a shared vertex and cross there (each passes from one side of the
    /// other to the other side): vertex `vertex` of `ring` is vertex `otherVertex` of
    /// `otherRing`. Rings may touch at a vertex without crossing.
    case ringsCrossAtVertex(ring: Int, vertex: Int, otherRing: Int, otherVertex: Int)
    /// A polygon needs at least one ring.
    case noRings

    public var description: String {
        switch self {
        case .tooFewVertices(let r, let n): return "ring \(r) has \(n) distinct vertices (at least 3 needed)"
        case .duplicateVertex(let r, let v, let w): return "ring \(r): vertex \(v) duplicates vertex \(w)"
        case .antipodalEdge(let r, let v): return "ring \(r): vertices \(v) and \(v + 1) are antipodal"
        case .selfIntersection(let r, let e, let f): return "ring \(r): edge \(e) crosses edge \(f) (self-intersection)"
        case .ringsCross(let r, let e, let s, let f): return "ring \(r) edge \(e) crosses ring \(s) edge \(f)"
        case .ringsShareEdge(let r, let e, let s, let f): return "ring \(r) edge \(e) is also edge \(f) of ring \(s) (rings share an edge)"
        case .ringsCrossAtVertex(let r, let v, let s, let w):
            return "ring \(r) crosses ring \(s) at a shared vertex (vertex \(v) of ring \(r), vertex \(w) of ring \(s))"
        case .noRings: return "polygon has no rings"
        }
    }
}
