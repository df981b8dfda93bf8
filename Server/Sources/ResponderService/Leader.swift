import JSON
import Geodesy
import Responders

/// A ``ServerStore`` that keeps only each responder's latest fix: the leader's view, fed with
/// the latest fixes the database already deduplicated. A fix is new when it is newer than the
/// one kept.
struct LatestOnlyStore: ServerStore {
    private var latestByResponder: [ResponderID: StoredFix] = [:]

    mutating func insert(_ arrivals: [StoredFix], isNew: inout [Bool]) -> IngestCounts {
        isNew.removeAll(keepingCapacity: true)
        var counts = IngestCounts()
        for arrival in arrivals {
            if let old = latestByResponder[arrival.fix.responder], !arrival.isNewer(than: old) {
                isNew.append(false)
                counts.duplicates += 1
                continue
            }
            latestByResponder[arrival.fix.responder] = arrival
            isNew.append(true)
            counts.stored += 1
            counts.latestMoved += 1
        }
        return counts
    }
    func latest(of responder: ResponderID) -> StoredFix? { latestByResponder[responder] }
    func allLatest() -> [StoredFix] { latestByResponder.values.sorted { $0.fix.responder < $1.fix.responder } }
    func historyCount() -> Int { latestByResponder.count }
    func historyByArrival() -> [StoredFix] { allLatest() }
}

/// The leader's work, one ``tick(now:on:)`` at a time: read the latest fixes that changed, run the
/// liveness deadlines, start new incidents, apply acknowledgements, run ACK timeouts, hand on
/// incidents whose holder went OFFLINE, and write statuses and incidents back. Every decision is
/// the Responders library's (``ResponderServer``, ``IncidentAssignment``); this type moves rows.
///
/// A new leader starts empty and rebuilds from the store on its first tick: every latest fix
/// (so the deadlines are those of the stored fixes) and every open incident (resumed from its
/// trail).
final class LeaderEngine {
    private let store: ServiceStore
    private var server: ResponderServer<LatestOnlyStore>
    private var assignments: [Int64: IncidentAssignment] = [:]
    private var lastPoll = -Double.infinity
    private var rebuilt = false
    /// Transitions of every tick, for the metrics.
    private(set) var transitionCount = 0
    /// Open incidents whose stored trail could not be read when this leader rebuilt: neither
    /// resumed nor written back (their rows stay as they are), each logged once.
    private(set) var unreadableIncidents: [Int64: TrailError] = [:]
    /// Stored rows that could not be read (``StoredRow``: a latest fix, an incident or an
    /// acknowledgement written outside the service), by their message: left out of every tick
    /// and logged once. A responder whose latest row is unreadable keeps the status it had.
    private(set) var unreadableRows: Set<String> = []
    private let log: (String) -> Void

    /// A leader over `store`, holding each responder to its policy in `fleets`; `log` takes
    /// one line per problem with the stored rows that the leader works around.
    init(store: ServiceStore, fleets: FleetTable = FleetTable(), log: @escaping (String) -> Void = logLine) {
        self.store = store
        self.log = log
        server = ResponderServer(store: LatestOnlyStore(), fleets: fleets)
    }

