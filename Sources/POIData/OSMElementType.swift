/// The kind of OpenStreetMap object a POI came from (the `osm_type` column).
///
/// An OSM id is unique only within its kind: node 5 and way 5 are different objects, so a POI's
/// identity is the pair (type, id).
public enum OSMElementType: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case node
    case way
    case relation

    /// 2-bit code used to pack (type, id) into one 64-bit key.
    @inlinable
    var code: UInt64 {
        switch self {
        case .node: return 0
        case .way: return 1
        case .relation: return 2
        }
    }

    /// `node`, `way` or `relation`.
    public var description: String { rawValue }
}
