import GeoCells
import Geodesy

/// One fence's geometry as the detector reads it: center, radius and band in chord units, dwell
/// seconds (infinity for none), and for a polygon fence its outline (1 + its index in the
/// table's outlines; 0 for a circle).
@usableFromInline
struct FenceGeometry {
    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    @usableFromInline var dwellSeconds: Double
    @usableFromInline var outline: UInt32

    @usableFromInline
    init(center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double, outline: UInt32 = 0) {
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.dwellSeconds = dwellSeconds
        self.outline = outline
    }
}

/// The detector's fence geometry by dense slot, in one cache line or less per fence: a 32-byte
/// record per fence (its center and the index of its *shape*) in storage aligned to 64 bytes,
/// and a table of the distinct shapes (radius chord, band, dwell seconds and the band less the
/// clearance's rounding allowance; 32 bytes each).
/// Tiered fences have a handful of shapes (the 1/3/5-mile tiers: three), so the shape table
/// stays in the first-level cache and a look at a fence reads one line of the record table.
/// Fences of all different radii have as many shapes as fences and stay correct, at one more
/// load per look. The polygon fences' decision rules are kept here too (read only when a
/// polygon fence is decided). Immutable after init; the detector holds the table (which owns the storage)
/// and its ``view`` (which reads it).

@usableFromInline
final class FenceGeometryTable: @unchecked Sendable {
    /// A fence's center, shape index and outline (1 + index into ``outlines``, 0 for a
    /// circle): 32 bytes, two to a cache line.
    @usableFromInline
    struct Record {
        @usableFromInline var x: Double
        @usableFromInline var y: Double
        @usableFromInline var z: Double
        @usableFromInline var shape: UInt32
        @usableFromInline var outline: UInt32 = 0
    }

    /// A shape: radius chord, band (chord units) and dwell seconds (infinity for none).
    @usableFromInline
    struct Shape {
        @usableFromInline var radiusChord: Double
        @usableFromInline var band: Double
        @usableFromInline var dwellSeconds: Double
        /// `band` less the 1e-12 a look's clearance keeps for rounding
        /// (``FixContext/clearance(_:c2:radiusChord:bandLessRounding:)``): one addition fewer per look.
        @usableFromInline var bandLessRounding: Double

        @usableFromInline
        init(radiusChord: Double, band: Double, dwellSeconds: Double) {
            self.radiusChord = radiusChord
            self.band = band
            self.dwellSeconds = dwellSeconds
            self.bandLessRounding = band - 1e-12
        }
    }

    /// The records, `count` of them, 64-byte aligned.
    @usableFromInline let records: UnsafeMutablePointer<Record>
    /// Number of fences.
    @usableFromInline let count: Int
    /// The distinct shapes, `shapeCount` of them.
    @usableFromInline let shapes: UnsafeMutablePointer<Shape>
    /// Number of distinct shapes.
    @usableFromInline let shapeCount: Int
    /// The polygons of the polygon fences (a record's `outline - 1` indexes them).
    @usableFromInline let outlines: UnsafeMutablePointer<Polygon>
    /// Number of outlines.
    @usableFromInline let outlineCount: Int
    /// The decision rules of the polygon fences (one value).
    @usableFromInline let polygonRules: UnsafeMutablePointer<PolygonRules>
    /// The decision rules of the circles (one value): a fix's context points here rather than
    /// copying them.
    @usableFromInline let rules: UnsafeMutablePointer<DecisionRules>
    /// Fence ids by slot, `count` of them when given (else none): read by the hot loops without
    /// reference counting.
    @usableFromInline let fenceIDs: UnsafeMutablePointer<Int32>
    /// Number of ids in ``fenceIDs`` (`count` or 0).
    @usableFromInline let fenceIDCount: Int

