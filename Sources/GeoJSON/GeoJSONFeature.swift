import GeoCells
import JSON

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

/// One Polygon or MultiPolygon feature: its position in the collection, its id, the polygon
/// (all rings of all parts as loops of one `Polygon`, as S2's `InitNested` takes them), its
/// `properties`, and where it is (its JSON path, and the 1-based line and column of its `{`),
/// so that a check made after reading can name the feature as the reader's own errors do.
public struct GeoJSONFeature: Sendable {
    /// 0-based position in the collection (0 for a lone Feature).
    public let index: Int
    public let id: GeoJSONFeatureID
    public let polygon: Polygon
    /// The `properties` member: an object, or `.null` when it is null or absent.
    public let properties: JSONValue
    /// JSON path of the feature object: `$.features[3]`, or `$` for a lone Feature.
    public let path: String
    /// 1-based line of the feature's opening brace.
    public let line: Int
    /// 1-based column (in bytes) of the feature's opening brace.
    public let column: Int
}
