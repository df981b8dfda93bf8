/// Why a GeoJSON document was rejected: what, where in the JSON (a path such as
/// `$.features[3].geometry.coordinates[0][5]`), the feature's position in the collection
/// (nil outside features), and the 1-based line and column of the offending byte.
public struct GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let path: String
    public let featureIndex: Int?
    public let line: Int
    public let column: Int

    public init(message: String, path: String, featureIndex: Int?, line: Int, column: Int) {
        self.message = message
        self.path = path
        self.featureIndex = featureIndex
        self.line = line
        self.column = column
    }

    /// `"SOURCE:LINE:COLUMN: feature F at PATH: message"` (`document` for no feature), the
    /// compiler-style form the tools print for GeoJSON input.
    public func formatted(source: String) -> String {
        "\(source):\(line):\(column): \(featureIndex.map { "feature \($0)" } ?? "document") at \(path): \(message)"
    }

    /// "line L, column C: feature F (PATH): MESSAGE".
    public var description: String {
        let feature = featureIndex.map { "feature \($0) " } ?? ""
        return "line \(line), column \(column): \(feature)(\(path)): \(message)"
    }
}
