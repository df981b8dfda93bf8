#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Responders

/// The service's durable record in SQLite or PostgreSQL, the same SQL for both.
///
/// Tables (see ``Migrations``): `fixes` (every distinct fix once: the primary key
/// `(responder, seq)` drops a copy inside the database), `latest` (each responder's newest fix,
/// replaced only by a newer one, with the reason its latest telemetry gives), `statuses`
/// (written by the leader), `incidents` and `incident_acks`.
///
/// Connections come from a pool, one per request at a time: PostgreSQL gets `poolSize`
/// connections; SQLite one (its writers take turns anyway), so requests on SQLite are served one
/// at a time.
public final class ServiceStore: @unchecked Sendable {
    /// `sqlite:FILE` or `postgresql://...` as given.
    public let location: String
    public let dialect: SQLDialect
    private var idle: [SQLConnection]
    private let lock = ConditionLock()
    private let open: () throws(StoreError) -> SQLConnection

    /// Opens the store named by `location` (`sqlite:FILE`, `postgresql://...` or
    /// `postgres://...`) and applies the migrations it lacks.
    /// - Throws: ``StoreError`` for an unknown scheme, a failed connection or migration.
    public init(_ location: String, poolSize: Int = 4) throws(StoreError) {
        self.location = location
        if location.hasPrefix("sqlite:") {
            let path = String(location.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StoreError("--store", "sqlite: needs a file name") }
            dialect = .sqlite
            open = { () throws(StoreError) -> SQLConnection in try SQLiteDatabase(path: path) }
            idle = [try SQLiteDatabase(path: path)]
        } else if location.hasPrefix("postgresql://") || location.hasPrefix("postgres://") {
            dialect = .postgresql
            open = { () throws(StoreError) -> SQLConnection in try PostgresDatabase(url: location) }
            idle = []
            for _ in 0..<max(1, poolSize) { idle.append(try PostgresDatabase(url: location)) }
        } else {
            throw StoreError("--store", "expected sqlite:FILE or postgresql://..., found '\(location)'")
        }
        try with { (db) throws(StoreError) in try Migrations.apply(to: db) }
    }

    /// A new connection outside the pool (the leader's, which holds the advisory lock for as
    /// long as it lives); nil for SQLite, whose one connection is shared through ``with(_:)``.
    public func dedicatedConnection() throws(StoreError) -> SQLConnection? {
        dialect == .sqlite ? nil : try open()
    }

