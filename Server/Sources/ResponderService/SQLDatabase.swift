import JSON
import CommandSupport

/// A value bound to or read from a SQL statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    /// The value as an integer (PostgreSQL returns text), nil for NULL or a non-number.
    public var int: Int64? {
        switch self {
        case .int(let v): v
        case .double(let v): v.isFinite ? Int64(v) : nil
        case .text(let s): Int64(s) ?? Double(s).flatMap { $0.isFinite ? Int64($0) : nil }
        case .null: nil
        }
    }

    /// The value as a double, nil for NULL or a non-number.
    public var double: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        case .text(let s): Double(s)
        case .null: nil
        }
    }

    /// The value as text, nil for NULL.
    public var text: String? {
        switch self {
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .text(let s): s
        case .null: nil
        }
    }
}

/// A store failure: what was being done and the database's message.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var message: String
    /// Whether the store answered but a row it holds cannot be read (``StoredRow``): asking
    /// again gives the same error, so the service answers 500, not 503.
    public var isUnreadableRow = false
    public init(_ operation: String, _ message: String, isUnreadableRow: Bool = false) {
        self.operation = operation
        self.message = message
        self.isUnreadableRow = isUnreadableRow
    }
    public var description: String { "\(operation): \(message)" }
}

/// Which SQL the connection speaks, where the two differ.
public enum SQLDialect: Sendable {
    case sqlite, postgresql
}

/// One connection to a SQL database, used by one thread at a time. Statements use `$1, $2, ...`
/// placeholders (both SQLite and PostgreSQL read them), numbered in order of first use.
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs `sql` with `parameters`; returns the rows (empty for statements without a result).
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[SQLValue]]
    /// Runs statements without parameters (separated by `;`).
    func execute(_ sql: String) throws(StoreError)
}

extension SQLConnection {
    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do throws(StoreError) {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A JSON string literal (the house JSON writer's escaping).
func jsonString(_ s: String) -> String { JSONObject.string(s) }
