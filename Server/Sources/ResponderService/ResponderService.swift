import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import Responders

/// The responder backend behind HTTP: routes, authentication, the store, the leader loop and
/// the metrics. See docs/SERVICE.md for the API.
///
/// Any instance ingests and answers; the leader (always, on SQLite; the holder of a PostgreSQL
/// advisory lock otherwise) also runs ``LeaderEngine`` every ``tickInterval`` seconds.
/// Requests are handled on the HTTP server's threads; the leader runs on a thread of its own.
public final class ResponderService: @unchecked Sendable {
    /// This instance's name (`/v1/status`).
    public let instance: String
    public let store: ServiceStore
    private let tokens: TokenTable
    private let regions: [AlertRegion]
    /// Who follows which policy (liveness thresholds, ACK timeouts).
    public let fleets: FleetTable
    private let clock: @Sendable () -> Double
    private let lock = ConditionLock()
    private var metrics = ResponderMetrics()
    private var fixesStored = 0, fixesDuplicate = 0, rejected = [Int: Int]()
    private var leader = false
    private var flapping = 0
    private var stopping = false
    private var leaderThread: pthread_t?
    /// Seconds between leader ticks.
    public let tickInterval: Double
    /// The advisory lock key the leader holds on PostgreSQL.
    public static let leaderLockKey: Int64 = 7_243_502

    /// A service over `store`, authenticating phones by `tokens`, alerting on `regions`, holding
    /// each responder to its policy in `fleets`, reading the time (Unix seconds) from `clock`.
    public init(
        instance: String, store: ServiceStore, tokens: TokenTable, regions: [AlertRegion] = [],
        fleets: FleetTable = FleetTable(), tickInterval: Double = 0.1, clock: @escaping @Sendable () -> Double = unixSeconds
    ) {
        self.instance = instance
        self.store = store
        self.tokens = tokens
        self.regions = regions
        self.fleets = fleets
        self.tickInterval = tickInterval
        self.clock = clock
    }

    /// Whether this instance is the leader now.
    public var isLeader: Bool { lock.locked { leader } }

    // MARK: - Leader loop

