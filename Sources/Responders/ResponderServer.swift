import Geodesy

/// The server side in one value: ingest into a ``ServerStore``, liveness, metrics, alerts and
/// the dispatcher's index, kept consistent with each other. Clock-injected: every call takes
/// `now` in seconds, and the same calls give the same results.
///
/// Ingest: a batch may arrive in any order and hold copies. The store keeps each
/// `(responder, sequence)` once; each new fix feeds the delay histogram and the liveness
/// monitor, which ignores a fix no newer than the responder's latest (so an old or duplicate
/// fix never revives a status), and a responder's newest fix moves its position in the dispatcher.
/// Then every liveness transition goes to the metrics, the alert evaluator and the dispatcher.
public struct ResponderServer<Store: ServerStore> {
    /// The durable record.
    public private(set) var store: Store
    /// Liveness of every responder seen.
    public private(set) var liveness: LivenessMonitor
    /// Counters and histogram.
    public private(set) var metrics = ResponderMetrics()
    /// Latest positions and the index of ONLINE responders.
    public private(set) var dispatcher = Dispatcher()
    /// Alert rules and their state.
    public private(set) var alerts: AlertEvaluator
    /// The transitions caused by the last ``ingest(_:)``, ``ingest(_:receivedAt:)`` or ``advance(to:)``.
    public private(set) var lastTransitions: [LivenessTransition] = []
    private var isNew: [Bool] = []
    private var arrivals: [StoredFix] = []

    /// A server over `store`, nothing seen yet, alerting by `rules`, each responder held to its
    /// policy in `fleets` (liveness thresholds; the default policy's ACK timeout for incidents).
    public init(store: Store, rules: AlertRules = AlertRules(), fleets: FleetTable = FleetTable()) {
        self.store = store
        alerts = AlertEvaluator(rules: rules)
        liveness = LivenessMonitor(fleets: fleets)
    }

    /// Ingests one batch received at `now` (seconds): ``ingest(_:)`` with every fix arriving at `now`.
    @discardableResult
    public mutating func ingest(_ fixes: [ReportedFix], receivedAt now: Double) throws -> IngestCounts {
        arrivals.removeAll(keepingCapacity: true)
        for fix in fixes { arrivals.append(StoredFix(fix: fix, receivedAt: now)) }
        return try ingest(arrivals)
    }

    /// Ingests everything that arrived since the last call (several batches, each fix with its
    /// arrival time) in one store call, so a SQLite store commits once per call rather than once
    /// per phone batch. Liveness sees each fix at its own arrival time. Store errors are rethrown
    /// before anything else changes.
    /// - Precondition: `receivedAt` does not decrease along `arrivals`.
    @discardableResult
    public mutating func ingest(_ arrivals: [StoredFix]) throws -> IngestCounts {
        precondition(
            zip(arrivals, arrivals.dropFirst()).allSatisfy { $0.receivedAt <= $1.receivedAt },
            "arrivals must be in arrival order")
        lastTransitions.removeAll(keepingCapacity: true)
        if let first = arrivals.first { liveness.advance(to: first.receivedAt, into: &lastTransitions) }
        let counts = try store.insert(arrivals, isNew: &isNew)
        for (arrival, new) in zip(arrivals, isNew) where new {
            let fix = arrival.fix
            metrics.observeDelay(arrival.receivedAt - fix.fix.time)
            if liveness.recordFix(
                fix.responder, time: fix.fix.time, duty: fix.duty, powerMode: fix.powerMode, sequence: fix.sequence,
                now: arrival.receivedAt, into: &lastTransitions)
            {
                dispatcher.updatePosition(fix.responder, latitude: fix.fix.latitude, longitude: fix.fix.longitude)
            }
        }
        publish()
        return counts
    }

    /// Runs the liveness deadlines due by `now` (seconds).
    public mutating func advance(to now: Double) {
        lastTransitions.removeAll(keepingCapacity: true)
        liveness.advance(to: now, into: &lastTransitions)
        publish()
    }

    /// Sets or removes a responder's expected interval (seconds) at `now`.
    public mutating func setExpectedInterval(_ seconds: Double?, for responder: ResponderID, now: Double) {
        lastTransitions.removeAll(keepingCapacity: true)
        liveness.setExpectedInterval(seconds, for: responder, now: now, into: &lastTransitions)
        publish()
    }

    /// Starts assigning an incident at `now` among the ONLINE responders nearest `location`,
    /// waiting `ackTimeout` seconds for each (nil: the fleet table's default policy's).
    /// Call ``advance(to:)`` first so the statuses are current.
    public mutating func startIncident(
        _ incident: Int, at location: LatLng, now: Double, ackTimeout: Double? = nil,
        maxCandidates: Int = 10, maxDistanceMeters: Double = .infinity
    ) -> IncidentAssignment {
        let liveness = self.liveness
        return IncidentAssignment(
            incident: incident, location: location, now: now, dispatcher: &dispatcher,
            status: { liveness.status(of: $0) }, ackTimeout: ackTimeout ?? liveness.fleets.defaultPolicy.ackTimeout,
            maxCandidates: maxCandidates, maxDistanceMeters: maxDistanceMeters)
    }

    /// Hands `assignment` on from `responder`, who went OFFLINE at `now`, if they hold it
    /// (``IncidentAssignment/responderWentOffline(_:now:dispatcher:status:)`` over this server's
    /// dispatcher and statuses). Returns whether it was reassigned.
    @discardableResult
    public mutating func reassign(_ assignment: inout IncidentAssignment, from responder: ResponderID, now: Double) -> Bool {
        let liveness = self.liveness
        return assignment.responderWentOffline(responder, now: now, dispatcher: &dispatcher, status: { liveness.status(of: $0) })
    }

    /// The alerts firing at `now` (after ``advance(to:)``).
    public func firingAlerts(now: Double) -> [Alert] {
        alerts.evaluate(now: now, liveness: liveness, position: { dispatcher.position(of: $0) })
    }

    /// The Prometheus exposition text.
    public var prometheusText: String { metrics.prometheusText(liveness: liveness) }

    private mutating func publish() {
        guard !lastTransitions.isEmpty else { return }
        metrics.record(lastTransitions)
        alerts.record(lastTransitions)
        dispatcher.apply(lastTransitions)
    }
}

extension ResponderServer where Store == MemoryServerStore {
    /// The server as it was at `now` (seconds), rebuilt from a stored history in arrival order
    /// (``ServerStore/historyByArrival()``): each arrival up to `now` replayed at its
    /// `receivedAt`, then the deadlines run to `now`; later arrivals are left out. Liveness,
    /// metrics and positions come out as they were live, since every decision is a function of
    /// the fixes and the times.
    /// - Precondition: `receivedAt` does not decrease along `history` (as ``ingest(_:)``).
    public static func replaying(
        _ history: [StoredFix], until now: Double, rules: AlertRules = AlertRules(), fleets: FleetTable = FleetTable()
    ) -> Self {
        var server = ResponderServer(store: MemoryServerStore(), rules: rules, fleets: fleets)
        let upTo = history.firstIndex { $0.receivedAt > now } ?? history.count
        // MemoryServerStore never throws.
        _ = try? server.ingest(Array(history[..<upTo]))
        server.advance(to: now)
        return server
    }
}
