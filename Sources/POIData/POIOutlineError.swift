import GeoJSON

/// Why an outlines file was rejected, or why one of its outlines is not used: the message, the
/// feature's position in the collection (nil for the document), the JSON path of the offending
/// member (`$.features[3].properties.osm_id`), and the 1-based line and column (of the
/// offending byte for a GeoJSON error, of the feature's `{` for a check against the POI rows).
public struct POIOutlineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the expected and the found value.
    public var message: String
    /// JSON path of the offending member.
    public var path: String
    /// 0-based position of the feature in the collection, nil when the document is at fault.
    public var featureIndex: Int?
    /// 1-based line; 0 when the file could not be read.
    public var line: Int
    /// 1-based column in bytes; 0 when the file could not be read.
    public var column: Int

    /// An error about feature `feature` at `path`.
    public init(_ message: String, path: String, featureIndex: Int?, line: Int, column: Int) {
        self.message = message
        self.path = path
        self.featureIndex = featureIndex
        self.line = line
        self.column = column
    }

    /// A GeoJSON reader's error, as it is.
    init(_ error: GeoJSONError) {
        self.init(error.message, path: error.path, featureIndex: error.featureIndex, line: error.line, column: error.column)
    }

    /// `"SOURCE:LINE:COLUMN: feature F at PATH: message"`, the compiler-style form the `geofence`
    /// tools print for GeoJSON input.
    public func formatted(source: String) -> String {
        "\(source):\(line):\(column): \(featureIndex.map { "feature \($0)" } ?? "document") at \(path): \(message)"
    }

    /// `line L, column C: feature F at PATH: message`.
    public var description: String {
        "line \(line), column \(column): \(featureIndex.map { "feature \($0)" } ?? "document") at \(path): \(message)"
    }
}
