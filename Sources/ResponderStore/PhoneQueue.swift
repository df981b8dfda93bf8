import Responders

/// The phone's durable queue of kept fixes, in an SQLite file: append with the next per-device
/// sequence number, read a batch from the front, delete what the server acknowledged.
///
/// Durability and numbering are `DurableQueue`'s (shared with ``SyncOutbox``): a call that
/// returned has committed, after the process is killed at any instant (or the battery dies); an
/// interrupted call is wholly done or not at all. A test kills a writer process with SIGKILL
/// 50+ times to check it. Sequence numbers start at 1 and strictly increase for the life of the
/// file, across restarts and even when the queue is empty.
///
/// Schema (application id 0x47465051, version 1): `queue_meta(key, value)` holding `responder`
/// and `last_sequence`; `queued_fix(sequence INTEGER PRIMARY KEY, time, latitude, longitude,
/// accuracy, duty, power_mode)`.
///
/// Not thread-safe: one owner at a time (one per process: the file is the unit of sharing).
public final class PhoneQueue: OutboundQueue {
    /// The file.
    public var path: String { queue.path }
    /// Whose fixes these are.
    public let responder: ResponderID
    /// The last sequence number given out (0 before the first append).
    public var lastSequence: Int64 { queue.lastSequence }

    private let queue: DurableQueue

    static let schema = SchemaSpec(
        kind: "phone queue", applicationID: 0x4746_5051, version: 1,
        createStatements: [
            "CREATE TABLE queue_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
            "CREATE TABLE queued_fix (sequence INTEGER PRIMARY KEY, \(FixColumns.declarations))"
        ])

    /// Opens (or creates) the queue of `responder` at `path`.
    /// - Throws: ``ResponderStoreError``: not a database, corrupt (a quick check runs on open),
    ///   another application's database, another schema version, another responder's queue.
    ///   The file is never modified when opening fails.
    public init(path: String, responder: ResponderID) throws(ResponderStoreError) {
        self.responder = responder
        queue = try DurableQueue(
            path: path, schema: PhoneQueue.schema, table: "queued_fix", columnNames: FixColumns.names,
            columnCount: 6, ownerKey: "responder", owner: Int64(responder.rawValue)
        ) { stored in
            .responderMismatch(path: path, stored: Int32(truncatingIfNeeded: stored), requested: responder.rawValue)
        }
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
        throws(ResponderStoreError) -> [ReportedFix]
    {
        var numbered: [ReportedFix] = []
        numbered.reserveCapacity(fixes.count)
        for (k, fix) in fixes.enumerated() {
            let reported = ReportedFix(
                responder: responder, sequence: lastSequence + 1 + Int64(k), fix: fix, duty: duty,
                powerMode: powerMode)
            try FixColumns.check(reported, path: path)
            numbered.append(reported)
        }
        try queue.append(count: numbered.count) { k, statement in FixColumns.bind(numbered[k], to: statement, from: 2) }
        return numbered
    }

    /// Up to `limit` fixes from the front, lowest sequence first.
    public func peek(limit: Int) throws(ResponderStoreError) -> [ReportedFix] {
        let (responder, path) = (self.responder, self.path)
        return try queue.peek(limit: limit) { (statement, sequence) throws(ResponderStoreError) in
            try FixColumns.read(statement, responder: responder, sequence: sequence, from: 1, path: path)
        }
    }

    /// Deletes every fix with `sequence <= through` (one transaction).
    public func acknowledge(through sequence: Int64) throws(ResponderStoreError) { try queue.acknowledge(through: sequence) }

    /// Fixes queued.
    public func depth() throws(ResponderStoreError) -> Int { try queue.depth() }

    /// `time` of the oldest queued fix, nil when empty.
    public func oldestTime() throws(ResponderStoreError) -> Double? { try queue.oldestTime() }
}
