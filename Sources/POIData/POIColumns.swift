/// Which header names hold a POI's fields, so that exports other than this package's OSM CSV
/// can be read. Columns are found by name, never by position.
///
/// `latitude` and `longitude` are always required; `name` is required unless `nameIsOptional`;
/// the OSM type, OSM id and category columns are used when present. Every other column is a
/// raw tag (`amenity`, `shop`, `brand`, `healthcare`, ...) whose values are kept per POI and fed
/// to the ``OSMCategoryMapping``; `tagColumns` restricts that to a chosen list.
public struct POIColumns: Hashable, Sendable {
    /// Latitude column (degrees).
    public var latitude = "lat"
    /// Longitude column (degrees).
    public var longitude = "lon"
    /// Name column.
    public var name = "name"
    /// OSM element type column (`node`, `way`, `relation`).
    public var osmType = "osm_type"
    /// OSM element id column.
    public var osmID = "osm_id"
    /// Explicit category column (overrides the tag mapping when set).
    public var category = "category"
    /// When true, a file without a name column loads with empty names.
    public var nameIsOptional = false
    /// The tag columns to keep (those present in the header); `nil` keeps every column that is
    /// not one of the fields above.
    public var tagColumns: [String]? = nil

    /// The defaults of the OSM POI CSV: `osm_type,osm_id,lat,lon,name,amenity,shop,brand,category`.
    public init() {}

    /// Header names for each field; the defaults are those of Data/README.md.
    public init(
        latitude: String = "lat", longitude: String = "lon", name: String = "name",
        osmType: String = "osm_type", osmID: String = "osm_id", category: String = "category",
        nameIsOptional: Bool = false, tagColumns: [String]? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.osmType = osmType
        self.osmID = osmID
        self.category = category
        self.nameIsOptional = nameIsOptional
        self.tagColumns = tagColumns
    }
}
