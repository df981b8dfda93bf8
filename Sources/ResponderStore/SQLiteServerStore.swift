import Responders

/// The server's `ServerStore` in an SQLite file: the history of every distinct fix, and each
/// responder's latest location in a table of its own.
///
/// Schema (application id 0x47465253, version 1):
/// - `fix_history(responder, sequence, time, latitude, longitude, accuracy, duty, power_mode,
///   received_at)` with the constraint `UNIQUE (responder, sequence)`: a second copy is
///   rejected by the database itself (`ON CONFLICT DO NOTHING`), never by a check before it;
/// - `latest_fix(responder PRIMARY KEY, ...)`, replaced by an upsert whose `WHERE` keeps it
///   unless the new fix is later (time, then sequence), so it never moves backwards.
///
/// A batch is one transaction with prepared statements (the history insert per fix, the latest
/// upsert once per responder per batch). WAL with `synchronous = NORMAL`: a crash of the server
/// process loses nothing committed; a power cut may lose the last transactions but never
/// corrupts the file (phones resend what was not acknowledged).
/// Not thread-safe: one owner at a time.
public final class SQLiteServerStore: ServerStore {
    /// The file.
    public let path: String
    private let connection: SQLiteConnection
    private let insertHistory: SQLiteStatement
    private let upsertLatest: SQLiteStatement
    private var newest: [ResponderID: Int] = [:]

    static let schema = SchemaSpec(
        kind: "server store", applicationID: 0x4746_5253, version: 1,
        createStatements: [
            """
            CREATE TABLE fix_history (responder INTEGER NOT NULL, sequence INTEGER NOT NULL, \(FixColumns.declarations),
                received_at REAL NOT NULL, CONSTRAINT one_copy_per_sequence UNIQUE (responder, sequence))
            """,
            "CREATE TABLE latest_fix (responder INTEGER PRIMARY KEY, sequence INTEGER NOT NULL, \(FixColumns.declarations), received_at REAL NOT NULL)"
        ])

    private static let columns = "responder, sequence, \(FixColumns.names), received_at"

    /// Opens (or creates) the store at `path`; `readOnly` opens an existing store for reading
    /// only (a missing file is then ``ResponderStoreError/cannotOpen(path:message:)``, an empty
    /// one foreign, and ``insert(_:isNew:)`` fails).
    /// - Throws: ``ResponderStoreError``: not a database, corrupt, another application's
    ///   database, another schema version. The file is never modified when opening fails.
    public init(path: String, readOnly: Bool = false) throws(ResponderStoreError) {
        self.path = path
        let db = try SQLiteConnection(
            path: path, schema: SQLiteServerStore.schema, synchronous: "NORMAL", verify: false,
            readOnly: readOnly, cacheKibibytes: 65_536, checkpointPages: 16_384)
        insertHistory = try db.prepare(
            """
            INSERT INTO fix_history (\(SQLiteServerStore.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (responder, sequence) DO NOTHING
            """, operation: "insert into the history")
        upsertLatest = try db.prepare(
            """
            INSERT INTO latest_fix (\(SQLiteServerStore.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (responder) DO UPDATE SET sequence = excluded.sequence, time = excluded.time,
                latitude = excluded.latitude, longitude = excluded.longitude, accuracy = excluded.accuracy,
                duty = excluded.duty, power_mode = excluded.power_mode, received_at = excluded.received_at
            WHERE min(excluded.time, excluded.received_at) > min(latest_fix.time, latest_fix.received_at)
                OR (min(excluded.time, excluded.received_at) = min(latest_fix.time, latest_fix.received_at)
                    AND excluded.sequence > latest_fix.sequence)
            """, operation: "update the latest location")
        connection = db
    }

