/// How ``POICatalog`` reads a POI CSV.
public struct POILoadOptions: Hashable, Sendable {
    /// Header names of the fields.
    public var columns: POIColumns
    /// Tag rules used for rows whose `category` column is absent or empty.
    public var mapping: OSMCategoryMapping
    /// false (default): the first invalid row ends the load with its ``POIError``.
    /// true: invalid rows are skipped and counted by reason in ``POILoadReport``.
    /// File-level problems (no header, missing column, broken quoting, invalid UTF-8) always throw.
    public var skipInvalid: Bool
    /// false (default): a row repeating an earlier (osm_type, osm_id) is reported and dropped.
    /// true: it is reported and kept.
    public var keepDuplicates: Bool

    /// Options: column names, tag mapping and whether bad rows are skipped (counted and reported)
    /// instead of ending the load.
    public init(
        columns: POIColumns = POIColumns(), mapping: OSMCategoryMapping = .standard,
        skipInvalid: Bool = false, keepDuplicates: Bool = false
    ) {
        self.columns = columns
        self.mapping = mapping
        self.skipInvalid = skipInvalid
        self.keepDuplicates = keepDuplicates
    }
}
