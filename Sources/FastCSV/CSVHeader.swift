/// A header record: column names and a lookup from name to 0-based column index.
///
/// Names are the header fields as read (a BOM is already stripped by the reader). Lookups are
/// exact (case-sensitive) unless stated otherwise. If a name occurs twice, the first wins.
public struct CSVHeader: Sendable, Equatable {
    /// Column names in file order.
    public let names: [String]
    /// 1-based physical line of the header record (for error messages).
    public let line: Int
    let indexByName: [String: Int]

    /// Builds a header from names.
    public init(names: [String], line: Int = 1) {
        self.names = names
        self.line = line
        var map: [String: Int] = [:]
        for (i, name) in names.enumerated() where map[name] == nil { map[name] = i }
        indexByName = map
    }

    /// Reads the header from a record.
    /// - Throws: ``CSVError`` `.invalidUTF8` if a name is not UTF-8, `.invalidValue` if a name
    ///   holds a byte-order mark (U+FEFF): a file with two BOMs, or files joined after their
    ///   BOMs, would otherwise lose that column silently (`\u{FEFF}osm_type` is not `osm_type`).
    public init(_ record: CSVRecord) throws(CSVError) {
        let names = try record.fields
        if let k = names.firstIndex(where: { $0.unicodeScalars.contains("\u{FEFF}") }) {
            throw CSVError(
                .invalidValue, line: record.line, column: k + 1,
                message: "header name \"\(MessageText.clipped(names[k]))\" holds a byte-order mark (U+FEFF)")
        }
        self.init(names: names, line: record.line)
    }

    /// Reads the first record of `reader` as the header.
    /// - Throws: ``CSVError`` `.emptyInput` if the input has no record at all, or a reader error.
    public init(reading reader: CSVReader) throws(CSVError) {
        guard let record = try reader.nextRecord() else {
            throw CSVError(.emptyInput, line: 1, column: 0, message: "expected a header line, found an empty input")
        }
        try self.init(record)
    }

    /// Whether `record`, the first of an input whose header line is optional, is a header: none
    /// of its fields is a number (`parseDouble(_:allowingNonFinite:)` with non-finite values
    /// allowed, so `nan` counts as a number). A headerless first row carries coordinates, so it
    /// always has a number; a header of names never does.
    public static func isHeader(_ record: CSVRecord) -> Bool {
        for field in 0..<record.count where parseDouble(record[field], allowingNonFinite: true) != nil { return false }
        return true
    }

    /// The 0-based index of column `name`, or `nil`.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The 0-based index of column `name`.
    /// - Throws: ``CSVError`` `.missingColumn` at the header's line naming the column.
    public func requireIndex(of name: String) throws(CSVError) -> Int {
        guard let i = indexByName[name] else {
            throw CSVError(
                .missingColumn, line: line, column: 0, columnName: name,
                message: "expected a column named \"\(name)\" in the header, found \(names.joined(separator: ","))")
        }
        return i
    }

    /// The 0-based indexes of `required` columns, in the order asked.
    /// - Throws: ``CSVError`` `.missingColumn` for the first absent one.
    public func requireIndexes(of required: [String]) throws(CSVError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(required.count)
        for name in required { result.append(try requireIndex(of: name)) }
        return result
    }
}
