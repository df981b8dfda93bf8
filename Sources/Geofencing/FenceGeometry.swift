import Geodesy

/// One fence's geometry as the detector reads it: center, radius and band in chord units, dwell
/// seconds (infinity for none).
@usableFromInline
struct FenceGeometry {
    @usableFromInline var center: UnitVector
    @usableFromInline var radiusChord: Double
    @usableFromInline var band: Double
    @usableFromInline var dwellSeconds: Double

    @usableFromInline
    init(center: UnitVector, radiusChord: Double, band: Double, dwellSeconds: Double) {
        self.center = center
        self.radiusChord = radiusChord
        self.band = band
        self.dwellSeconds = dwellSeconds
    }
}

/// The detector's fence geometry by dense slot, in one cache line or less per fence: a 32-byte
/// record per fence (its center and the index of its *shape*) in storage aligned to 64 bytes,
/// and a table of the distinct shapes (radius chord, band and dwell seconds; 24 bytes each).
/// Tiered fences have a handful of shapes (the 1/3/5-mile tiers: three), so the shape table
/// stays in the first-level cache and a look at a fence reads one line of the record table.
/// Fences of all different radii have as many shapes as fences and stay correct, at one more
/// load per look. Immutable after init; the detector holds the table (which owns the storage)
/// and its ``view`` (which reads it).

@usableFromInline
final class FenceGeometryTable: @unchecked Sendable {
    /// A fence's center and shape index: 32 bytes, two to a cache line.
    @usableFromInline
    struct Record {
        @usableFromInline var x: Double
        @usableFromInline var y: Double
        @usableFromInline var z: Double
        @usableFromInline var shape: UInt32
        @usableFromInline var unused: UInt32 = 0
    }

    /// A shape: radius chord, band (chord units) and dwell seconds (infinity for none).
    @usableFromInline
    struct Shape {
        @usableFromInline var radiusChord: Double
        @usableFromInline var band: Double
        @usableFromInline var dwellSeconds: Double
    }

    /// The records, `count` of them, 64-byte aligned.
    @usableFromInline let records: UnsafeMutablePointer<Record>
    /// Number of fences.
    @usableFromInline let count: Int
    /// The distinct shapes, `shapeCount` of them.
    @usableFromInline let shapes: UnsafeMutablePointer<Shape>
    /// Number of distinct shapes.
    @usableFromInline let shapeCount: Int

    /// The table of `geometry` (one value per slot). O(n) expected (shapes deduplicated by hash).
    @usableFromInline
    init(_ geometry: [FenceGeometry]) {
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
            (records + k).initialize(to: Record(x: g.center.x, y: g.center.y, z: g.center.z, shape: index))
        }
        shapeCount = shapes.count
        self.shapes = UnsafeMutablePointer<Shape>.allocate(capacity: Swift.max(1, shapeCount))
        self.shapes.initialize(from: shapes, count: shapeCount)
    }

    deinit {
        records.deinitialize(count: count)
        UnsafeMutableRawPointer(records).deallocate()
        shapes.deinitialize(count: shapeCount)
        shapes.deallocate()
    }

    /// Unchecked access for the hot loops: a value of two pointers, valid while this table lives
    /// (the detector holds both), so reading through it costs no reference counting.
    @usableFromInline
    var view: GeometryView { GeometryView(records: UnsafePointer(records), shapes: UnsafePointer(shapes)) }

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

    @inline(__always) @usableFromInline
    init(records: UnsafePointer<FenceGeometryTable.Record>, shapes: UnsafePointer<FenceGeometryTable.Shape>) {
        self.records = records
        self.shapes = shapes
    }

    /// The geometry of the fence at `slot` (in range: unchecked).
    @inline(__always) @usableFromInline
    subscript(slot: Int) -> FenceGeometry {
        let r = records[slot]
        let s = shapes[Int(r.shape)]
        return FenceGeometry(
            center: UnitVector(x: r.x, y: r.y, z: r.z), radiusChord: s.radiusChord, band: s.band,
            dwellSeconds: s.dwellSeconds)
    }

    /// Whether the fence at `slot` has a dwell time.
    @inline(__always) @usableFromInline
    func hasDwell(_ slot: Int) -> Bool { shapes[Int(records[slot].shape)].dwellSeconds != .infinity }

    /// The address of the fence's record, for a prefetch hint.
    @inline(__always) @usableFromInline
    func address(_ slot: Int) -> UnsafeRawPointer { UnsafeRawPointer(records + slot) }
}