    /// The table of `geometry` (one value per slot), the `outlines` its records refer to, the
    /// rules circles and polygon fences are decided with and the fences' ids by slot (`ids`:
    /// one per slot, or none). O(n) expected (shapes deduplicated by hash).
    @usableFromInline
    init(
        _ geometry: [FenceGeometry], outlines: [Polygon] = [], rules: DecisionRules = DecisionRules(.default),
        polygonRules: PolygonRules = PolygonRules(.default), ids: [Int32] = []
    ) {
        precondition(ids.isEmpty || ids.count == geometry.count, "one id per fence")
        count = geometry.count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(1, count) * MemoryLayout<Record>.stride, alignment: 64)
        records = raw.bindMemory(to: Record.self, capacity: Swift.max(1, count))
        var shapes: [Shape] = []
        var shapeIndex: [ShapeKey: UInt32] = [:]
        for (k, g) in geometry.enumerated() {
            let shape = Shape(radiusChord: g.radiusChord, band: g.band, dwellSeconds: g.dwellSeconds)
            let key = ShapeKey(shape)
            let index: UInt32
            if let known = shapeIndex[key] {
                index = known
            } else {
                index = UInt32(shapes.count)
                shapeIndex[key] = index
                shapes.append(shape)
            }
            precondition(Int(g.outline) <= outlines.count, "outline out of range")
            (records + k).initialize(
                to: Record(x: g.center.x, y: g.center.y, z: g.center.z, shape: index, outline: g.outline))
        }
        shapeCount = shapes.count
        self.shapes = UnsafeMutablePointer<Shape>.allocate(capacity: Swift.max(1, shapeCount))
        self.shapes.initialize(from: shapes, count: shapeCount)
        outlineCount = outlines.count
        self.outlines = UnsafeMutablePointer<Polygon>.allocate(capacity: Swift.max(1, outlineCount))
        self.outlines.initialize(from: outlines, count: outlineCount)
        self.polygonRules = UnsafeMutablePointer<PolygonRules>.allocate(capacity: 1)
        self.polygonRules.initialize(to: polygonRules)
        self.rules = UnsafeMutablePointer<DecisionRules>.allocate(capacity: 1)
        self.rules.initialize(to: rules)
        fenceIDCount = ids.count
        self.fenceIDs = UnsafeMutablePointer<Int32>.allocate(capacity: Swift.max(1, ids.count))
        self.fenceIDs.initialize(from: ids, count: ids.count)
    }

    deinit {
        records.deinitialize(count: count)
        UnsafeMutableRawPointer(records).deallocate()
        shapes.deinitialize(count: shapeCount)
        shapes.deallocate()
        outlines.deinitialize(count: outlineCount)
        outlines.deallocate()
        polygonRules.deinitialize(count: 1)
        polygonRules.deallocate()
        rules.deinitialize(count: 1)
        rules.deallocate()
        fenceIDs.deinitialize(count: fenceIDCount)
        fenceIDs.deallocate()
    }

    /// Unchecked access for the hot loops: a value of three pointers, valid while this table
    /// lives (the detector holds both), so reading through it costs no reference counting.
    @usableFromInline
    var view: GeometryView {
        GeometryView(
            records: UnsafePointer(records), shapes: UnsafePointer(shapes), outlines: UnsafePointer(outlines),
            polygonRules: UnsafePointer(polygonRules), rules: UnsafePointer(rules),
            fenceIDs: UnsafeBufferPointer(start: fenceIDs, count: fenceIDCount))
    }

    /// The geometry of the fence at `slot`.
    @usableFromInline
    subscript(slot: Int) -> FenceGeometry {
        precondition(slot >= 0 && slot < count, "fence slot out of range")
        return view[slot]
    }

    /// Bit patterns of a shape, for deduplication (so -0 and 0, or NaN payloads, never merge).
    private struct ShapeKey: Hashable {
        let a: UInt64, b: UInt64, c: UInt64
        init(_ s: Shape) {
            a = s.radiusChord.bitPattern
            b = s.band.bitPattern
            c = s.dwellSeconds.bitPattern
        }
    }
}

/// Unchecked access to a ``FenceGeometryTable``, valid while the table lives.
@usableFromInline
struct GeometryView {
    @usableFromInline let records: UnsafePointer<FenceGeometryTable.Record>
    @usableFromInline let shapes: UnsafePointer<FenceGeometryTable.Shape>
    @usableFromInline let outlines: UnsafePointer<Polygon>
    /// The decision rules of the polygon fences.
    @usableFromInline let polygonRules: UnsafePointer<PolygonRules>
    /// The decision rules of the circles.
    @usableFromInline let rules: UnsafePointer<DecisionRules>
    /// Fence ids by slot (empty when the table was given none).
    @usableFromInline let fenceIDs: UnsafeBufferPointer<Int32>

