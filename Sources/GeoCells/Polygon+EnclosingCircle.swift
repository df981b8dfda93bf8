import Geodesy

/// The smallest cap containing the polygon (what an OS region monitor can watch).
extension Polygon {
    /// The minimum enclosing cap of the vertices (Welzl's algorithm on the sphere, with a
    /// fixed shuffle so results are reproducible). When its radius is below 90° the cap is
    /// convex, so it holds every geodesic edge between its vertices, and the polygon lies
    /// either inside it or around its whole complement; the second case (a loop kept as given
    /// because it is within rounding of a hemisphere, S2's rule, yet slightly larger) is told
    /// by whether the polygon contains the cap's antipodal point. Polygons not inside a cap
    /// below 90° get ``Cap/full``.
    /// - Complexity: expected O(n).
    public var enclosingCap: Cap {
        var points = vertices
        var rng = SplitMix64(seed: 0x5EED_CAFE)
        if points.count > 1 {
            for i in stride(from: points.count - 1, to: 0, by: -1) {
                let j = Int(rng.next() % UInt64(i + 1))
                points.swapAt(i, j)
            }
        }
        let slack = 1e-15
        func inside(_ c: (center: UnitVector, r2: Double), _ p: UnitVector) -> Bool {
            c.center.chord2(to: p) <= c.r2 + slack
        }
        func two(_ a: UnitVector, _ b: UnitVector) -> (center: UnitVector, r2: Double) {
            let c = (a + b).normalized
            return (c, max(c.chord2(to: a), c.chord2(to: b)))
        }
        func three(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> (center: UnitVector, r2: Double) {
            var n = (b - a).cross(c - a).normalized
            if n.dot(a) < 0 { n = -n }
            return (n, max(n.chord2(to: a), n.chord2(to: b), n.chord2(to: c)))
        }
        var cap = (center: points[0], r2: 0.0)
        for i in 1..<points.count where !inside(cap, points[i]) {
            cap = (points[i], 0)
            for j in 0..<i where !inside(cap, points[j]) {
                cap = two(points[i], points[j])
                for k in 0..<j where !inside(cap, points[k]) {
                    cap = three(points[i], points[j], points[k])
                }
            }
        }
        // The exact radius over all vertices (absorbs the slack).
        var r2 = 0.0
        for p in vertices { r2 = max(r2, cap.center.chord2(to: p)) }
        if r2 >= 2 || contains(-cap.center) { return .full }
        return Cap(center: cap.center, radius: ChordAngle(length2: r2).successor)
    }
}
