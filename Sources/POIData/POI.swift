import Geodesy

/// One point of interest, copied out of a ``POICatalog``.
///
/// `index` is the POI's position in its catalog (0-based, file order of the rows loaded); it is
/// the id the search and the fences use. `osmType` and `osmID` are `nil` when the file has no
/// such column. `tags` holds the non-empty raw tag values (`amenity`, `shop`, `brand`, ...).
public struct POI: Hashable, Sendable {
    /// Position among the POIs loaded (0-based).
    public var index: Int
    /// Position, degrees.
    public var location: LatLng
    /// The POI's name ("" when the file has none).
    public var name: String
    /// Task category, or nil when no rule maps the POI.
    public var category: POICategory?
    /// OSM element type, when the file has the column.
    public var osmType: OSMElementType?
    /// OSM element id, when the file has the column.
    public var osmID: Int64?
    /// The tag columns of the row (key -> value), empty values left out.
    public var tags: [String: String]
    /// 1-based physical line of the row in its file.
    public var line: Int

    /// A POI with these fields.
    public init(
        index: Int, location: LatLng, name: String, category: POICategory?, osmType: OSMElementType?,
        osmID: Int64?, tags: [String: String], line: Int
    ) {
        self.index = index
        self.location = location
        self.name = name
        self.category = category
        self.osmType = osmType
        self.osmID = osmID
        self.tags = tags
        self.line = line
    }
}
