/// Reads rows of a fixed set of numeric columns (e.g. `lat,lon`) with an optional header line.
///
/// The first record is a header when none of its fields is a number and its names, trimmed of
/// spaces and compared case-insensitively, are exactly the expected column names in some order
/// (then columns are matched by name). Otherwise the first record is data and columns are in the
/// expected order. Every data row must have exactly `columns.count` fields, each a decimal number
/// accepted by `parseDouble(_:allowingNonFinite:)` (so `NaN` and `inf` are rejected; an
/// overflowing decimal such as `1e999` parses to infinity and is left to the caller to reject).
///
/// Row errors (kinds `.fieldCount` and `.invalidValue`) leave the reader ready for the next row,
/// so a caller may skip the row and continue; errors from the reader itself (an unterminated
/// quote, a character after a closing quote, I/O) are final: every later call throws them again.
/// ``CSVError/columnName`` is set to the expected column's name where there is one.
public final class CSVNumericReader {
    /// Expected column names, in the order of ``values``.
    public let columns: [String]
    /// The values of the last row read, in the order of ``columns``.
    public private(set) var values: [Double]
    /// 1-based physical line of the last row read.
    public private(set) var line = 0
    /// Whether the input began with a header line (known after the first call to ``next()``).
    public private(set) var hasHeader = false

    let reader: CSVReader
    /// `fieldOfColumn[k]` is the field index holding `columns[k]`.
    var fieldOfColumn: [Int]
    /// Column names in file order (for messages).
    var fileOrderNames: [String]
    var sawFirstRecord = false

    /// Reads the columns named `columns` (at least one), in that order, from `reader`; a header
    /// line naming them is optional.
    public init(reader: CSVReader, columns: [String]) {
        precondition(!columns.isEmpty, "at least one column")
        self.reader = reader
        self.columns = columns
        values = Array(repeating: 0, count: columns.count)
        fieldOfColumn = Array(0..<columns.count)
        fileOrderNames = columns
    }

    /// Reads the next data row into ``values``.
    /// - Returns: `false` at the end of the input.
    /// - Throws: ``CSVError`` naming the line and the column of the first bad field.
    public func next() throws(CSVError) -> Bool {
        guard var record = try reader.nextRecord() else { return false }
        if !sawFirstRecord {
            sawFirstRecord = true
            if let order = headerOrder(record) {
                hasHeader = true
                fieldOfColumn = order
                var names = columns
                for (k, field) in order.enumerated() { names[field] = columns[k] }
                fileOrderNames = names
                guard let next = try reader.nextRecord() else { return false }
                record = next
            }
        }
        line = record.line
        let expected = columns.count
        let list = fileOrderNames.joined(separator: ",")
        if record.count < expected {
            throw CSVError(
                .fieldCount, line: record.line, column: record.count + 1,
                columnName: fileOrderNames[record.count],
                message: "expected \(expected) fields (\(list)), found \(record.count)")
        }
        if record.count > expected {
            throw CSVError(
                .fieldCount, line: record.line, column: expected + 1,
                message: "expected \(expected) fields (\(list)), found \(record.count)")
        }
        for k in 0..<expected {
            let field = fieldOfColumn[k]
            guard let value = parseDouble(record[field]) else {
                let nonFinite = parseDouble(record[field], allowingNonFinite: true) != nil
                throw CSVError(
                    .invalidValue, line: record.line, column: field + 1,
                    columnName: fileOrderNames[field],
                    message: "expected a \(nonFinite ? "finite " : "")decimal number, found \(quoted(record, field))")
            }
            values[k] = value
        }
        return true
    }

    /// If `record` is a header of exactly the expected names, the field index of each column.
    func headerOrder(_ record: CSVRecord) -> [Int]? {
        guard record.count == columns.count, CSVHeader.isHeader(record) else { return nil }
        var order = Array(repeating: -1, count: columns.count)
        for field in 0..<record.count {
            let name = normalize(record.lossyString(at: field))
            guard let k = columns.firstIndex(where: { normalize($0) == name }), order[k] < 0 else { return nil }
            order[k] = field
        }
        return order
    }

    func normalize(_ name: String) -> String {
        String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()).lowercased()
    }

    /// The field as shown in a message: in double quotes, shortened past 40 bytes.
    func quoted(_ record: CSVRecord, _ field: Int) -> String {
        "\"" + MessageText.clipped(record[field]) + "\""
    }
}