    /// One round at `now` (seconds). Returns the liveness transitions it caused.
    @discardableResult
    func tick(now: Double, on db: SQLConnection) throws(StoreError) -> [LivenessTransition] {
        var transitions: [LivenessTransition] = []
        // Fixes: everything at the first tick, then what changed since the last look (with a
        // margin for transactions that committed late).
        let since = rebuilt ? lastPoll - 2 : -.infinity
        lastPoll = now
        let rows = try store.latest(since: since, on: db, unreadable: skip)
        if !rows.isEmpty {
            // A fix counts no later than its own arrival, not this tick's: one stamped ahead of
            // it (a phone clock running fast) must not be refreshed by being read again, nor
            // revived by a new leader reading every row.
            let fixes = rows.map { row in
                var fix = row.fix
                fix.fix.time = min(fix.fix.time, row.receivedAt)
                return fix
            }
            // LatestOnlyStore never throws.
            _ = try? server.ingest(fixes, receivedAt: now)
            transitions += server.lastTransitions
        }
        server.advance(to: now)
        transitions += server.lastTransitions
        if !rebuilt {
            rebuilt = true
            let acks = try store.pendingAcks(on: db, unreadable: skip)
            for stored in try store.incidents(in: [.offered, .assigned], on: db, unreadable: skip) {
                let trail: [AssignmentStep]
                do { trail = try TrailJSON.decode(stored.trail) } catch {
                    // Left as stored: resuming from part of the trail could offer the incident
                    // again to responders who declined it, and saving would overwrite the row.
                    unreadableIncidents[stored.id] = error
                    log("incident \(stored.id) not resumed: its stored \(error)")
                    continue
                }
                // An acknowledgement stored while no leader ran, by the responder last asked (still
                // ONLINE) and before their deadline, stands as it would with a slow leader: resume
                // as of its time, so the offer is still open when the acknowledgements are applied
                // below.
                var resumeAt = now
                if let last = trail.last, case .offered = last.event, server.liveness.status(of: last.responder) == .online {
                    let inTime = acks.filter { $0.1 == stored.id && $0.2 == last.responder && $0.3 < last.time + stored.ackTimeout }
                    if let at = inTime.map(\.3).min() { resumeAt = max(last.time, min(now, at)) }
                }
                var dispatcher = server.dispatcher
                let liveness = server.liveness
                let assignment = IncidentAssignment(
                    resuming: Int(stored.id), location: LatLng(uncheckedLatitude: stored.latitude, longitude: stored.longitude),
                    trail: trail, now: resumeAt, dispatcher: &dispatcher,
                    status: { liveness.status(of: $0) }, ackTimeout: stored.ackTimeout)
                assignments[stored.id] = assignment
                try save(assignment, id: stored.id, on: db)
            }
        }
        var changed = Set<Int64>()
        // Holders that went OFFLINE lose their incidents.
        for e in transitions where e.to == .offline {
            for (id, var assignment) in assignments where assignment.holder == e.responder {
                server.reassign(&assignment, from: e.responder, now: e.time)
                assignments[id] = assignment
                changed.insert(id)
            }
        }
        // New incidents.
        for stored in try store.incidents(in: [.pending], on: db, unreadable: skip) {
            let assignment = server.startIncident(
                Int(stored.id), at: LatLng(uncheckedLatitude: stored.latitude, longitude: stored.longitude),
                now: now, ackTimeout: stored.ackTimeout)
            assignments[stored.id] = assignment
            changed.insert(stored.id)
        }
        // Acknowledgements, then ACK timeouts.
        for (ackID, incident, responder, at) in try store.pendingAcks(on: db, unreadable: skip) {
            var accepted = false
            if var assignment = assignments[incident] {
                accepted = assignment.acknowledge(by: responder, now: min(at, now))
                assignments[incident] = assignment
                if accepted { changed.insert(incident) }
            }
            try store.finishAck(ackID, accepted: accepted, on: db)
        }
        let liveness = server.liveness
        for (id, var assignment) in assignments {
            let before = assignment.trail.count
            assignment.advance(to: now, status: { liveness.status(of: $0) })
            if assignment.trail.count != before {
                assignments[id] = assignment
                changed.insert(id)
            }
        }
        for id in changed.sorted() {
            guard let assignment = assignments[id] else { continue }
            try save(assignment, id: id, on: db)
            if case .exhausted = assignment.state { assignments[id] = nil }
        }
        try store.writeStatuses(transitions, on: db)
        transitionCount += transitions.count
        return transitions
    }

    /// Responders flapping at `now` (the library's ResponderFlapping rule).
    func flappingCount(now: Double) -> Int {
        server.firingAlerts(now: now).filter { if case .responderFlapping = $0 { true } else { false } }.count
    }

    /// Leaves an unreadable row out, logging it the first time.
    private func skip(_ error: StoreError) {
        if unreadableRows.insert(error.description).inserted { log("left out: \(error)") }
    }

