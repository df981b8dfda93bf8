import FastCSV
import Responders

/// Bearer tokens of the phones: CSV `responder,token` (a header line `responder,token` is
/// optional), one token per responder, each token once.
public struct TokenTable: Sendable {
    private var byToken: [String: ResponderID] = [:]
    /// Responders with a token, by id.
    public private(set) var responders: [ResponderID] = []

    /// A table of `(responder, token)` pairs.
    /// - Precondition: no token twice.
    public init(_ pairs: [(ResponderID, String)]) {
        for (responder, token) in pairs {
            precondition(byToken[token] == nil, "token given twice")
            byToken[token] = responder
        }
        responders = Set(pairs.map(\.0)).sorted()
    }

    /// Reads the CSV file at `path`.
    /// - Throws: ``StoreError`` (operation `--tokens`) naming the file, line and column of the
    ///   first bad row (`FILE:LINE[:COLUMN]: message`), or the file when it cannot be opened.
    public init(path: String) throws(StoreError) {
        var pairs: [(ResponderID, String)] = []
        var seen = Set<String>()
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            while let record = try reader.nextRecord() {
                if record.line == 1, record.count == 2, record.field(0, equals: "responder") { continue }
                guard record.count == 2 else {
                    throw CSVError(.fieldCount, line: record.line, column: 0, message: "expected 2 fields (responder,token), found \(record.count)")
                }
                guard let id = record.int64(at: 0), id >= 0, id <= Int64(Int32.max) else {
                    throw CSVError(.invalidValue, line: record.line, column: 1, message: "responder must be an integer in 0...\(Int32.max)")
                }
                let token = try record.string(at: 1)
                guard !token.isEmpty, !token.contains(" ") else {
                    throw CSVError(.invalidValue, line: record.line, column: 2, message: "a token must be non-empty without spaces")
                }
                guard seen.insert(token).inserted else { throw CSVError(.invalidValue, line: record.line, column: 2, message: "token given twice") }
                pairs.append((ResponderID(Int(id)), token))
            }
        } catch {
            // An open failure has no line, and its message names the file already.
            throw StoreError("--tokens", error.line == 0 ? error.message : error.formatted(source: path))
        }
        self.init(pairs)
    }

    /// The responder a token belongs to, nil if none.
    public func responder(for token: String) -> ResponderID? { byToken[token] }
}
