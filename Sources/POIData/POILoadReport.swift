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

    /// An empty report.
    public init() {}
}