    @inline(__always) @usableFromInline
    init(
        records: UnsafePointer<FenceGeometryTable.Record>, shapes: UnsafePointer<FenceGeometryTable.Shape>,
        outlines: UnsafePointer<Polygon>, polygonRules: UnsafePointer<PolygonRules>,
        rules: UnsafePointer<DecisionRules>, fenceIDs: UnsafeBufferPointer<Int32>
    ) {
        self.records = records
        self.shapes = shapes
        self.outlines = outlines
        self.polygonRules = polygonRules
        self.rules = rules
        self.fenceIDs = fenceIDs
    }

    /// The geometry of the fence at `slot` (in range: unchecked).
    @inline(__always) @usableFromInline
    subscript(slot: Int) -> FenceGeometry {
        let r = records[slot]
        let s = shapes[Int(r.shape)]
        return FenceGeometry(
            center: UnitVector(x: r.x, y: r.y, z: r.z), radiusChord: s.radiusChord, band: s.band,
            dwellSeconds: s.dwellSeconds, outline: r.outline)
    }

    /// The squared chord from `p` to the center of fence `g` as the decision rules read it
    /// (the one place a fix's signed margin to a fence comes from): for a circle
    /// `p.chord2(to: g.center)`; for a polygon fence `(rc + s)²`, with `rc` its radius chord and
    /// `s` the signed distance from `p` to the polygon's boundary in radians (negative inside;
    /// clamped so that `rc + s >= 0`), so that `chord - rc`, which the rules compare with their
    /// margins, is the signed distance to the boundary. Both change by at most the distance `p`
    /// moves (chord, resp. arc: the same to 1e-12 m for a step of a kilometer), which is what
    /// the sparse state's clearances need.
    @inline(__always) @usableFromInline
    func chord2(_ g: FenceGeometry, _ p: UnitVector) -> Double {
        if g.outline == 0 { return p.chord2(to: g.center) }
        return outlineChord2(outline: g.outline, radiusChord: g.radiusChord, p)
    }

    /// ``chord2(_:_:)`` from the fence's record and its radius chord, for fences of the kinds
    /// `K` allows: with ``CircleFences`` the outline is not read (every fence is a circle).
    @inline(__always) @usableFromInline
    func chord2<K: FenceKinds>(
        _: K.Type, _ r: FenceGeometryTable.Record, radiusChord: Double, _ p: UnitVector
    ) -> Double {
        if K.circlesOnly || r.outline == 0 { return p.chord2(to: UnitVector(x: r.x, y: r.y, z: r.z)) }
        return outlineChord2(outline: r.outline, radiusChord: radiusChord, p)
    }

    /// ``chord2(_:_:)`` for a polygon fence (`outline` as in its record, `radiusChord` its
    /// circle's). O(vertices) (one containment test and one distance per edge).
    @inline(never) @usableFromInline
    func outlineChord2(outline: UInt32, radiusChord: Double, _ p: UnitVector) -> Double {
        let polygon = outlines[Int(outline) - 1]
        let d = polygon.boundaryDistance(to: p)
        let c = Swift.max(0, radiusChord + (polygon.contains(p) ? -d : d))
        return c * c
    }

    /// Whether the fence at `slot` has a dwell time.
    @inline(__always) @usableFromInline
    func hasDwell(_ slot: Int) -> Bool { shapes[Int(records[slot].shape)].dwellSeconds != .infinity }

    /// The address of the fence's record, for a prefetch hint.
    @inline(__always) @usableFromInline
    func address(_ slot: Int) -> UnsafeRawPointer { UnsafeRawPointer(records + slot) }
}

/// The kinds of fence a detector's hot loops measure (``GeometryView/chord2(_:_:radiusChord:_:)``):
/// a loop specialised for ``CircleFences`` has no polygon branch, and the detector picks it once
/// per call when it has no outlines.
@usableFromInline
protocol FenceKinds {
    /// Whether every fence is a circle (no record has an outline).
    static var circlesOnly: Bool { get }
}

/// Fences that are all circles.
@usableFromInline
enum CircleFences: FenceKinds {
    @inlinable static var circlesOnly: Bool { true }
}

/// Circles and polygon fences.
@usableFromInline
enum AnyFences: FenceKinds {
    @inlinable static var circlesOnly: Bool { false }
}
