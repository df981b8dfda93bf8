/// Errors of workload reading and writing; each names the file and, for bad rows, the line
/// and column.
public enum WorkloadIOError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case badRow(path: String, line: Int, column: String, message: String)
    case missingColumn(path: String, column: String)
    /// A truth file (`path`) whose row count (`found`) differs from its fixes file's
    /// (`fixesPath`, `expected`).
    case lengthMismatch(path: String, fixesPath: String, expected: Int, found: Int)
    /// A fence id that an earlier row (`firstLine`) already has.
    case duplicateID(path: String, id: Int32, firstLine: Int, line: Int)
    /// A bad polygon feature: `detail` names its line and column, feature index and JSON path,
    /// or the feature and the fence id that does not fit.
    case badFeature(path: String, detail: String)

    /// The file, line and column where there is one, and what was wrong.
    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            // FastCSV's reason already names the file ("cannot open PATH: why"); don't say it twice.
            return reason.hasPrefix("cannot open") ? reason : "cannot open \(path): \(reason)"
        case let .writeFailed(path, reason):
            // FastCSV's reason already names the file when it has one; don't say it twice.
            return reason.hasPrefix("\(path): ") ? reason : "\(path): write failed: \(reason)"
        case let .badRow(path, line, column, message):
            return column.isEmpty ? "\(path):\(line): \(message)" : "\(path):\(line):\(column): \(message)"
        case let .missingColumn(path, column): return "\(path):1: missing column '\(column)' in the header"
        case let .lengthMismatch(path, fixesPath, expected, found):
            return "\(path): has \(found) rows but \(fixesPath) has \(expected); row k must be the truth of fix k"
        case let .duplicateID(path, id, firstLine, line):
            return "\(path):\(line):id: fence id \(id) repeats line \(firstLine)"
        case let .badFeature(path, detail): return "\(path):\(detail)"
        }
    }
}
