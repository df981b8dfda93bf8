import GeoCells
import Geodesy

/// Circles and polygons in one index: every fence is keyed by the S2 cells of its covering at
/// one level, in one flat array sorted by cell id; a point looks up its leaf cell's ancestor at
/// each key level in use, and the fences keyed there are its candidates.
///
/// Representation (flat arrays, no per-fence object, no existential dispatch):
/// - fence slots: `ids[s]`; `bounds[4s ..< 4s + 4]` = x, y, z and a squared-chord limit: the
///   circle itself for a circle, a cap around a polygon (its enclosing cap, padded) for a
///   polygon; `polygonOf[s]` = the polygon's position in `polygons`, or -1 for a circle;
///   `radii[s]` = a circle's radius in meters (0 for a polygon).
/// - flat loops of the polygons of up to 32 vertices (the ones `Polygon.contains(_:)` tests
///   by brute force): slot `s`'s loops are `loopStart[s] ..< loopEnd[s]` (empty for circles and
///   larger polygons), loop `l` is `loopVertices[loopFrom[l] ..< loopFrom[l + 1]]` with
///   `loopOrigin[l]` whether it contains `Predicates/origin`. The exact test of such a
///   polygon reads only these arrays (`Polygon/loopContains(_:_:_:originInside:_:)`).
/// - keys: `keys[k]` (cell ids, ascending) and `entries[k]`, the slot keyed by that cell, as
///   `~slot` (negative) when the polygon contains the whole cell: a hit without any test.
/// - `levels`: the key levels in use, finest first.
///
/// Stabbing: a candidate circle is a hit when the point's squared chord to its center is
/// `<= chord2` (as ``Fence/contains(_:)``); a candidate polygon when it passes its cap and then
/// `Polygon.contains(_:)` (S2's exact semi-open test). Every fence is keyed at one level by
/// disjoint cells, so a point meets each fence at most once.
///
/// The key level is `level` (default 16: cells about 150 m wide, for building outlines and
/// fences up to a few hundred meters); a larger fence is keyed at the finest level whose cells
/// are at least `2r / √maxKeysPerFence` wide (r: its enclosing cap's radius), coarser still
/// while its covering would exceed `maxKeysPerFence` cells.
///
/// Distances (``nearest(to:k:by:maxDistanceMeters:into:)``, ``forEachWithin(meters:of:_:)``):
/// for a circle as everywhere in this module (center distance, or center distance minus radius
/// by ``FenceDistance/edge``); for a polygon, ``FenceDistance/center`` and the radius query use
/// the distance to the polygon (0 inside, else to the nearest boundary point) and
/// ``FenceDistance/edge`` the signed distance to the boundary (negative inside).
public struct CellFenceIndex: FenceIndex, Sendable {
    @usableFromInline let ids: [Int32]
    @usableFromInline let bounds: [Double]
    @usableFromInline let polygonOf: [Int32]
    @usableFromInline let radii: [Double]
    @usableFromInline let loopStart: [Int32]
    @usableFromInline let loopEnd: [Int32]
    @usableFromInline let loopFrom: [Int32]
    @usableFromInline let loopOrigin: [Bool]
    @usableFromInline let loopVertices: [UnitVector]
    /// The polygons, in the order of the `polygons` argument of the initializer.
    public let polygons: [Polygon]
    @usableFromInline let keys: [UInt64]
    @usableFromInline let entries: [Int32]
    @usableFromInline let levels: [Int]

    /// Squared chord added to a polygon's enclosing cap (about 0.2 m on the Earth): the cap test
    /// is a prefilter and must never reject a point the exact test accepts.
    static let capPadding = 1e-15

    /// An index of `circles` and `polygons` (ids may not repeat across both: not checked).
    /// - Parameters:
    ///   - circles: the circle fences.
    ///   - polygons: the polygon fences, kept in this order in ``polygons``.
    ///   - level: the finest key level, 0...30.
    ///   - maxKeysPerFence: most key cells per fence (>= 1).
    /// - Complexity: one covering per fence (and one cell test per key cell of a polygon),
    ///   then a sort of all keys.
    public init(circles: [Fence] = [], polygons: [PolygonFence] = [], level: Int = 16, maxKeysPerFence: Int = 64) {
        precondition((0...CellID.maxLevel).contains(level) && maxKeysPerFence >= 1, "bad key level or key count")
        var ids: [Int32] = [], bounds: [Double] = [], polygonOf: [Int32] = [], radii: [Double] = []
        var loopStart: [Int32] = [], loopEnd: [Int32] = [], loopFrom: [Int32] = [0], loopOrigin: [Bool] = []
        var loopVertices: [UnitVector] = []
        var pairs: [(key: UInt64, entry: Int32)] = []
        var levelSet = Set<Int>()
        func add(_ id: Int32, _ cap: Cap, limit: Double, polygon: Int32, radius: Double) -> Int32 {
            let slot = Int32(ids.count)
            ids.append(id)
            bounds.append(contentsOf: [cap.center.x, cap.center.y, cap.center.z, limit])
            polygonOf.append(polygon)
            radii.append(radius)
            loopStart.append(Int32(loopOrigin.count))
            if polygon >= 0 && polygons[Int(polygon)].polygon.isBruteForce {
                let area = polygons[Int(polygon)].polygon
                for k in 0..<area.loopCount {
                    loopVertices.append(contentsOf: area.vertices[area.loopStarts[k]..<area.loopStarts[k + 1]])
                    loopFrom.append(Int32(loopVertices.count))
                    loopOrigin.append(area.loopContainsOrigin(k))
                }
            }
            loopEnd.append(Int32(loopOrigin.count))
            return slot
        }
        for f in circles {
            // The covering of a cap a little wider than the circle: never misses a point the
            // squared-chord test accepts.
            let cap = Cap(center: f.centerVector, radius: ChordAngle(length2: min(4, f.chord2 + Self.capPadding)))
            let slot = add(f.id, cap, limit: f.chord2, polygon: -1, radius: f.radiusMeters)
            let (cells, l) = Self.keyCells(of: cap, bound: cap, level: level, maxKeys: maxKeysPerFence)
            levelSet.insert(l)
            for c in cells { pairs.append((c.rawValue, slot)) }
        }
        for (i, f) in polygons.enumerated() {
            let cap = f.polygon.enclosingCap
            let limit = cap.isFull ? 4 : min(4, cap.radius.length2 + Self.capPadding)
            let slot = add(f.id, cap, limit: limit, polygon: Int32(i), radius: 0)
            let (cells, l) = Self.keyCells(of: f.polygon, bound: cap, level: level, maxKeys: maxKeysPerFence)
            levelSet.insert(l)
            for c in cells { pairs.append((c.rawValue, f.polygon.contains(Cell(c)) ? ~slot : slot)) }
        }
        pairs.sort { $0.key < $1.key || ($0.key == $1.key && $0.entry < $1.entry) }
        self.ids = ids
        self.bounds = bounds
        self.polygonOf = polygonOf
        self.radii = radii
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.loopFrom = loopFrom
        self.loopOrigin = loopOrigin
        self.loopVertices = loopVertices
        self.polygons = polygons.map(\.polygon)
        keys = pairs.map(\.key)
        entries = pairs.map(\.entry)
        levels = levelSet.sorted(by: >)
    }

