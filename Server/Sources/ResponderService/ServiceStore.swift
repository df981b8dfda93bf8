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
    /// Returns the sequences that were new now.
    public func ingest(_ batch: LocationBatch, receivedAt: Double) throws(StoreError) -> Set<Int64> {
        let responder = Int64(batch.responder.rawValue)
        let newest = batch.fixes.max { StoredFix(fix: $1, receivedAt: receivedAt).isNewer(than: StoredFix(fix: $0, receivedAt: receivedAt)) }
        return try with { (db) throws(StoreError) in
            try db.transaction { () throws(StoreError) in
                var stored = Set<Int64>()
                var first = 0
                while first < batch.fixes.count {
                    let chunk = batch.fixes[first..<min(batch.fixes.count, first + 500)]
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
    public func latest(since: Double = -.infinity, on db: SQLConnection? = nil) throws(StoreError) -> [Latest] {
        let sql =
            "SELECT \(Self.latestColumns) FROM latest l LEFT JOIN statuses s ON s.responder = l.responder"
            + (since.isFinite ? " WHERE l.received_at >= $1 OR l.reason_at >= $1" : "") + " ORDER BY l.responder"
        let parameters: [SQLValue] = since.isFinite ? [.double(since)] : []
        let rows: [[SQLValue]]
        if let db { rows = try db.query(sql, parameters) } else { rows = try with { (db) throws(StoreError) in try db.query(sql, parameters) } }
        return rows.compactMap { row in
            guard let r = row[0].int, let responder = ResponderID(rawValue: Int32(clamping: r)), let seq = row[1].int,
                let t = row[2].double, let lat = row[3].double, let lon = row[4].double, let acc = row[5].double,
                let duty = DutyState.allCases.first(where: { $0.name == row[6].text }),
                let power = PowerMode.allCases.first(where: { $0.name == row[7].text }),
                let received = row[8].double
            else { return nil }
            let status = LivenessStatus.allCases.first { $0.name == row[10].text } ?? .unknown
            return Latest(
                fix: ReportedFix(
                    responder: responder, sequence: seq,
                    fix: LocationFix(time: t, latitude: lat, longitude: lon, accuracy: acc),
                    duty: duty, powerMode: power),
                receivedAt: received, reason: TrackingReason(name: row[9].text ?? "") ?? .none, status: status)
        }
    }

    /// The stored history of `responder` by sequence: `(fix, received_at)`; with `after`, only
    /// the fixes of a greater sequence, and with `limit`, the first `limit` of them (a page:
    /// the next starts after the last sequence of this one).
    public func history(of responder: ResponderID, after: Int64 = 0, limit: Int? = nil) throws(StoreError) -> [(ReportedFix, Double)] {
        let rows = try with { (db) throws(StoreError) in
            let select = "SELECT seq, t, lat, lon, acc, duty, power, received_at FROM fixes WHERE responder = $1 AND seq > $2 ORDER BY seq"
            let parameters: [SQLValue] = [.int(Int64(responder.rawValue)), .int(after)]
            if let limit { return try db.query(select + " LIMIT $3", parameters + [.int(Int64(limit))]) }
            return try db.query(select, parameters)
        }
        return rows.compactMap { row in
            guard let seq = row[0].int, let t = row[1].double, let lat = row[2].double, let lon = row[3].double,
                let acc = row[4].double, let received = row[7].double
            else { return nil }
            let duty = DutyState.allCases.first { $0.name == row[5].text } ?? .onDuty
            let power = PowerMode.allCases.first { $0.name == row[6].text } ?? .normal
            return (
                ReportedFix(
                    responder: responder, sequence: seq, fix: LocationFix(time: t, latitude: lat, longitude: lon, accuracy: acc),
                    duty: duty, powerMode: power), received
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

    /// An incident as stored.
    public struct StoredIncident: Sendable {
        public var id: Int64
        public var latitude: Double, longitude: Double
        public var ackTimeout: Double
        /// `pending` (not yet taken by the leader), `offered`, `assigned`, `exhausted`.
        public var state: String
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

    private static func incident(_ row: [SQLValue]) -> StoredIncident? {
        guard let id = row[0].int, let lat = row[1].double, let lon = row[2].double, let timeout = row[3].double,
            let state = row[4].text
        else { return nil }
        return StoredIncident(
            id: id, latitude: lat, longitude: lon, ackTimeout: timeout, state: state,
            offeredTo: row[5].int, assignee: row[6].int, trail: row[7].text ?? "[]")
    }

    /// The incident `id`, nil if none.
    public func incident(_ id: Int64) throws(StoreError) -> StoredIncident? {
        try with { (db) throws(StoreError) in
            try db.query("SELECT \(Self.incidentColumns) FROM incidents WHERE id = $1", [.int(id)])
        }.first.flatMap(Self.incident)
    }

    /// Incidents in `states`, by id.
    public func incidents(in states: [String], on db: SQLConnection) throws(StoreError) -> [StoredIncident] {
        let list = states.map { "'\($0)'" }.joined(separator: ", ")
        return try db.query("SELECT \(Self.incidentColumns) FROM incidents WHERE state IN (\(list)) ORDER BY id", [])
            .compactMap(Self.incident)
    }

    /// Writes an incident's state, current offer, assignee and trail.
    public func updateIncident(_ incident: StoredIncident, on db: SQLConnection) throws(StoreError) {
        try db.query(
            "UPDATE incidents SET state = $1, offered_to = $2, assignee = $3, trail = $4 WHERE id = $5",
            [
                .text(incident.state), incident.offeredTo.map { .int($0) } ?? .null,
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
    public func pendingAcks(on db: SQLConnection) throws(StoreError) -> [(Int64, Int64, ResponderID, Double)] {
        try db.query("SELECT ack_id, incident, responder, at FROM incident_acks WHERE done = 0 ORDER BY at, ack_id", []).compactMap { row in
            guard let id = row[0].int, let incident = row[1].int, let r = row[2].int,
                let responder = ResponderID(rawValue: Int32(clamping: r)), let at = row[3].double
            else { return nil }
            return (id, incident, responder, at)
        }
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