    /// Starts the leader loop on a thread of its own.
    public func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { arg in
                let service = Unmanaged<ResponderService>.fromOpaque(arg!).takeRetainedValue()
                service.leaderLoop()
                return nil
            }, box)
        leaderThread = thread
    }

    /// Stops the leader loop (and gives up leadership), waiting for it to end.
    public func stop() {
        lock.locked { stopping = true }
        if let t = leaderThread { pthread_join(t, nil) }
        leaderThread = nil
    }

    private func leaderLoop() {
        var connection: SQLConnection?
        var engine: LeaderEngine?
        let instance = instance
        let leaderLog = { (line: String) in logLine("responder-server \(instance): leader: " + line) }
        while !lock.locked({ stopping }) {
            let started = clock()
            do throws(StoreError) {
                if store.dialect == .sqlite {
                    if engine == nil { engine = LeaderEngine(store: store, fleets: fleets, log: leaderLog) }
                    lock.locked { leader = true }
                    let now = clock()
                    let transitions = try store.with { (db) throws(StoreError) in try engine!.tick(now: now, on: db) }
                    record(transitions, flapping: engine!.flappingCount(now: now))
                } else {
                    if connection == nil { connection = try store.dedicatedConnection() }
                    guard let db = connection as? PostgresDatabase, db.isHealthy else { throw StoreError("leader", "connection lost") }
                    if engine == nil {
                        let got = try db.query("SELECT pg_try_advisory_lock($1)", [.int(Self.leaderLockKey)]).first?.first?.text
                        if got == "t" {
                            engine = LeaderEngine(store: store, fleets: fleets, log: leaderLog)
                            lock.locked { leader = true }
                        }
                    }
                    if let e = engine {
                        let now = clock()
                        record(try e.tick(now: now, on: db), flapping: e.flappingCount(now: now))
                    }
                }
            } catch {
                logLine("responder-server \(instance): leader: \(error)")
                engine = nil
                connection = nil  // closing the connection releases the advisory lock
                lock.locked {
                    leader = false
                    flapping = 0
                }
            }
            let rest = tickInterval - (clock() - started)
            if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
        }
        engine = nil
        connection = nil
        lock.locked { leader = false }
    }

    private func record(_ transitions: [LivenessTransition], flapping: Int) {
        lock.locked {
            metrics.record(transitions)
            self.flapping = flapping
        }
    }

    // MARK: - Routes

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let response: HTTPResponse
        do throws(RequestError) {
            if let refusal = request.refusal { throw refusal }
            response = try route(request)
        } catch {
            lock.locked { rejected[error.status, default: 0] += 1 }
            response = HTTPResponse(error)
        }
        return response
    }

    private func route(_ request: HTTPRequest) throws(RequestError) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // A GET route answers HEAD too (the same status and headers; libmicrohttpd sends no
        // body for HEAD). A 405 names the methods the path takes in its `Allow` header.
        func method(_ allowed: String) throws(RequestError) {
            guard request.method == allowed || (allowed == "GET" && request.method == "HEAD") else {
                throw RequestError(405, "\(request.path) takes \(allowed)", allow: allowed == "GET" ? "GET, HEAD" : allowed)
            }
        }
        do {
            switch parts {
            case []:
                try method("GET")
                return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: try controlRoomPage())
            case ["health"]:
                try method("GET")
                return HTTPResponse(status: 200, contentType: "text/plain", body: "ok")
            case ["metrics"]:
                try method("GET")
                return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: try metricsText())
            case ["v1", "status"]:
                try method("GET")
                return HTTPResponse(status: 200, body: "{\"instance\": \(jsonString(instance)), \"leader\": \(isLeader)}")
            case ["v1", "locations"]:
                try method("POST")
                return try postLocations(request)
            case ["v1", "responders"]:
                try method("GET")
                return try respondersJSON()
            case ["v1", "policy"]:
                try method("GET")
                return try policyJSON(request)
            case let p where p.count == 4 && p[0] == "v1" && p[1] == "responders" && p[3] == "fixes":
                try method("GET")
                guard let id = Int32(p[2]), let responder = ResponderID(rawValue: id) else {
                    throw RequestError(400, field: "path", "'\(p[2])' is not a responder id")
                }
                let after = try queryInteger(request, "after", in: 0...largestExactInteger) ?? 0
                let limit = try queryInteger(request, "limit", in: 1...1_000_000).map(Int.init)
                return try fixesJSON(responder, after: after, limit: limit)
            case ["v1", "incidents"]:
                try method("POST")
                return try postIncident(request)
            case let p where p.count == 3 && p[0] == "v1" && p[1] == "incidents":
                try method("GET")
                return try incidentJSON(try incidentID(p[2]))
            case let p where p.count == 4 && p[0] == "v1" && p[1] == "incidents" && p[3] == "ack":
                try method("POST")
                return try postAck(request, incident: try incidentID(p[2]))
            default:
                throw RequestError(404, "no such path: \(request.path)")
            }
        } catch let error as StoreError where error.isUnreadableRow {
            logLine("responder-server \(instance): \(error)")
            throw RequestError(500, "\(error)")
        } catch let error as StoreError {
            logLine("responder-server \(instance): \(error)")
            throw RequestError(503, "store unavailable: \(error.message)")
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError(500, "\(error)")
        }
    }

    private func incidentID(_ text: String) throws(RequestError) -> Int64 {
        guard let id = Int64(text), id >= 0 else { throw RequestError(400, field: "path", "'\(text)' is not an incident id") }
        return id
    }

    private func postLocations(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let token = bearer(request.authorization), let owner = tokens.responder(for: token) else {
            throw RequestError(401, field: "Authorization", "missing or unknown bearer token")
        }
        let batch = try LocationBatch(body: request.body)
        guard batch.responder == owner else {
            throw RequestError(401, field: "responder", "the token is not responder \(batch.responder.rawValue)'s")
        }
        let now = clock()
        let stored = try store.ingest(batch, receivedAt: now)
        let sequences = Set(batch.fixes.map(\.sequence)).sorted()
        lock.locked {
            // The first copy of each sequence is the one stored (``ServiceStore/ingest(_:receivedAt:)``).
            var observed = Set<Int64>()
            for fix in batch.fixes where stored.contains(fix.sequence) && observed.insert(fix.sequence).inserted {
                metrics.observeDelay(now - fix.fix.time)
            }
            fixesStored += stored.count
            fixesDuplicate += batch.fixes.count - stored.count
        }
        return HTTPResponse(
            status: 200,
            body: "{\"ack\": [\(sequences.map(String.init).joined(separator: ", "))], "
                + "\"stored\": \(stored.count), \"duplicates\": \(batch.fixes.count - stored.count)}")
    }

    /// The calling phone's fleet and policy (its intervals, thresholds and backoff), by its token.
    private func policyJSON(_ request: HTTPRequest) throws(RequestError) -> HTTPResponse {
        guard let token = bearer(request.authorization), let responder = tokens.responder(for: token) else {
            throw RequestError(401, field: "Authorization", "missing or unknown bearer token")
        }
        let fleet = fleets.fleet(of: responder)
        return HTTPResponse(
            status: 200,
            body: "{\"responder\": \(responder.rawValue), \"fleet\": \(fleet.map { jsonString($0.name) } ?? "null"), "
                + "\"policy\": \(FleetFile.json(fleets.policy(of: responder)))}")
    }

    private func respondersJSON() throws -> HTTPResponse {
        let rows = try store.latest()
        var seen = Set<ResponderID>()
        var items: [String] = []
        for row in rows {
            seen.insert(row.fix.responder)
            // The API's four statuses: an off-duty responder is not tracked, so its reachability is unknown.
            let status = row.status == .offDuty ? LivenessStatus.unknown : row.status
            items.append(
                "{\"responder\": \(row.fix.responder.rawValue), \"status\": \"\(status.name)\", "
                    + "\"reason\": \"\(row.reason.name)\", \"lat\": \(JSONObject.number(row.fix.fix.latitude)), "
                    + "\"lon\": \(JSONObject.number(row.fix.fix.longitude)), \"last_fix_t\": \(JSONObject.number(row.fix.fix.time))}")
        }
        for responder in tokens.responders where !seen.contains(responder) {
            items.append(
                "{\"responder\": \(responder.rawValue), \"status\": \"unknown\", \"reason\": \"none\", "
                    + "\"lat\": null, \"lon\": null, \"last_fix_t\": null}")
        }
        return HTTPResponse(status: 200, body: "[" + items.joined(separator: ", ") + "]")
    }

    /// The query argument `name` of `request` as an integer in `range`, nil when absent.
    private func queryInteger(_ request: HTTPRequest, _ name: String, in range: ClosedRange<Int64>) throws(RequestError) -> Int64? {
        guard let text = request.query[name] else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw RequestError(400, field: name, "expected an integer in \(range.lowerBound)...\(range.upperBound), found '\(text)'")
        }
        return value
    }

    private func fixesJSON(_ responder: ResponderID, after: Int64, limit: Int?) throws -> HTTPResponse {
        let items = try store.history(of: responder, after: after, limit: limit).map { fix, received in
            "{\"seq\": \(fix.sequence), \"t\": \(JSONObject.number(fix.fix.time)), \"lat\": \(JSONObject.number(fix.fix.latitude)), "
                + "\"lon\": \(JSONObject.number(fix.fix.longitude)), \"received_at\": \(JSONObject.number(received))}"
        }
        return HTTPResponse(status: 200, body: "[" + items.joined(separator: ", ") + "]")
    }

    /// Waits (polling the store) until `done` returns a value, at most `seconds`.
    private func waitFor<T>(seconds: Double, _ done: () throws -> T?) throws -> T? {
        let deadline = clock() + seconds
        while true {
            if let value = try done() { return value }
            if clock() >= deadline { return nil }
            usleep(20_000)
        }
    }

    private func postIncident(_ request: HTTPRequest) throws -> HTTPResponse {
        var incident = try IncidentRequest(body: request.body)
        if let name = incident.fleet {
            guard let fleet = fleets.fleet(named: name) else {
                throw RequestError(400, field: "fleet", "no fleet '\(name)' (fleets: \(fleets.fleets.map(\.name).joined(separator: ", ")))")
            }
            if !incident.ackTimeoutGiven { incident.ackTimeout = fleet.policy.ackTimeout }
        } else if !incident.ackTimeoutGiven {
            incident.ackTimeout = fleets.defaultPolicy.ackTimeout
        }
        guard try store.insertIncident(incident, at: clock()) else {
            // The same incident posted again (a retry after a lost answer, perhaps through
            // another instance) is answered with the incident as it stands; another one under
            // its id is a conflict.
            if let stored = try store.incident(incident.id), stored.latitude == incident.location.latitude,
                stored.longitude == incident.location.longitude, stored.ackTimeout == incident.ackTimeout
            {
                return HTTPResponse(status: 200, body: "{\"incident\": \(stored.id), \"offered_to\": \(stored.offeredTo.map(String.init) ?? "null")}")
            }
            throw RequestError(409, field: "id", "incident \(incident.id) exists with another location or ACK timeout")
        }
        // The leader takes it within a tick or two (on another instance, perhaps).
        let taken = try waitFor(seconds: 5) { () throws -> ServiceStore.StoredIncident? in
            guard let stored = try store.incident(incident.id), stored.state != .pending else { return nil }
            return stored
        }
        guard let taken else { throw RequestError(503, "no leader took incident \(incident.id) within 5 s; it stays queued") }
        return HTTPResponse(status: 201, body: "{\"incident\": \(incident.id), \"offered_to\": \(taken.offeredTo.map(String.init) ?? "null")}")
    }

    private func postAck(_ request: HTTPRequest, incident: Int64) throws -> HTTPResponse {
        let ack = try AckRequest(body: request.body)
        if let header = request.authorization {
            guard let token = bearer(header), tokens.responder(for: token) == ack.responder else {
                throw RequestError(401, field: "Authorization", "the token is not responder \(ack.responder.rawValue)'s")
            }
        }
        guard try store.incident(incident) != nil else { throw RequestError(404, "no incident \(incident)") }
        let at = clock()
        try store.insertAck(incident: incident, responder: ack.responder, at: at)
        let accepted = try waitFor(seconds: 5) { try store.ackOutcome(incident: incident, responder: ack.responder, at: at) }
        guard let accepted else { throw RequestError(503, "no leader applied the acknowledgement within 5 s") }
        // A retry of an accepted acknowledgement (its answer lost) finds its responder assigned,
        // and is answered as the first was.
        let retried = try !accepted && store.incident(incident)?.assignee == Int64(ack.responder.rawValue)
        guard accepted || retried else {
            throw RequestError(409, field: "responder", "responder \(ack.responder.rawValue) is not being asked for incident \(incident)")
        }
        return try incidentJSON(incident)
    }

    private func incidentJSON(_ id: Int64) throws -> HTTPResponse {
        guard let stored = try store.incident(id) else { throw RequestError(404, "no incident \(id)") }
        let state = stored.state == .pending ? "offered" : stored.state.rawValue
        // Served as stored, so checked first: a row damaged outside the service would make the
        // whole response invalid JSON.
        do { _ = try TrailJSON.decode(stored.trail) } catch {
            throw RequestError(500, "incident \(id): the stored \(error)")
        }
        return HTTPResponse(
            status: 200,
            body: "{\"incident\": \(id), \"state\": \"\(state)\", "
                + "\"assignee\": \(stored.assignee.map(String.init) ?? "null"), "
                + "\"offered_to\": \(stored.offeredTo.map(String.init) ?? "null"), \"ack_timeout_s\": \(JSONObject.number(stored.ackTimeout)), "
                + "\"trail\": \(stored.trail)}")
    }

    // MARK: - Metrics and page

    /// Responders per status and reason, as the store has them; a responder whose latest row
    /// cannot be read counts as unknown, and `unreadable` counts those rows.
    func statusTable() throws -> (counts: [Int], reasons: [[Int]], rows: [ServiceStore.Latest], unreadable: Int) {
        var unreadable = 0
        let rows = try store.latest(unreadable: { _ in unreadable += 1 })
        var counts = [Int](repeating: 0, count: LivenessStatus.allCases.count)
        var reasons = [[Int]](repeating: [Int](repeating: 0, count: TrackingReason.allCases.count), count: counts.count)
        for row in rows {
            counts[Int(row.status.rawValue)] += 1
            reasons[Int(row.status.rawValue)][Int(row.reason.rawValue)] += 1
        }
        let seen = Set(rows.map(\.fix.responder))
        let unseen = tokens.responders.filter { !seen.contains($0) }.count
        counts[Int(LivenessStatus.unknown.rawValue)] += unseen
        reasons[Int(LivenessStatus.unknown.rawValue)][Int(TrackingReason.none.rawValue)] += unseen
        return (counts, reasons, rows, unreadable)
    }

    func metricsText() throws -> String {
        let table = try statusTable()
        var text = lock.locked { metrics.prometheusText(statusCounts: table.counts, reasonCounts: table.reasons) }
        if !regions.isEmpty {
            text += "# HELP responders_by_region Active responders in each alert region by liveness status.\n"
            text += "# TYPE responders_by_region gauge\n"
            for region in regions {
                var counts = [LivenessStatus: Int]()
                for row in table.rows {
                    let p = LatLng(uncheckedLatitude: row.fix.fix.latitude, longitude: row.fix.fix.longitude)
                    if region.contains(p) { counts[row.status, default: 0] += 1 }
                }
                for status in [LivenessStatus.online, .degraded, .offline] {
                    text += "responders_by_region{region=\(prometheusLabelValue(region.name)),status=\"\(status.name)\"} \(counts[status] ?? 0)\n"
                }
            }
        }
        let (stored, duplicate, leading, refused, flaps) = lock.locked { (fixesStored, fixesDuplicate, leader, rejected, flapping) }
        text +=
            "# HELP responder_store_rows_unreadable Latest rows in the store that cannot be read (written outside the service); those responders count as unknown.\n"
        text += "# TYPE responder_store_rows_unreadable gauge\nresponder_store_rows_unreadable \(table.unreadable)\n"
        text += "# HELP responders_flapping Responders that went OFFLINE 3 times within 15 minutes (counted by the leader; 0 elsewhere).\n"
        text += "# TYPE responders_flapping gauge\nresponders_flapping \(flaps)\n"
        text += "# HELP responder_server_leader 1 while this instance is the leader.\n# TYPE responder_server_leader gauge\n"
        text += "responder_server_leader \(leading ? 1 : 0)\n"
        text += "# HELP fixes_received_total Fixes received by this instance, by outcome.\n# TYPE fixes_received_total counter\n"
        text += "fixes_received_total{outcome=\"stored\"} \(stored)\nfixes_received_total{outcome=\"duplicate\"} \(duplicate)\n"
        text += "# HELP requests_rejected_total Requests this instance refused, by HTTP status.\n# TYPE requests_rejected_total counter\n"
        for code in [400, 401, 404, 405, 409, 413, 500, 503] {
            text += "requests_rejected_total{code=\"\(code)\"} \(refused[code] ?? 0)\n"
        }
        return text
    }

    private func controlRoomPage() throws -> String {
        let table = try statusTable()
        let incidents = try store.with { (db) throws(StoreError) in try store.incidents(in: [.pending, .offered, .assigned], on: db) }
        return ControlRoomPage(
            instance: instance, leader: isLeader, counts: table.counts, responders: table.rows,
            incidents: incidents
        ).html
    }
}

/// `s` as a quoted label value of Prometheus's text format: a backslash, a double quote and a
/// line feed escaped (`\\`, `\"`, `\n`), every other character as it is (the format has no other
/// escapes: JSON's `\t` or `\u0009` would make the whole scrape unreadable).
func prometheusLabelValue(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// The token of an `Authorization: Bearer TOKEN` header; the scheme's name in any case (RFC 9110
/// 11.1: "a case-insensitive token"), the token as sent. Nil for another scheme or no token.
private func bearer(_ header: String?) -> String? {
    guard let header, header.utf8.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
    let token = header.dropFirst("Bearer ".count).trimmingCharacters(in: " ")
    return token.isEmpty ? nil : token
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(self.drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// Writes `line` and a newline to standard error.
public func logLine(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Seconds since 1970 (the clock phones stamp fixes with).
@Sendable public func unixSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