    private func save(_ assignment: IncidentAssignment, id: Int64, on db: SQLConnection) throws(StoreError) {
        let state: ServiceStore.IncidentState, assignee: Int64?
        switch assignment.state {
        case .offering: (state, assignee) = (.offered, nil)
        case .assigned(let r, _): (state, assignee) = (.assigned, Int64(r.rawValue))
        case .exhausted: (state, assignee) = (.exhausted, nil)
        case .closed(let r, _): (state, assignee) = (.closed, r.map { Int64($0.rawValue) })
        }
        try store.updateIncident(
            ServiceStore.StoredIncident(
                id: id, latitude: assignment.location.latitude, longitude: assignment.location.longitude,
                ackTimeout: assignment.ackTimeout, state: state, offeredTo: assignment.currentOffer.map { Int64($0.rawValue) },
                assignee: assignee, trail: TrailJSON.encode(assignment.trail)), on: db)
    }
}

/// An assignment trail as stored and served: `[{"responder": 3, "t": 1764300000.5, "event":
/// "offered", "distance_m": 120.4}, ...]`; events `offered`, `acknowledged`, `declined`,
/// `timed_out`, `skipped` (with `"status"`), `went_offline`.
enum TrailJSON {
    static func encode(_ trail: [AssignmentStep]) -> String {
        "["
            + trail.map { step in
                var text = "{\"responder\": \(step.responder.rawValue), \"t\": \(JSONObject.number(step.time)), \"event\": "
                switch step.event {
                case .offered(let d): text += "\"offered\", \"distance_m\": \(JSONObject.number((d * 10).rounded() / 10))"
                case .acknowledged: text += "\"acknowledged\""
                case .declined: text += "\"declined\""
                case .timedOut: text += "\"timed_out\""
                case .skipped(let status): text += "\"skipped\", \"status\": \"\(status.name)\""
                case .wentOffline: text += "\"went_offline\""
                }
                return text + "}"
            }.joined(separator: ", ") + "]"
    }

    /// Reads a trail written by ``encode(_:)``.
    ///
    /// - Throws: ``TrailError`` naming the first value that is not a step (its JSON path, as
    ///   `[2].event`) or where the text stops being JSON. Nothing is skipped: a trail is read
    ///   whole or not at all, so a resumed incident never forgets whom it already asked.
    static func decode(_ text: String) throws(TrailError) -> [AssignmentStep] {
        let value: JSONValue
        do { value = try JSONValue.parse(Array(text.utf8)) } catch { throw TrailError(path: "", message: error.description) }
        guard case .array(let items) = value else { throw TrailError(path: "", message: "not an array of steps") }
        var steps: [AssignmentStep] = []
        steps.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let path = JSONPath.element("", k)
            func number(_ key: String) throws(TrailError) -> Double {
                guard case .number(let x, _)? = item[key], x.isFinite else {
                    throw TrailError(path: JSONPath.member(path, key), message: item[key] == nil ? "missing" : "not a finite number")
                }
                return x
            }
            func string(_ key: String) throws(TrailError) -> String {
                guard case .string(let s)? = item[key] else {
                    throw TrailError(path: JSONPath.member(path, key), message: item[key] == nil ? "missing" : "not a string")
                }
                return s
            }
            guard case .object = item else { throw TrailError(path: path, message: "not an object") }
            let r = try number("responder")
            guard r == r.rounded(), let id = Int32(exactly: r), let responder = ResponderID(rawValue: id) else {
                throw TrailError(path: JSONPath.member(path, "responder"), message: "not a responder id: \(JSONObject.number(r))")
            }
            let time = try number("t")
            let event: AssignmentStep.Event
            switch try string("event") {
            case "offered": event = .offered(distanceMeters: try number("distance_m"))
            case "acknowledged": event = .acknowledged
            case "declined": event = .declined
            case "timed_out": event = .timedOut
            case "went_offline": event = .wentOffline
            case "skipped":
                let s = try string("status")
                guard let status = LivenessStatus.allCases.first(where: { $0.name == s }) else {
                    throw TrailError(path: JSONPath.member(path, "status"), message: "unknown status \"\(s)\"")
                }
                event = .skipped(status)
            case let name: throw TrailError(path: JSONPath.member(path, "event"), message: "unknown event \"\(name)\"")
            }
            steps.append(AssignmentStep(responder: responder, time: time, event: event))
        }
        return steps
    }
}

/// Why a stored trail cannot be read: the JSON path of the value at fault (empty for the whole
/// text) and what is wrong with it.
struct TrailError: Error, Equatable, CustomStringConvertible {
    var path: String
    var message: String
    /// `trail[2].event: unknown event "paused"`.
    var description: String { "trail\(path): \(message)" }
}
