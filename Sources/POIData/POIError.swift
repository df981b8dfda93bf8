import FastCSV

/// A problem found while loading a POI CSV: what, where (1-based physical line where the record
/// starts; 1-based column index and the header name when known) and a message saying what was
/// expected and what was found.
///
/// Row-level reasons (``Reason/isRowLevel``) concern one record: in skip mode the row is dropped
/// and counted under its reason. Every other reason concerns the file (no header, a missing
/// required column, broken quoting, invalid UTF-8, I/O) and always ends the load.
public struct POIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the row or file was rejected. Raw values are the keys of the CLI's JSON output.
    public enum Reason: String, CaseIterable, Hashable, Sendable, Comparable {
        // Row-level.
        /// The record has a different number of fields than the header.
        case fieldCount = "field_count"
        /// `lat` or `lon` is empty.
        case missingCoordinate = "missing_coordinate"
        /// `lat` or `lon` is not a decimal number (`60,17`, `6x.1`).
        case invalidNumber = "invalid_number"
        /// `lat` or `lon` is NaN or infinite.
        case nonFiniteCoordinate = "non_finite_coordinate"
        /// `|lat| > 90`.
        case latitudeOutOfRange = "latitude_out_of_range"
        /// `|lon| > 180`.
        case longitudeOutOfRange = "longitude_out_of_range"
        /// `osm_type` is not `node`, `way` or `relation`.
        case invalidOSMType = "invalid_osm_type"
        /// `osm_id` is not a non-negative integer.
        case invalidOSMID = "invalid_osm_id"
        /// `category` is neither empty nor a ``POICategory`` raw value.
        case invalidCategory = "invalid_category"
        // File-level.
        /// The input has no header line at all (a 0-byte file).
        case emptyInput = "empty_input"
        /// A required column is absent from the header.
        case missingColumn = "missing_column"
        /// Broken quoting (an unterminated quote or text after a closing quote).
        case malformedCSV = "malformed_csv"
        /// Text that is not UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// The file cannot be opened or read.
        case io

        /// True for reasons that reject one row (skippable), false for those that end the load.
        @inlinable
        public var isRowLevel: Bool {
            switch self {
            case .fieldCount, .missingCoordinate, .invalidNumber, .nonFiniteCoordinate, .latitudeOutOfRange,
                .longitudeOutOfRange, .invalidOSMType, .invalidOSMID, .invalidCategory:
                return true
            case .emptyInput, .missingColumn, .malformedCSV, .invalidUTF8, .io:
                return false
            }
        }

        /// Declaration order, for stable reports.
        public static func < (a: Reason, b: Reason) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// Why the row or file was rejected.
    public var reason: Reason
    /// 1-based physical line where the offending record starts (the header is line 1); 0 if unknown.
    public var line: Int
    /// 1-based field index; 0 when the problem concerns no single field.
    public var column: Int
    /// Header name of the column, when there is one.
    public var columnName: String?
    /// What was expected and what was found.
    public var message: String

    /// An error of `reason` at `line` and `column` (1-based; 0 unknown), with the column's header
    /// name when known.
    public init(_ reason: Reason, line: Int, column: Int, columnName: String? = nil, message: String) {
        self.reason = reason
        self.line = line
        self.column = column
        self.columnName = columnName
        self.message = message
    }

    /// A reader or header error, translated.
    init(_ error: CSVError) {
        let reason: Reason
        switch error.kind {
        case .unterminatedQuote, .unexpectedCharacterAfterQuote, .recordTooLong: reason = .malformedCSV
        case .invalidUTF8: reason = .invalidUTF8
        case .missingColumn: reason = .missingColumn
        case .fieldCount: reason = .fieldCount
        case .invalidValue: reason = .invalidNumber
        case .emptyInput: reason = .emptyInput
        case .io: reason = .io
        }
        self.init(reason, line: error.line, column: error.column, columnName: error.columnName, message: error.message)
    }

    /// The column as shown to a user: its header name when known, else its 1-based index.
    public var columnLabel: String { columnName ?? String(column) }

    /// `"SOURCE:LINE:COLUMN: message"`, the compiler-style form of the `geofence` CLI;
    /// `"SOURCE:LINE: message"` when the problem concerns no column (e.g. an empty file).
    public func formatted(source: String) -> String {
        if column == 0 && columnName == nil { return "\(source):\(line): \(message)" }
        return "\(source):\(line):\(columnLabel): \(message)"
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(columnLabel): \(message)" }
}
