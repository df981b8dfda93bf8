/// Why a ResponderStore database could not be opened or used. Every case names the file.
///
/// Opening never repairs, resets or overwrites a file it does not recognize: a corrupt or
/// foreign file is left exactly as it was, and the error says what was found.
public enum ResponderStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite could not open the path (missing directory, no permission).
    case cannotOpen(path: String, message: String)
    /// The file is not an SQLite database (random bytes, another format, encrypted).
    case notADatabase(path: String)
    /// The file is an SQLite database whose pages are damaged.
    case corrupt(path: String, message: String)
    /// A valid SQLite database that is not the `expected` kind of file ("phone queue", "server
    /// store"): `found` lists its application id and tables.
    case foreignDatabase(path: String, expected: String, found: String)
    /// One of ours, of a schema version this code does not know.
    case unsupportedVersion(path: String, found: Int32, supported: Int32)
    /// A phone queue created for another responder.
    case responderMismatch(path: String, stored: Int32, requested: Int32)
    /// A fix with a field that is not a finite number (`field` names it: time, latitude,
    /// longitude, accuracy) cannot be stored.
    case invalidValue(path: String, sequence: Int64, field: String, value: Double)
    /// Any other SQLite failure: the operation, SQLite's extended result code and message.
    case sqlite(path: String, operation: String, code: Int32, message: String)

    /// The message, starting with the file's path.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): "\(path): cannot open: \(message)"
        case .notADatabase(let path): "\(path): not an SQLite database (left unchanged)"
        case .corrupt(let path, let message): "\(path): database is corrupt: \(message) (left unchanged)"
        case .foreignDatabase(let path, let expected, let found): "\(path): not a responder \(expected) (\(found)); left unchanged"
        case .unsupportedVersion(let path, let found, let supported):
            "\(path): schema version \(found), this build reads version \(supported) (left unchanged)"
        case .responderMismatch(let path, let stored, let requested):
            "\(path): queue of responder \(stored), opened for responder \(requested)"
        case .invalidValue(let path, let sequence, let field, let value):
            "\(path): fix \(sequence): \(field) is \(value), not a finite number"
        case .sqlite(let path, let operation, let code, let message): "\(path): \(operation) failed (SQLite \(code)): \(message)"
        }
    }
}