    /// The covering of `region` at one level (see the type's comment) and that level.
    static func keyCells<Region: CoverableRegion>(
        of region: Region, bound: Cap, level: Int, maxKeys: Int
    ) -> ([CellID], Int) {
        // Cells at least 2r / √maxKeys wide: about maxKeys of them span the bounding cap, so
        // the first covering never runs to millions of cells.
        let width = 2 * bound.radiusRadians / Double(maxKeys).squareRoot()
        let fitting = bound.isFull ? 0 : CellMetric.minWidth.levelForMinValue(width)
        var l = max(0, min(level, fitting))
        while true {
            // maxCells is a target the coverer may exceed at a fixed level; the count is checked.
            let coverer = try! RegionCoverer(maxCells: maxKeys, minLevel: l, maxLevel: l)
            let cells = coverer.covering(of: region)
            if cells.count <= maxKeys || l == 0 { return (cells, l) }
            l -= 1
        }
    }

    /// Number of fences (circles and polygons).
    @inlinable public var count: Int { ids.count }

    /// Number of key cells (index size: 12 bytes each, plus the fences' own storage).
    public var keyCount: Int { keys.count }

    /// Calls `body` with the id of every fence containing `p`: circles boundary inclusive,
    /// polygons in S2's semi-open model. Ids come in key order, each once.
    /// - Complexity: O(levels · log keys + candidates), a candidate polygon O(its vertices)
    ///   (O(log cells) above 32 vertices).
    @inlinable
    public func forEachContaining(_ p: UnitVector, _ body: (Int32) -> Void) {
        var s = NoStats()
        stab(p, &s, body)
    }

    /// As ``forEachContaining(_:_:)``, counting candidates, tests and cell hits in `stats`.
    @inlinable
    public func forEachContaining(_ p: UnitVector, stats: inout QueryStats, _ body: (Int32) -> Void) {
        stab(p, &stats, body)
    }

    @inlinable
    func stab<S: StatsSink>(_ p: UnitVector, _ stats: inout S, _ body: (Int32) -> Void) {
        let leaf = CellID(p).rawValue
        keys.withUnsafeBufferPointer { keys in
            entries.withUnsafeBufferPointer { entries in
                bounds.withUnsafeBufferPointer { b in
                    for level in levels {
                        let lsb = CellID.lsb(forLevel: level)
                        let key = (leaf & (0 &- lsb)) | lsb
                        var lo = 0, hi = keys.count
                        while lo < hi {
                            let mid = Int(bitPattern: UInt(bitPattern: lo &+ hi) >> 1)
                            if keys[mid] < key { lo = mid &+ 1 } else { hi = mid }
                        }
                        while lo < keys.count && keys[lo] == key {
                            let e = entries[lo]
                            lo &+= 1
                            if e < 0 {
                                stats.accepted(1)
                                body(ids[Int(~e)])
                                continue
                            }
                            let s = Int(e), o = s &* 4
                            var inside = squaredChord(p.x, p.y, p.z, b[o], b[o &+ 1], b[o &+ 2]) <= b[o &+ 3]
                            let polygon = polygonOf[s]
                            if inside && polygon >= 0 { inside = polygonContains(s, Int(polygon), p) }
                            stats.exact(hit: inside)
                            if inside { body(ids[s]) }
                        }
                    }
                }
            }
        }
    }

    /// Whether the polygon of slot `s` (position `polygon` in `polygons`) contains `p`: over
    /// its flat loops when it has them, else through `Polygon.contains(_:)`.
    @inlinable
    func polygonContains(_ s: Int, _ polygon: Int, _ p: UnitVector) -> Bool {
        let first = Int(loopStart[s]), end = Int(loopEnd[s])
        if first == end { return polygons[polygon].contains(p) }
        return loopVertices.withUnsafeBufferPointer { v in
            var inside = false
            for l in first..<end {
                if Polygon.loopContains(v, Int(loopFrom[l]), Int(loopFrom[l &+ 1]), originInside: loopOrigin[l], p) {
                    inside.toggle()
                }
            }
            return inside
        }
    }
}
