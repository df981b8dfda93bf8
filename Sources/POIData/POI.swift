import Geodesy

/// One point of interest, copied out of a ``POICatalog``.
///
/// `index` is the POI's position in its catalog (0-based, file order of the rows loaded); it is
/// the id the search and the fences use. `osmType` and `osmID` are `nil` when the file has no
/// such column. `tags` holds the non-empty raw tag values (`amenity`, `shop`, `brand`, ...).
public struct POI: Hashable, Sendable {
    public var index: Int
    public var location: LatLng
    public var name: String
    public var category: POICategory?
    public var osmType: OSMElementType?
    public var osmID: Int64?
    public var tags: [String: String]
    /// 1-based physical line of the row in its file.
    public var line: Int

    public init(index: Int, location: LatLng, name: String, category: POICategory?, osmType: OSMElementType?,
                osmID: Int64?, tags: [String: String], line: Int) {
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
