/// A typed error from the CSV reader, the header helper or a numeric row reader.
///
/// `line` is the 1-based physical line of the input where the offending record starts (for an
/// unterminated quote: the line where the quote opened; for a character after a closing quote:
/// the line of that character). `column` is the 1-based field index within the record, or 0
/// when the error concerns no particular field (an I/O error, an empty input).
/// `columnName` is the header name of that column when one is known.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// A quoted field was still open at the end of the input.
        case unterminatedQuote
        /// A character other than `,`, a line break or `"` followed a closing quote.
        case unexpectedCharacterAfterQuote
        /// A field was not valid UTF-8 where a string was asked for.
        case invalidUTF8
        /// A required header column was absent.
        case missingColumn
        /// A record had a different number of fields than expected.
        case fieldCount
        /// A field was not a valid number (or a number out of its allowed range).
        case invalidValue
        /// The input had no records where at least one was required.
        case emptyInput
        /// Opening or reading the input failed; `message` carries the system reason.
        case io
        /// A record (a line, or the lines of a quoted field) longer than the reader's limit
        /// (``CSVReader/maxRecordBytes``); `line` is where the record starts.
        case recordTooLong
    }

    /// What went wrong.
    public var kind: Kind
    /// 1-based physical line (see the type's comment); 0 when unknown.
    public var line: Int
    /// 1-based field index; 0 when the error concerns no single field.
    public var column: Int
    /// Header name of the column, when known.
    public var columnName: String?
    /// What was expected and what was found, in words.
    public var message: String

    /// An error of `kind` at `line` (1-based; 0 unknown) and `column` (1-based field; 0 for none),
    /// with the column's header name when known and a message in words.
    public init(_ kind: Kind, line: Int, column: Int, columnName: String? = nil, message: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.columnName = columnName
        self.message = message
    }

    /// The column as shown to a user: its header name when known, else its 1-based index.
    public var columnLabel: String {
        if let columnName { return columnName }
        return String(column)
    }

    /// `"<source>:LINE:COLUMN: message"`, the compiler-style form used by the `geofence` CLI;
    /// `"<source>:LINE: message"` when the error concerns no column (a record too long).
    public func formatted(source: String) -> String {
        if column == 0 && columnName == nil { return "\(source):\(line): \(message)" }
        return "\(source):\(line):\(columnLabel): \(message)"
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(columnLabel): \(message)" }
}
