import GeoCells

/// A feature's `id`: RFC 7946 allows a number or a string.
public enum GeoJSONFeatureID: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case string(String)

    /// The id as text (integers in decimal).
    public var description: String {
        switch self {
        case .integer(let n): return String(n)
        case .string(let s): return s
        }
    }
}

/// One Polygon or MultiPolygon feature: its position in the collection, its id and the
/// polygon (all rings of all parts as loops of one `Polygon`, as S2's `InitNested` takes them).
public struct GeoJSONFeature: Sendable {
    public let index: Int
    public let id: GeoJSONFeatureID
    public let polygon: Polygon
}
