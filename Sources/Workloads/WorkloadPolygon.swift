import Geodesy

/// One polygon fence of a workload, written as feature `id` of `polygons.geojson`; its row in
/// `fences.csv` (same id) is its enclosing circle, which contains it.
///
/// Invariants: `rings` is a valid polygon (``WorkloadGenerator`` checks each with GeoCells'
/// `Polygon`): the shell first (counter-clockwise), then its holes (clockwise), every ring
/// open and every coordinate rounded to 1e-7 degrees, so the polygon written and read back is
/// the polygon generated, and inside/outside of a truth position is decided exactly on both.
public struct WorkloadPolygon: Hashable, Sendable {
    /// What the shape stands for, and so its size.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// 25-80 m from the center to its outermost vertex, 6-12 vertices.
        case building
        /// 150-450 m, 8-20 vertices.
        case campus
        /// 300-1,200 m, 10-28 vertices.
        case park
    }

    /// Fence id (the feature's integer `id`).
    public var id: Int32
    /// The kind of place (the feature's property `kind`).
    public var kind: Kind
    /// Shell, then holes; degrees, open rings.
    public var rings: [[LatLng]]

    /// A polygon fence with these fields, as given.
    public init(id: Int32, kind: Kind, rings: [[LatLng]]) {
        self.id = id
        self.kind = kind
        self.rings = rings
    }
}
