/// The durable FIFO under ``PhoneQueue`` and ``SyncOutbox``: rows numbered by a per-file
/// sequence, appended in one transaction, read from the front, deleted through an acknowledged
/// sequence. What a row holds (its columns after `sequence`) is the owner's; the rules are here,
/// once.
///
/// Durability: WAL journaling with `synchronous = FULL`, one transaction per append or
/// acknowledgement. A call that returned has committed: after the process is killed at any
/// instant, reopening finds every row whose append returned, none whose acknowledgement
/// returned, and an interrupted call either wholly done or not at all.
///
/// Sequence numbers start at 1 and strictly increase for the life of the file, across restarts
/// and even when the queue is empty: the last one given out is stored in the same transaction
/// as the rows.
///
/// Schema: `queue_meta(key, value)` holding the owner (under `ownerKey`) and `last_sequence`;
/// the row table `table(sequence INTEGER PRIMARY KEY, columns...)` with a `time` column.
final class DurableQueue {
    /// The file.
    let path: String
    /// The last sequence number given out (0 before the first append).
    private(set) var lastSequence: Int64

    private let connection: SQLiteConnection
    private let insertRow: SQLiteStatement
    private let saveSequence: SQLiteStatement
    private let selectFront: SQLiteStatement
    private let deleteThrough: SQLiteStatement
    private let countRows: SQLiteStatement
    private let selectOldest: SQLiteStatement

    /// Opens (or creates) the queue at `path` for `owner`.
    /// - Throws: ``ResponderStoreError`` from opening (not a database, corrupt, foreign, another
    ///   version) or `mismatch(stored)` when the file belongs to another owner. The file is never
    ///   modified when opening fails.
    init(
        path: String, schema: SchemaSpec, table: String, columnNames: String, columnCount: Int, ownerKey: String, owner: Int64,
        mismatch: (Int64) -> ResponderStoreError
    ) throws(ResponderStoreError) {
        self.path = path
        let db = try SQLiteConnection(path: path, schema: schema, synchronous: "FULL", verify: true)
        let owners = try db.scalarInt("SELECT count(*) FROM queue_meta WHERE key = '\(ownerKey)'", operation: "read the owner")
        if owners == 0 {
            try db.transaction(operation: "write the owner") { () throws(ResponderStoreError) in
                try db.execute("INSERT INTO queue_meta VALUES ('\(ownerKey)', \(owner)), ('last_sequence', 0)", operation: "write the owner")
            }
        } else {
            let stored = try db.scalarInt("SELECT value FROM queue_meta WHERE key = '\(ownerKey)'", operation: "read the owner")
            guard stored == owner else { throw mismatch(stored) }
        }
        lastSequence = try db.scalarInt("SELECT value FROM queue_meta WHERE key = 'last_sequence'", operation: "read the sequence")
        let marks = Array(repeating: "?", count: columnCount + 1).joined(separator: ", ")
        insertRow = try db.prepare("INSERT INTO \(table) (sequence, \(columnNames)) VALUES (\(marks))", operation: "append")
        saveSequence = try db.prepare("UPDATE queue_meta SET value = ? WHERE key = 'last_sequence'", operation: "append")
        selectFront = try db.prepare("SELECT sequence, \(columnNames) FROM \(table) ORDER BY sequence LIMIT ?", operation: "read a batch")
        deleteThrough = try db.prepare("DELETE FROM \(table) WHERE sequence <= ?", operation: "acknowledge")
        countRows = try db.prepare("SELECT count(*) FROM \(table)", operation: "count")
        selectOldest = try db.prepare("SELECT min(time) FROM \(table)", operation: "read the oldest")
        connection = db
    }

    /// Appends `count` rows in one transaction (all or none), numbered from `lastSequence + 1`;
    /// `bind(k, statement)` binds row `k`'s columns from parameter 2. Returns the first number.
    @discardableResult
    func append(count: Int, bind: (Int, SQLiteStatement) -> Void) throws(ResponderStoreError) -> Int64 {
        let first = lastSequence + 1
        guard count > 0 else { return first }
        try connection.transaction(operation: "append") { () throws(ResponderStoreError) in
            for k in 0..<count {
                insertRow.bind(1, first + Int64(k))
                bind(k, insertRow)
                try insertRow.run()
            }
            saveSequence.bind(1, first + Int64(count) - 1)
            try saveSequence.run()
        }
        lastSequence = first + Int64(count) - 1
        return first
    }

    /// Up to `limit` rows from the front, lowest sequence first; `read(statement, sequence)`
    /// reads a row's columns from column 1.
    func peek<Row>(limit: Int, read: (SQLiteStatement, Int64) throws(ResponderStoreError) -> Row) throws(ResponderStoreError) -> [Row] {
        selectFront.bind(1, Int64(max(0, limit)))
        var rows: [Row] = []
        while try selectFront.step() { rows.append(try read(selectFront, selectFront.int64(0))) }
        return rows
    }

    /// Deletes every row with `sequence <= through` (one transaction).
    func acknowledge(through sequence: Int64) throws(ResponderStoreError) {
        try connection.transaction(operation: "acknowledge") { () throws(ResponderStoreError) in
            deleteThrough.bind(1, sequence)
            try deleteThrough.run()
        }
    }

    /// Rows queued.
    func depth() throws(ResponderStoreError) -> Int {
        defer { countRows.reset() }
        guard try countRows.step() else { return 0 }
        return Int(countRows.int64(0))
    }

    /// `time` of the oldest queued row, nil when empty.
    func oldestTime() throws(ResponderStoreError) -> Double? {
        defer { selectOldest.reset() }
        guard try selectOldest.step(), !selectOldest.isNull(0) else { return nil }
        return selectOldest.double(0)
    }
}
