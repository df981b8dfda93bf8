import Responders

/// The phone's durable queue of kept fixes, in an SQLite file: append with the next per-device
/// sequence number, read a batch from the front, delete what the server acknowledged.
///
/// Durability: WAL journaling with `synchronous = FULL`, one transaction per append or
/// acknowledgement. A call that returned has committed: after the process is killed at any
/// instant (or the battery dies), reopening finds every fix whose append returned, none whose
/// acknowledgement returned, and an interrupted call either wholly done or not at all. A test
/// kills a writer process with SIGKILL 50+ times to check it.
///
/// Sequence numbers start at 1 and strictly increase for the life of the file, across restarts
/// and even when the queue is empty: the last one given out is stored in the same transaction
/// as the fixes.
///
/// Schema (application id 0x47465051, version 1): `queue_meta(key, value)` holding `responder`
/// and `last_sequence`; `queued_fix(sequence INTEGER PRIMARY KEY, time, latitude, longitude,
/// accuracy, duty, power_mode)`.
///
/// Not thread-safe: one owner at a time (one per process: the file is the unit of sharing).
public final class PhoneQueue: OutboundQueue {
    /// The file.
    public let path: String
    /// Whose fixes these are.
    public let responder: ResponderID
    /// The last sequence number given out (0 before the first append).
    public private(set) var lastSequence: Int64

    private let connection: SQLiteConnection
    private let insertFix: SQLiteStatement
    private let saveSequence: SQLiteStatement
    private let selectFront: SQLiteStatement
    private let deleteThrough: SQLiteStatement
    private let countFixes: SQLiteStatement
    private let selectOldest: SQLiteStatement

    static let schema = SchemaSpec(kind: "phone queue", applicationID: 0x4746_5051, version: 1, createStatements: [
        "CREATE TABLE queue_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
        "CREATE TABLE queued_fix (sequence INTEGER PRIMARY KEY, \(FixColumns.declarations))",
    ])

    /// Opens (or creates) the queue of `responder` at `path`.
    /// - Throws: ``ResponderStoreError``: not a database, corrupt (a quick check runs on open),
    ///   another application's database, another schema version, another responder's queue.
    ///   The file is never modified when opening fails.
    public init(path: String, responder: ResponderID) throws(ResponderStoreError) {
        self.path = path
        self.responder = responder
        let db = try SQLiteConnection(path: path, schema: PhoneQueue.schema, synchronous: "FULL", verify: true)
        let owners = try db.scalarInt("SELECT count(*) FROM queue_meta WHERE key = 'responder'", operation: "read the owner")
        if owners == 0 {
            try db.transaction(operation: "write the owner") { () throws(ResponderStoreError) in
                try db.execute("INSERT INTO queue_meta VALUES ('responder', \(responder.rawValue)), ('last_sequence', 0)",
                               operation: "write the owner")
            }
        } else {
            let stored = try db.scalarInt("SELECT value FROM queue_meta WHERE key = 'responder'", operation: "read the owner")
            guard stored == Int64(responder.rawValue) else {
                throw .responderMismatch(path: path, stored: Int32(truncatingIfNeeded: stored), requested: responder.rawValue)
            }
        }
        lastSequence = try db.scalarInt("SELECT value FROM queue_meta WHERE key = 'last_sequence'", operation: "read the sequence")
        insertFix = try db.prepare("INSERT INTO queued_fix (sequence, \(FixColumns.names)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   operation: "append")
        saveSequence = try db.prepare("UPDATE queue_meta SET value = ? WHERE key = 'last_sequence'", operation: "append")
        selectFront = try db.prepare("SELECT sequence, \(FixColumns.names) FROM queued_fix ORDER BY sequence LIMIT ?",
                                     operation: "read a batch")
        deleteThrough = try db.prepare("DELETE FROM queued_fix WHERE sequence <= ?", operation: "acknowledge")
        countFixes = try db.prepare("SELECT count(*) FROM queued_fix", operation: "count")
        selectOldest = try db.prepare("SELECT min(time) FROM queued_fix", operation: "read the oldest")
        connection = db
    }

    /// Appends one fix taken in `duty`/`powerMode`; returns it with its sequence number.
    @discardableResult
    public func append(_ fix: LocationFix, duty: DutyState, powerMode: PowerMode = .normal) throws(ResponderStoreError) -> ReportedFix {
        try append(contentsOf: [fix], duty: duty, powerMode: powerMode)[0]
    }

    /// Appends fixes in one transaction (all or none), numbered consecutively.
    /// - Throws: ``ResponderStoreError/invalidValue(path:sequence:field:value:)`` before writing if
    ///   a field is not finite; SQLite failures (nothing appended then).
    @discardableResult
    public func append(contentsOf fixes: [LocationFix], duty: DutyState, powerMode: PowerMode = .normal)
        throws(ResponderStoreError) -> [ReportedFix] {
        var numbered: [ReportedFix] = []
        numbered.reserveCapacity(fixes.count)
        for (k, fix) in fixes.enumerated() {
            let reported = ReportedFix(responder: responder, sequence: lastSequence + 1 + Int64(k), fix: fix, duty: duty,
                                       powerMode: powerMode)
            try FixColumns.check(reported, path: path)
            numbered.append(reported)
        }
        guard let last = numbered.last else { return [] }
        try connection.transaction(operation: "append") { () throws(ResponderStoreError) in
            for fix in numbered {
                insertFix.bind(1, fix.sequence)
                FixColumns.bind(fix, to: insertFix, from: 2)
                try insertFix.run()
            }
            saveSequence.bind(1, last.sequence)
            try saveSequence.run()
        }
        lastSequence = last.sequence
        return numbered
    }

    /// Up to `limit` fixes from the front, lowest sequence first.
    public func peek(limit: Int) throws(ResponderStoreError) -> [ReportedFix] {
        selectFront.bind(1, Int64(max(0, limit)))
        var fixes: [ReportedFix] = []
        while try selectFront.step() {
            fixes.append(try FixColumns.read(selectFront, responder: responder, sequence: selectFront.int64(0), from: 1, path: path))
        }
        return fixes
    }

    /// Deletes every fix with `sequence <= through` (one transaction).
    public func acknowledge(through sequence: Int64) throws(ResponderStoreError) {
        try connection.transaction(operation: "acknowledge") { () throws(ResponderStoreError) in
            deleteThrough.bind(1, sequence)
            try deleteThrough.run()
        }
    }

    /// Fixes queued.
    public func depth() throws(ResponderStoreError) -> Int {
        defer { countFixes.reset() }
        guard try countFixes.step() else { return 0 }
        return Int(countFixes.int64(0))
    }

    /// `time` of the oldest queued fix, nil when empty.
    public func oldestTime() throws(ResponderStoreError) -> Double? {
        defer { selectOldest.reset() }
        guard try selectOldest.step(), !selectOldest.isNull(0) else { return nil }
        return selectOldest.double(0)
    }
}
