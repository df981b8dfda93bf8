#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

/// What a ResponderStore file must be: its application id (SQLite header bytes 68-71), schema
/// version (`user_version`) and the statements that create its tables.
struct SchemaSpec {
    /// What the file is, for messages ("phone queue", "server store").
    var kind: String
    var applicationID: Int32
    var version: Int32
    var createStatements: [String]
}

/// One SQLite connection (not thread-safe: one owner at a time), with the checks every
/// ResponderStore file gets on open.
///
/// Opening: read the header (application id) and the schema before writing anything. An empty
/// database (new file) gets WAL mode and the schema (read-only: it is refused as foreign); one of ours with the right version is used;
/// anything else throws and the file is left as it was. Then WAL journaling and the given
/// `synchronous` level. Errors map SQLite's NOTADB and CORRUPT codes to their own cases.
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer?

    init(
        path: String, schema: SchemaSpec, synchronous: String, verify: Bool, readOnly: Bool = false,
        cacheKibibytes: Int = 2_000, checkpointPages: Int? = nil
    ) throws(ResponderStoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(readOnly ? Self.readOnlyURI(path) : path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        do throws(ResponderStoreError) {
            try adopt(schema, verify: verify, readOnly: readOnly)
            if !readOnly {
                try execute("PRAGMA journal_mode = WAL", operation: "enable WAL")
                try execute("PRAGMA synchronous = \(synchronous)", operation: "set synchronous")
            }
            try execute("PRAGMA cache_size = -\(cacheKibibytes)", operation: "size the page cache")
            if let pages = checkpointPages {
                try execute("PRAGMA wal_autocheckpoint = \(pages)", operation: "set the checkpoint size")
            }
        } catch {
            sqlite3_close_v2(db)
            handle = nil
            throw error
        }
    }

    deinit { sqlite3_close_v2(handle) }

    /// The URI that opens `path` for reading without writing anything beside it: `immutable=1`
    /// (no locks, no `-wal` or `-shm` file created, even in a writable directory) when no
    /// write-ahead log is there; `mode=ro` when one is (a writer may be live, and the log holds
    /// committed transactions that must be read).
    static func readOnlyURI(_ path: String) -> String {
        var encoded = ""
        for ch in path.unicodeScalars {
            switch ch {
            case "%": encoded += "%25"
            case "?": encoded += "%3f"
            case "#": encoded += "%23"
            default: encoded.unicodeScalars.append(ch)
            }
        }
        let hasLog = access(path + "-wal", F_OK) == 0
        return "file:" + encoded + (hasLog ? "?mode=ro" : "?immutable=1")
    }

    private func adopt(_ schema: SchemaSpec, verify: Bool, readOnly: Bool) throws(ResponderStoreError) {
        let applicationID = try scalarInt("PRAGMA application_id", operation: "read the header")
        let tables = try strings(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name",
            operation: "read the schema")
        if applicationID == 0 && tables.isEmpty && !readOnly {
            try execute("PRAGMA journal_mode = WAL", operation: "enable WAL")
            try transaction(operation: "create the schema") { () throws(ResponderStoreError) in
                try execute("PRAGMA application_id = \(schema.applicationID)", operation: "write the application id")
                try execute("PRAGMA user_version = \(schema.version)", operation: "write the schema version")
                for statement in schema.createStatements { try execute(statement, operation: "create the schema") }
            }
            return
        }
        guard applicationID == Int64(schema.applicationID) else {
            let shown = tables.isEmpty ? "no tables" : "tables " + tables.joined(separator: ", ")
            throw .foreignDatabase(path: path, expected: schema.kind, found: "application id \(applicationID), \(shown)")
        }
        let version = try scalarInt("PRAGMA user_version", operation: "read the schema version")
        guard version == Int64(schema.version) else {
            throw .unsupportedVersion(path: path, found: Int32(truncatingIfNeeded: version), supported: schema.version)
        }
        if verify {
            let result = try strings("PRAGMA quick_check(1)", operation: "check the file")
            guard result == ["ok"] else { throw .corrupt(path: path, message: result.joined(separator: "; ")) }
        }
    }

    // MARK: - Statements

    func error(_ code: Int32, _ operation: String) -> ResponderStoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
        switch code & 0xFF {
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_CORRUPT: return .corrupt(path: path, message: message)
        default: return .sqlite(path: path, operation: operation, code: code, message: message)
        }
    }

    func execute(_ sql: String, operation: String) throws(ResponderStoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, operation) }
    }

    func prepare(_ sql: String, operation: String) throws(ResponderStoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, operation) }
        return SQLiteStatement(statement, connection: self, operation: operation)
    }

    /// Runs `body` in `BEGIN IMMEDIATE ... COMMIT`; rolls back and rethrows on any error.
    func transaction<T>(operation: String, _ body: () throws(ResponderStoreError) -> T) throws(ResponderStoreError) -> T {
        try execute("BEGIN IMMEDIATE", operation: operation)
        do throws(ResponderStoreError) {
            let result = try body()
            try execute("COMMIT", operation: operation)
            return result
        } catch {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Rows changed by the last statement.
    var changes: Int32 { sqlite3_changes(handle) }

    func scalarInt(_ sql: String, operation: String) throws(ResponderStoreError) -> Int64 {
        let statement = try prepare(sql, operation: operation)
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    func strings(_ sql: String, operation: String) throws(ResponderStoreError) -> [String] {
        let statement = try prepare(sql, operation: operation)
        var result: [String] = []
        while try statement.step() { result.append(statement.text(0)) }
        return result
    }
}

/// A prepared statement (finalized on deinit). Bind indexes are 1-based, column indexes 0-based
/// (SQLite's convention).
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection
    private let operation: String

    init(_ handle: OpaquePointer, connection: SQLiteConnection, operation: String) {
        self.handle = handle
        self.connection = connection
        self.operation = operation
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    /// Binds a copy of `value` (SQLITE_TRANSIENT).
    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// Steps once: true if a row is available, false when done. Resets the statement when done
    /// or on error, so it can run again.
    func step() throws(ResponderStoreError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw connection.error(rc, operation) }
        return false
    }

    /// Runs a statement that returns no rows.
    func run() throws(ResponderStoreError) {
        while try step() {}
    }

    /// Ends a read early (the statement can run again).
    func reset() { sqlite3_reset(handle) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// The column holds a finite number (stored as REAL or INTEGER, not text, a blob or NULL).
    /// Call before reading the column: reading converts the stored value.
    func isFiniteNumber(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(handle, column)
        return (type == SQLITE_FLOAT || type == SQLITE_INTEGER) && sqlite3_column_double(handle, column).isFinite
    }
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }
}