    /// Runs `body` with a pooled connection; a PostgreSQL connection that broke is replaced.
    public func with<T>(_ body: (SQLConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        while idle.isEmpty { lock.wait() }
        var connection = idle.removeLast()
        lock.unlock()
        defer {
            lock.lock()
            idle.append(connection)
            lock.signal()
            lock.unlock()
        }
        if let pg = connection as? PostgresDatabase, !pg.isHealthy { connection = try open() }
        return try body(connection)
    }

    // MARK: - Ingest

    /// SQL for ``Responders/StoredFix/orderTime`` of the `latest` row `table` (`excluded` or
    /// `latest`): `t`, but no later than `received_at` (one expression for SQLite and PostgreSQL).
    static func orderTime(_ table: String) -> String {
        "(CASE WHEN \(table).t < \(table).received_at THEN \(table).t ELSE \(table).received_at END)"
    }

    /// Stores one batch received at `receivedAt` (seconds) in one transaction: the fixes not
    /// stored yet, the latest location if one of them is newer, the telemetry's reason.
    /// A sequence is stored once, by key: a fix whose sequence is stored already, or a later
    /// copy of a sequence in the batch, is dropped whatever it holds, and moves nothing (the
    /// latest location is always a stored fix).
    /// Returns the sequences that were new now.
    public func ingest(_ batch: LocationBatch, receivedAt: Double) throws(StoreError) -> Set<Int64> {
        let responder = Int64(batch.responder.rawValue)
        var sequences = Set<Int64>()
        let fixes = batch.fixes.filter { sequences.insert($0.sequence).inserted }
        return try with { (db) throws(StoreError) in
            try db.transaction { () throws(StoreError) in
                var stored = Set<Int64>()
                var first = 0
                while first < fixes.count {
                    let chunk = fixes[first..<min(fixes.count, first + 500)]
                    first += chunk.count
                    var sql = "INSERT INTO fixes (responder, seq, t, lat, lon, acc, duty, power, received_at) VALUES "
                    var parameters: [SQLValue] = []
                    parameters.reserveCapacity(chunk.count * 9)
                    for (k, fix) in chunk.enumerated() {
                        let b = k * 9
                        sql +=
                            (k == 0 ? "" : ", ")
                            + "($\(b + 1), $\(b + 2), $\(b + 3), $\(b + 4), $\(b + 5), $\(b + 6), $\(b + 7), $\(b + 8), $\(b + 9))"
                        parameters += [
                            .int(responder), .int(fix.sequence), .double(fix.fix.time), .double(fix.fix.latitude),
                            .double(fix.fix.longitude), .double(fix.fix.accuracy), .text(fix.duty.name),
                            .text(fix.powerMode.name), .double(receivedAt)
                        ]
                    }
                    sql += " ON CONFLICT (responder, seq) DO NOTHING RETURNING seq"
                    for row in try db.query(sql, parameters) { if let s = row[0].int { stored.insert(s) } }
                }
                // A fix stored by an earlier batch was weighed for the latest then.
                let newest = fixes.lazy.filter { stored.contains($0.sequence) }.max {
                    StoredFix(fix: $1, receivedAt: receivedAt).isNewer(than: StoredFix(fix: $0, receivedAt: receivedAt))
                }
                if let fix = newest {
                    try db.query(
                        """
                        INSERT INTO latest (responder, seq, t, lat, lon, acc, duty, power, received_at, reason)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'none')
                        ON CONFLICT (responder) DO UPDATE SET seq = excluded.seq, t = excluded.t, lat = excluded.lat,
                            lon = excluded.lon, acc = excluded.acc, duty = excluded.duty, power = excluded.power,
                            received_at = excluded.received_at
                        WHERE \(Self.orderTime("excluded")) > \(Self.orderTime("latest"))
                            OR (\(Self.orderTime("excluded")) = \(Self.orderTime("latest")) AND excluded.seq > latest.seq)
                        """,
                        [
                            .int(responder), .int(fix.sequence), .double(fix.fix.time), .double(fix.fix.latitude),
                            .double(fix.fix.longitude), .double(fix.fix.accuracy), .text(fix.duty.name),
                            .text(fix.powerMode.name), .double(receivedAt)
                        ])
                }
                if let telemetry = batch.telemetry {
                    try db.query(
                        "UPDATE latest SET reason = $1, reason_at = $2 WHERE responder = $3",
                        [.text(TrackingReason(telemetry).name), .double(receivedAt), .int(responder)])
                }
                return stored
            }
        }
    }

    // MARK: - Reads

    /// A responder's latest fix as stored, with its arrival time and reason.
    public struct Latest: Sendable {
        public var fix: ReportedFix
        public var receivedAt: Double
        public var reason: TrackingReason
        /// The status the leader wrote (unknown before it did).
        public var status: LivenessStatus
    }

    private static let latestColumns = "l.responder, l.seq, l.t, l.lat, l.lon, l.acc, l.duty, l.power, l.received_at, l.reason, s.status"

    /// Latest fixes changed at or after `since` (seconds, by arrival); all with `-infinity`.
    /// - Parameter unreadable: takes each row that cannot be read (written outside the service,
    ///   see ``StoredRow``), which is then left out; without it, such a row throws.
    /// - Throws: ``StoreError`` if the query fails, or naming the first unreadable row when
    ///   `unreadable` is nil.
    public func latest(
        since: Double = -.infinity, on db: SQLConnection? = nil, unreadable: ((StoreError) -> Void)? = nil
    ) throws(StoreError) -> [Latest] {
        let sql =
            "SELECT \(Self.latestColumns) FROM latest l LEFT JOIN statuses s ON s.responder = l.responder"
            + (since.isFinite ? " WHERE l.received_at >= $1 OR l.reason_at >= $1" : "") + " ORDER BY l.responder"
        let parameters: [SQLValue] = since.isFinite ? [.double(since)] : []
        let rows: [[SQLValue]]
        if let db { rows = try db.query(sql, parameters) } else { rows = try with { (db) throws(StoreError) in try db.query(sql, parameters) } }
        var latest: [Latest] = []
        latest.reserveCapacity(rows.count)
        for values in rows {
            do { latest.append(try Self.latest(StoredRow(table: "latest", key: "responder \(values[0].text ?? "NULL")", values: values))) } catch {
                guard let unreadable else { throw error }
                unreadable(error)
            }
        }
        return latest
    }

    private static func latest(_ row: StoredRow) throws(StoreError) -> Latest {
        let r = try row.int(0, "responder")
        guard let responder = ResponderID(rawValue: Int32(exactly: r) ?? -1) else {
            throw row.unreadable(0, "responder", expected: "a responder id")
        }
        // No status yet (the LEFT JOIN's NULL) is unknown; a status that is not a name is unreadable.
        let status: LivenessStatus = row.values[10] == .null ? .unknown : try row.named(10, "status", \.name)
        return Latest(
            fix: ReportedFix(
                responder: responder, sequence: try row.int(1, "seq"),
                fix: try fix(row, time: 2, latitude: 3, longitude: 4, accuracy: 5),
                duty: try row.named(6, "duty", \.name), powerMode: try row.named(7, "power", \.name)),
            receivedAt: try row.double(8, "received_at"), reason: try row.named(9, "reason", \.name), status: status)
    }

    /// The fix in a row's columns `time`, `latitude`, `longitude` and `accuracy`.
    private static func fix(_ row: StoredRow, time: Int, latitude: Int, longitude: Int, accuracy: Int) throws(StoreError) -> LocationFix {
        LocationFix(
            time: try row.double(time, "t"), latitude: try row.double(latitude, "lat", in: -90...90),
            longitude: try row.double(longitude, "lon", in: -180...180), accuracy: try row.double(accuracy, "acc", in: 0...(.greatestFiniteMagnitude))
        )
    }

    /// The stored history of `responder` by sequence: `(fix, received_at)`; with `after`, only
    /// the fixes of a greater sequence, and with `limit`, the first `limit` of them (a page:
    /// the next starts after the last sequence of this one).
    /// - Throws: ``StoreError`` if the query fails, or naming a row that cannot be read
    ///   (``StoredRow``): a history is never returned with a fix left out.
    public func history(of responder: ResponderID, after: Int64 = 0, limit: Int? = nil) throws(StoreError) -> [(ReportedFix, Double)] {
        let rows = try with { (db) throws(StoreError) in
            let select = "SELECT seq, t, lat, lon, acc, duty, power, received_at FROM fixes WHERE responder = $1 AND seq > $2 ORDER BY seq"
            let parameters: [SQLValue] = [.int(Int64(responder.rawValue)), .int(after)]
            if let limit { return try db.query(select + " LIMIT $3", parameters + [.int(Int64(limit))]) }
            return try db.query(select, parameters)
        }
        return try rows.map { (values) throws(StoreError) in
            let row = StoredRow(table: "fixes", key: "responder \(responder.rawValue), seq \(values[0].text ?? "NULL")", values: values)
            return (
                ReportedFix(
                    responder: responder, sequence: try row.int(0, "seq"), fix: try Self.fix(row, time: 1, latitude: 2, longitude: 3, accuracy: 4),
                    duty: try row.named(5, "duty", \.name), powerMode: try row.named(6, "power", \.name)),
                try row.double(7, "received_at")
            )
        }
    }

    /// Rows in `fixes` (for tests and the load bench).
    public func fixCount() throws(StoreError) -> Int {
        Int(try with { (db) throws(StoreError) in try db.query("SELECT count(*) FROM fixes", []) }.first?.first?.int ?? 0)
    }

    // MARK: - Leader writes

    /// Writes status changes (the leader's).
    public func writeStatuses(_ transitions: [LivenessTransition], on db: SQLConnection) throws(StoreError) {
        guard !transitions.isEmpty else { return }
        try db.transaction { () throws(StoreError) in
            for e in transitions {
                try db.query(
                    """
                    INSERT INTO statuses (responder, status, since) VALUES ($1, $2, $3)
                    ON CONFLICT (responder) DO UPDATE SET status = excluded.status, since = excluded.since
                    """, [.int(Int64(e.responder.rawValue)), .text(e.to.name), .double(e.time)])
            }
        }
    }

    // MARK: - Incidents

    /// An incident's state as stored: `pending` until the leader takes it.
    public enum IncidentState: String, CaseIterable, Sendable {
        case pending, offered, assigned, exhausted, closed
    }

    /// An incident as stored.
    public struct StoredIncident: Sendable {
        public var id: Int64
        public var latitude: Double, longitude: Double
        public var ackTimeout: Double
        public var state: IncidentState
        public var offeredTo: Int64?
        public var assignee: Int64?
        /// The trail as a JSON array.
        public var trail: String
    }

    /// Inserts a new incident as `pending`; false if the id exists.
    public func insertIncident(_ request: IncidentRequest, at now: Double) throws(StoreError) -> Bool {
        let rows = try with { (db) throws(StoreError) in
            try db.query(
                """
                INSERT INTO incidents (id, lat, lon, ack_timeout_s, created_at, state, trail)
                VALUES ($1, $2, $3, $4, $5, 'pending', '[]') ON CONFLICT (id) DO NOTHING RETURNING id
                """,
                [
                    .int(request.id), .double(request.location.latitude), .double(request.location.longitude),
                    .double(request.ackTimeout), .double(now)
                ])
        }
        return !rows.isEmpty
    }

    private static let incidentColumns = "id, lat, lon, ack_timeout_s, state, offered_to, assignee, trail"

    private static func incident(_ values: [SQLValue]) throws(StoreError) -> StoredIncident {
        let row = StoredRow(table: "incidents", key: "id \(values[0].text ?? "NULL")", values: values)
        return StoredIncident(
            id: try row.int(0, "id"), latitude: try row.double(1, "lat", in: -90...90), longitude: try row.double(2, "lon", in: -180...180),
            ackTimeout: try row.double(3, "ack_timeout_s", in: 0...(.greatestFiniteMagnitude)),
            state: try row.named(4, "state", \.rawValue), offeredTo: values[5] == .null ? nil : try row.int(5, "offered_to"),
            assignee: values[6] == .null ? nil : try row.int(6, "assignee"), trail: try row.text(7, "trail"))
    }

    /// The incident `id`, nil if none.
    /// - Throws: ``StoreError`` if the query fails or the row cannot be read (``StoredRow``).
    public func incident(_ id: Int64) throws(StoreError) -> StoredIncident? {
        let rows = try with { (db) throws(StoreError) in
            try db.query("SELECT \(Self.incidentColumns) FROM incidents WHERE id = $1", [.int(id)])
        }
        return try rows.first.map { (values) throws(StoreError) in try Self.incident(values) }
    }

    /// Incidents in `states`, by id.
    /// - Parameter unreadable: takes each row that cannot be read, which is then left out;
    ///   without it, such a row throws.
    public func incidents(in states: [IncidentState], on db: SQLConnection, unreadable: ((StoreError) -> Void)? = nil) throws(StoreError)
        -> [StoredIncident]
    {
        let list = states.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        var incidents: [StoredIncident] = []
        for values in try db.query("SELECT \(Self.incidentColumns) FROM incidents WHERE state IN (\(list)) ORDER BY id", []) {
            do { incidents.append(try Self.incident(values)) } catch {
                guard let unreadable else { throw error }
                unreadable(error)
            }
        }
        return incidents
    }

    /// Writes an incident's state, current offer, assignee and trail.
    public func updateIncident(_ incident: StoredIncident, on db: SQLConnection) throws(StoreError) {
        try db.query(
            "UPDATE incidents SET state = $1, offered_to = $2, assignee = $3, trail = $4 WHERE id = $5",
            [
                .text(incident.state.rawValue), incident.offeredTo.map { .int($0) } ?? .null,
                incident.assignee.map { .int($0) } ?? .null, .text(incident.trail), .int(incident.id)
            ])
    }

    /// Records an acknowledgement for the leader to apply; returns its row id.
    public func insertAck(incident: Int64, responder: ResponderID, at now: Double) throws(StoreError) {
        try with { (db) throws(StoreError) in
            try db.query(
                "INSERT INTO incident_acks (incident, responder, at, done) VALUES ($1, $2, $3, 0)",
                [.int(incident), .int(Int64(responder.rawValue)), .double(now)])
        }
    }

    /// Acknowledgements not applied yet: (row id, incident, responder, time), oldest first.
    /// - Parameter unreadable: takes each row that cannot be read, which is then left out;
    ///   without it, such a row throws.
    public func pendingAcks(on db: SQLConnection, unreadable: ((StoreError) -> Void)? = nil) throws(StoreError)
        -> [(Int64, Int64, ResponderID, Double)]
    {
        var acks: [(Int64, Int64, ResponderID, Double)] = []
        for values in try db.query("SELECT ack_id, incident, responder, at FROM incident_acks WHERE done = 0 ORDER BY at, ack_id", []) {
            let row = StoredRow(table: "incident_acks", key: "ack_id \(values[0].text ?? "NULL")", values: values)
            do throws(StoreError) {
                let r = try row.int(2, "responder")
                guard let responder = ResponderID(rawValue: Int32(exactly: r) ?? -1) else {
                    throw row.unreadable(2, "responder", expected: "a responder id")
                }
                acks.append((try row.int(0, "ack_id"), try row.int(1, "incident"), responder, try row.double(3, "at")))
            } catch {
                guard let unreadable else { throw error }
                unreadable(error)
            }
        }
        return acks
    }

    /// Marks an acknowledgement applied, with whether it was accepted.
    public func finishAck(_ id: Int64, accepted: Bool, on db: SQLConnection) throws(StoreError) {
        try db.query("UPDATE incident_acks SET done = $1 WHERE ack_id = $2", [.int(accepted ? 1 : 2), .int(id)])
    }

    /// The outcome of an acknowledgement: nil while pending, else whether it was accepted.
    public func ackOutcome(incident: Int64, responder: ResponderID, at: Double) throws(StoreError) -> Bool? {
        let rows = try with { (db) throws(StoreError) in
            try db.query(
                "SELECT done FROM incident_acks WHERE incident = $1 AND responder = $2 AND at = $3",
                [.int(incident), .int(Int64(responder.rawValue)), .double(at)])
        }
        guard let done = rows.first?.first?.int, done != 0 else { return nil }
        return done == 1
    }
}

/// A mutex with a condition variable.
final class ConditionLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
    func wait() { pthread_cond_wait(&condition, &mutex) }
    func signal() { pthread_cond_signal(&condition) }
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