    /// See `ServerStore/insert(_:isNew:)`: one transaction; copies dropped by the constraint.
    /// - Throws: ``ResponderStoreError/invalidValue(path:sequence:field:value:)`` before writing
    ///   anything if a field is not finite; SQLite failures (nothing stored then).
    public func insert(_ arrivals: [StoredFix], isNew: inout [Bool]) throws(ResponderStoreError) -> IngestCounts {
        isNew.removeAll(keepingCapacity: true)
        for arrival in arrivals {
            try FixColumns.check(arrival.fix, path: path)
            guard arrival.receivedAt.isFinite else {
                throw .invalidValue(path: path, sequence: arrival.fix.sequence, field: "received_at", value: arrival.receivedAt)
            }
        }
        newest.removeAll(keepingCapacity: true)
        var counts = IngestCounts()
        do throws(ResponderStoreError) {
            try connection.transaction(operation: "ingest") { () throws(ResponderStoreError) in
                for (k, arrival) in arrivals.enumerated() {
                    let fix = arrival.fix
                    bind(fix, receivedAt: arrival.receivedAt, to: insertHistory)
                    try insertHistory.run()
                    let stored = connection.changes == 1
                    isNew.append(stored)
                    guard stored else {
                        counts.duplicates += 1
                        continue
                    }
                    counts.stored += 1
                    if let best = newest[fix.responder], !arrival.isNewer(than: arrivals[best]) { continue }
                    newest[fix.responder] = k
                }
                for (_, k) in newest {
                    bind(arrivals[k].fix, receivedAt: arrivals[k].receivedAt, to: upsertLatest)
                    try upsertLatest.run()
                    if connection.changes == 1 { counts.latestMoved += 1 }
                }
            }
        } catch {
            isNew = [Bool](repeating: false, count: arrivals.count)
            throw error
        }
        return counts
    }

    private func bind(_ fix: ReportedFix, receivedAt: Double, to statement: SQLiteStatement) {
        statement.bind(1, Int64(fix.responder.rawValue))
        statement.bind(2, fix.sequence)
        FixColumns.bind(fix, to: statement, from: 3)
        statement.bind(9, receivedAt)
    }

    /// The latest location of `responder`, nil if none.
    public func latest(of responder: ResponderID) throws(ResponderStoreError) -> StoredFix? {
        try read("SELECT \(SQLiteServerStore.columns) FROM latest_fix WHERE responder = \(responder.rawValue)").first
    }

    /// Every responder's latest location, by responder id.
    public func allLatest() throws(ResponderStoreError) -> [StoredFix] {
        try read("SELECT \(SQLiteServerStore.columns) FROM latest_fix ORDER BY responder")
    }

    /// Rows in the history.
    public func historyCount() throws(ResponderStoreError) -> Int {
        Int(try connection.scalarInt("SELECT count(*) FROM fix_history", operation: "count the history"))
    }

    /// The history by `received_at`, then responder and sequence.
    public func historyByArrival() throws(ResponderStoreError) -> [StoredFix] {
        try read("SELECT \(SQLiteServerStore.columns) FROM fix_history ORDER BY received_at, responder, sequence")
    }

    private func read(_ sql: String) throws(ResponderStoreError) -> [StoredFix] {
        let statement = try connection.prepare(sql, operation: "read fixes")
        var result: [StoredFix] = []
        while try statement.step() {
            let raw = statement.int64(0)
            guard let responder = ResponderID(rawValue: Int32(truncatingIfNeeded: raw)), raw <= Int64(Int32.max) else {
                throw .corrupt(path: path, message: "responder id \(raw) outside 0...\(Int32.max)")
            }
            let sequence = statement.int64(1)
            guard statement.isFiniteNumber(8) else {
                // A text or non-finite arrival time would also break the order of historyByArrival().
                throw .corrupt(path: path, message: "fix \(sequence) of responder \(raw): received_at is not a finite number")
            }
            let fix = try FixColumns.read(statement, responder: responder, sequence: sequence, from: 2, path: path)
            result.append(StoredFix(fix: fix, receivedAt: statement.double(8)))
        }
        return result
    }
}
