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

    public init(columns: POIColumns = POIColumns(), mapping: OSMCategoryMapping = .standard,
                skipInvalid: Bool = false, keepDuplicates: Bool = false) {
        self.columns = columns
        self.mapping = mapping
        self.skipInvalid = skipInvalid
        self.keepDuplicates = keepDuplicates
    }
}

/// What happened while loading: rows read, rows skipped by reason, duplicates.
public struct POILoadReport: Hashable, Sendable {
    /// Data records read (the header excluded), loaded or not.
    public var rowsRead = 0
    /// Skipped rows per row-level reason (skip mode only).
    public var skipped: [POIError.Reason: Int] = [:]
    /// The first ``maxRecordedErrors`` skipped rows' errors, in file order.
    public var skippedErrors: [POIError] = []
    /// Every repeated (osm_type, osm_id), in file order.
    public var duplicates: [POIDuplicate] = []

    /// 1,000 messages are more than anyone reads; counts stay exact beyond them.
    public static let maxRecordedErrors = 1_000

    /// Total rows skipped.
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    public init() {}
}
