import CSQLite

/// A ``SQLConnection`` to an SQLite file (the OS's libsqlite3): WAL, `synchronous = NORMAL`,
/// a 5 s busy timeout. Prepared statements are cached by their text.
public final class SQLiteDatabase: SQLConnection {
    public let path: String
    public var dialect: SQLDialect { .sqlite }
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (or creates) the file at `path`.
    public init(path: String) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError("open \(path)", message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
    }

    deinit {
        for (_, statement) in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private var message: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    public func execute(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw StoreError(sql.prefix(60).description, message) }
    }

    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[SQLValue]] {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK,
                let prepared
            else { throw StoreError("prepare " + sql.prefix(60), message) }
            if statements.count > 200 {
                for (_, s) in statements { sqlite3_finalize(s) }
                statements.removeAll()
            }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (k, value) in parameters.enumerated() {
            let index = Int32(k + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .int(let v): sqlite3_bind_int64(statement, index, v)
            case .double(let v): sqlite3_bind_double(statement, index, v)
            case .text(let s):
                // SQLITE_TRANSIENT: SQLite copies the text.
                sqlite3_bind_text(statement, index, s, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
        var rows: [[SQLValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw StoreError(sql.prefix(60).description, message) }
            let n = sqlite3_column_count(statement)
            var row: [SQLValue] = []
            row.reserveCapacity(Int(n))
            for c in 0..<n {
                switch sqlite3_column_type(statement, c) {
                case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(statement, c)))
                case SQLITE_FLOAT: row.append(.double(sqlite3_column_double(statement, c)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(sqlite3_column_text(statement, c).map { String(cString: $0) } ?? ""))
                }
            }
            rows.append(row)
        }
        return rows
    }
}
