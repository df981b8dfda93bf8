#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import Responders

/// A seeded fleet of responders, their phones and the server, run second by second with the
/// library code on both ends: each phone's `FixFilter`, queue and `Sender`; the server's
/// `ResponderServer` (ingest, liveness, dispatcher) and `IncidentAssignment`s.
///
/// The world: responders move around an area (still off duty, walking on duty, driving on a
/// mission), change duty, and their phones die silently, lose the network or land behind
/// captive portals (``FleetConfiguration`` has the rates). Uploads reach the server after a
/// delay (some slow, which reorders batches), and some answers are lost so the phone sends the
/// batch again (duplicates). Incidents arrive at random places; a responder whose phone can
/// reach the server answers an offer after 3-20 s (92 % acknowledge, 4 % decline, 4 % never
/// answer); an unreachable one never answers.
///
/// Scores are taken against the truth the simulation knows (see ``FleetReport``). Then the
/// batches the server received, in arrival order, are the input of the two speed measurements.
public final class FleetSimulation {
    /// The settings.
    public let configuration: FleetConfiguration
    /// What the run measured.
    public private(set) var report = FleetReport()
    /// Every fix the server received, copies included, in arrival order.
    public private(set) var arrivals: [StoredFix] = []

    private var rng: SplitMix64
    private var phones: [FleetPhone] = []
    private var server = ResponderServer(store: MemoryServerStore())
    private var pending: [FleetDelivery] = []
    private var sendOrder = 0
    private var detectionTimes: [DutyState: [Double]] = [.onDuty: [], .onMission: []]
    private var missed: [DutyState: Int] = [.onDuty: 0, .onMission: 0]
    private var assignments: [ActiveAssignment] = []
    private var endTime = Double.infinity

    private struct ActiveAssignment {
        var assignment: IncidentAssignment
        var trailSeen = 0
        var response: (responder: ResponderID, time: Double, accepts: Bool)?
        /// When the assignee finishes the work (set at the acknowledgement).
        var closesAt = Double.infinity
        var counted = false
    }

    /// A world of `configuration`, not run yet.
    public init(_ configuration: FleetConfiguration) {
        self.configuration = configuration
        rng = SplitMix64(seed: configuration.seed)
    }

    /// Runs the world for the configured minutes (once; later calls do nothing).
    public func run() {
        guard phones.isEmpty else { return }
        let c = configuration
        report.responders = c.responders
        report.minutes = c.minutes
        report.seed = c.seed
        for k in 0..<c.responders { phones.append(makePhone(k)) }
        let end = Double(c.minutes * 60)
        endTime = end
        var t = 0.0
        while t <= end {
            for k in phones.indices { stepPhone(k, now: t) }
            deliver(upTo: t)
            server.advance(to: t)
            observe(server.lastTransitions)
            if rng.nextUnit() < c.incidentsPerHour / 3600 { startIncident(now: t) }
            stepAssignments(now: t)
            t += 1
        }
        deliver(upTo: .infinity)
        for k in phones.indices { endEpisode(k, now: end) }
        finish()
    }

    // MARK: - Phones

    private func makePhone(_ k: Int) -> FleetPhone {
        let c = configuration
        let r = c.areaRadius * rng.nextUnit().squareRoot(), bearing = rng.uniform(0, 2 * .pi)
        let duty: DutyState = rng.nextUnit() < 0.15 ? .offDuty : (rng.nextUnit() < 0.25 ? .onMission : .onDuty)
        let id = ResponderID(k)
        return FleetPhone(
            id: id, duty: duty,
            latitude: c.centerLatitude + r * cos(bearing) / 111_195,
            longitude: c.centerLongitude + r * sin(bearing) / (111_195 * cos(c.centerLatitude * .pi / 180)),
            heading: rng.uniform(0, 2 * .pi), speed: 0,
            filter: FixFilter(profile: CollectionProfile.forDuty(duty, powerMode: .normal)),
            sender: Sender(responder: id, token: "token", network: .cellular, now: 0))
    }

    private func stepPhone(_ k: Int, now t: Double) {
        let c = configuration
        guard phones[k].alive else { return }
        // What happens to the phone this second.
        if rng.nextUnit() < c.deathsPerHour / 3600 {
            phones[k].alive = false
            beginEpisode(k, now: t)
            return
        }
        if phones[k].isReachable {
            if rng.nextUnit() < c.networkLossesPerHour / 3600 {
                phones[k].network = .none
                phones[k].outageEnd = t + rng.uniform(20, 600).rounded()
                phones[k].sender.networkChanged(to: .none, now: t)
                beginEpisode(k, now: t)
            } else if rng.nextUnit() < c.captivePortalsPerHour / 3600 {
                phones[k].network = .wifi
                phones[k].captive = true
                phones[k].outageEnd = t + rng.uniform(60, 480).rounded()
                phones[k].sender.networkChanged(to: .wifi, now: t)
                beginEpisode(k, now: t)
            }
        } else if t >= phones[k].outageEnd {
            endEpisode(k, now: t)
            phones[k].network = .cellular
            phones[k].captive = false
            phones[k].outageEnd = .infinity
            phones[k].unreachableSince = nil
            phones[k].reachableSince = t
            phones[k].sender.networkChanged(to: .cellular, now: t)
        }
        if rng.nextUnit() < c.dutyChangesPerHour / 3600 {
            let next: DutyState
            switch phones[k].duty {
            case .offDuty: next = .onDuty
            case .onDuty: next = rng.nextUnit() < 0.5 ? .onMission : .offDuty
            case .onMission: next = .onDuty
            }
            phones[k].duty = next
            phones[k].filter.profile = CollectionProfile.forDuty(next, powerMode: .normal)
        }
        move(k)
        // A raw fix every second: 3 % coarse (filtered out), the rest within a few meters.
        let coarse = rng.nextUnit() < 0.03
        let noise = coarse ? 150.0 : 4.0
        let fix = LocationFix(
            time: t, latitude: phones[k].latitude + noise * rng.gaussian() / 111_195,
            longitude: phones[k].longitude + noise * rng.gaussian() / 55_600,
            accuracy: coarse ? 150 : rng.uniform(4, 12))
        if phones[k].filter.consider(fix) == nil {
            phones[k].queue.append(
                ReportedFix(
                    responder: phones[k].id, sequence: phones[k].queue.lastSequence + 1,
                    fix: fix, duty: phones[k].duty))
        }
        guard phones[k].queue.depth() > 0 else { return }
        var transport = FleetTransport(
            captive: phones[k].captive, rng: rng, slowShare: c.slowUploadShare,
            lostAnswerShare: c.lostAnswerShare)
        var queue = phones[k].queue, sender = phones[k].sender
        phones[k].queue = FleetQueue()  // moved out, not copied
        // FleetQueue never throws.
        _ = try? sender.step(now: t, device: DeviceConditions(), queue: &queue, transport: &transport)
        phones[k].queue = queue
        phones[k].sender = sender
        rng = transport.rng
        if phones[k].isReachable {
            for var delivery in transport.sent {
                sendOrder += 1
                delivery.order = sendOrder
                pending.append(delivery)
            }
        }
    }

    private func move(_ k: Int) {
        let c = configuration
        switch phones[k].duty {
        case .offDuty: phones[k].speed = 0
        case .onDuty: phones[k].speed = rng.nextUnit() < 0.01 ? rng.uniform(0, 3) : phones[k].speed
        case .onMission: phones[k].speed = rng.nextUnit() < 0.02 ? rng.uniform(8, 15) : max(phones[k].speed, 8)
        }
        phones[k].heading += 0.1 * rng.gaussian()
        let north = (phones[k].latitude - c.centerLatitude) * 111_195
        let east = (phones[k].longitude - c.centerLongitude) * 111_195 * cos(c.centerLatitude * .pi / 180)
        if north * north + east * east > c.areaRadius * c.areaRadius { phones[k].heading = atan2(-east, -north) }
        phones[k].latitude += phones[k].speed * cos(phones[k].heading) / 111_195
        phones[k].longitude += phones[k].speed * sin(phones[k].heading) / (111_195 * cos(phones[k].latitude * .pi / 180))
    }

    // MARK: - Truth of reachability

    /// Starts an unreachable episode of phone `k` at `t`: one the server must detect (counted by
    /// duty, within the OFFLINE threshold it applies) when it watches the responder then
    /// (ONLINE or DEGRADED). Uploads the phone sent before `t` may still land during the
    /// episode, and what they say of its duty changes what the server owes
    /// (``refreshEpisode(_:)``).
    private func beginEpisode(_ k: Int, now t: Double) {
        guard phones[k].unreachableSince == nil else { return }
        phones[k].unreachableSince = t
        phones[k].episodeDetected = false
        setEpisodeTerms(k)
    }

    /// After an upload phone `k` sent before its episode began lands: the episode is the
    /// server's to detect by what it now knows of the phone's duty (a phone that went off duty
    /// just before it went silent owes no fix; one that went from a mission back on duty gets
    /// the longer threshold). Nothing changes once the episode is detected.
    private func refreshEpisode(_ k: Int) {
        guard phones[k].unreachableSince != nil, phones[k].episodeDuty != nil, !phones[k].episodeDetected else { return }
        setEpisodeTerms(k)
    }

    /// The episode's duty and OFFLINE threshold as the server has them now (nil duty: the
    /// server watches the responder neither ONLINE nor DEGRADED, so owes no detection).
    private func setEpisodeTerms(_ k: Int) {
        let status = server.liveness.status(of: phones[k].id)
        if status == .online || status == .degraded, let duty = server.liveness.duty(of: phones[k].id),
            let thresholds = server.liveness.thresholds(of: phones[k].id)
        {
            phones[k].episodeDuty = duty
            phones[k].episodeThreshold = thresholds.offlineAfter
        } else {
            phones[k].episodeDuty = nil
        }
    }

    private func endEpisode(_ k: Int, now t: Double) {
        guard let since = phones[k].unreachableSince, let duty = phones[k].episodeDuty, !phones[k].episodeDetected else { return }
        if t - since > phones[k].episodeThreshold + 1 { missed[duty, default: 0] += 1 }
        phones[k].episodeDuty = nil
    }

    // MARK: - Server

    private func deliver(upTo t: Double) {
        guard pending.contains(where: { $0.arrival <= t }) else { return }
        var due: [FleetDelivery] = []
        pending.removeAll { delivery in
            guard delivery.arrival <= t else { return false }
            due.append(delivery)
            return true
        }
        due.sort { ($0.arrival, $0.order) < ($1.arrival, $1.order) }
        for delivery in due {
            report.batchesDelivered += 1
            report.fixesDelivered += delivery.fixes.count
            for fix in delivery.fixes { arrivals.append(StoredFix(fix: fix, receivedAt: delivery.arrival)) }
            // MemoryServerStore never throws.
            if let counts = try? server.ingest(delivery.fixes, receivedAt: delivery.arrival) {
                report.duplicatesReceived += counts.duplicates
            }
            observe(server.lastTransitions)
            for fix in delivery.fixes {
                let k = Int(fix.responder.rawValue)
                if let since = phones[k].unreachableSince, fix.fix.time < since { refreshEpisode(k) }
            }
        }
    }

    private func observe(_ transitions: [LivenessTransition]) {
        report.transitions += transitions.count
        if !assignments.isEmpty {
            for e in transitions where e.to == .offline {
                for k in assignments.indices where assignments[k].assignment.holder == e.responder {
                    server.reassign(&assignments[k].assignment, from: e.responder, now: e.time)
                    report.incidentsReassigned += 1
                    if assignments[k].response?.responder == e.responder { assignments[k].response = nil }
                    assignments[k].closesAt = .infinity
                    scanTrail(k)
                }
            }
        }
        // Past the end the phones have stopped: late batches still drain, but the world is over.
        for e in transitions where e.to == .offline && e.time <= endTime {
            let k = Int(e.responder.rawValue)
            if let since = phones[k].unreachableSince, since <= e.time {
                if let duty = phones[k].episodeDuty, !phones[k].episodeDetected {
                    detectionTimes[duty, default: []].append(e.time - since)
                    phones[k].episodeDetected = true
                }
            } else {
                let threshold = server.liveness.thresholds(of: e.responder)?.offlineAfter ?? 180
                if e.time - phones[k].reachableSince >= threshold { report.falseOffline += 1 }
            }
        }
    }

    // MARK: - Incidents

    private func startIncident(now t: Double) {
        let c = configuration
        let r = c.areaRadius * rng.nextUnit().squareRoot(), bearing = rng.uniform(0, 2 * .pi)
        let place = LatLng(
            uncheckedLatitude: c.centerLatitude + r * cos(bearing) / 111_195,
            longitude: c.centerLongitude + r * sin(bearing) / (111_195 * cos(c.centerLatitude * .pi / 180)))
        report.incidents += 1
        let assignment = server.startIncident(report.incidents, at: place, now: t, ackTimeout: c.ackTimeout, maxCandidates: 10)
        assignments.append(ActiveAssignment(assignment: assignment))
        scanTrail(assignments.count - 1)
    }

    private func stepAssignments(now t: Double) {
        let liveness = server.liveness
        let status = { (id: ResponderID) in liveness.status(of: id) }
        var k = 0
        while k < assignments.count {
            if let response = assignments[k].response, response.time <= t {
                assignments[k].response = nil
                if response.accepts {
                    assignments[k].assignment.acknowledge(by: response.responder, now: response.time)
                } else {
                    assignments[k].assignment.decline(by: response.responder, now: response.time, status: status)
                }
            }
            assignments[k].assignment.advance(to: t, status: status)
            scanTrail(k)
            switch assignments[k].assignment.state {
            case .offering:
                k += 1
            case .assigned:
                // The assignee works the incident for a while; until it is closed, their phone
                // going OFFLINE hands it to the next responder.
                if !assignments[k].counted {
                    report.assigned += 1
                    assignments[k].counted = true
                }
                if assignments[k].closesAt == .infinity { assignments[k].closesAt = t + configuration.missionSeconds }
                if t >= assignments[k].closesAt {
                    assignments[k].assignment.close(now: t)
                    assignments.remove(at: k)
                } else {
                    k += 1
                }
            case .exhausted, .closed:
                report.exhausted += 1
                assignments.remove(at: k)
            }
        }
    }

    /// Looks at the new steps of an assignment's trail: scores each offer against the truth and
    /// decides the responder's answer.
    private func scanTrail(_ k: Int) {
        let trail = assignments[k].assignment.trail
        while assignments[k].trailSeen < trail.count {
            let step = trail[assignments[k].trailSeen]
            assignments[k].trailSeen += 1
            switch step.event {
            case .offered:
                report.offers += 1
                let phone = phones[Int(step.responder.rawValue)]
                if let since = phone.unreachableSince {
                    let degradedAfter = server.liveness.thresholds(of: step.responder)?.degradedAfter ?? 0
                    if step.time - since >= degradedAfter {
                        report.assignmentsToUnreachable += 1
                    } else {
                        report.offersToSilentPhones += 1
                    }
                } else {
                    let roll = rng.nextUnit()
                    if roll < 0.96 {
                        assignments[k].response = (step.responder, step.time + rng.uniform(3, 20).rounded(), roll < 0.92)
                    }
                }
            case .timedOut:
                report.ackTimeouts += 1
            case .acknowledged, .declined, .skipped, .wentOffline:
                break
            }
        }
    }

    // MARK: - Scores

    private func finish() {
        var stored = Set<Int64>()
        var storedRows = 0
        for row in server.store.historyByArrival() {
            stored.insert(Int64(row.fix.responder.rawValue) << 32 | row.fix.sequence)
            storedRows += 1
        }
        report.duplicatesStored = storedRows - stored.count
        for phone in phones {
            report.fixesKept += Int(phone.queue.lastSequence)
            report.fixesQueuedAtEnd += phone.queue.depth()
            var kept = Set(phone.queue.queuedSequences.map(\.sequence))
            for sequence in Int64(1)...max(1, phone.queue.lastSequence) where phone.queue.lastSequence > 0 {
                if stored.contains(Int64(phone.id.rawValue) << 32 | sequence) { kept.insert(sequence) }
            }
            report.fixesLost += Int(phone.queue.lastSequence) - kept.count
            for reason in FixDropReason.allCases { report.fixesDropped[reason] += phone.filter.drops[reason] }
        }
        for duty in [DutyState.onDuty, .onMission] {
            report.detection[duty] = DetectionStats(
                times: detectionTimes[duty] ?? [], threshold: LivenessThresholds(duty: duty).offlineAfter,
                missed: missed[duty] ?? 0)
        }
        for status in LivenessStatus.allCases { report.finalStatusCounts[status] = server.liveness.count(of: status) }
        for active in assignments {
            if case .assigned(let assignee, _) = active.assignment.state, server.liveness.status(of: assignee) == .offline {
                report.incidentsLeftWithOfflineAssignee += 1
            }
        }
    }

    /// The server's Prometheus text at the end of the run.
    public var prometheusText: String { server.prometheusText }

    // MARK: - Speed

    /// Replays every arrival through a fresh `LivenessMonitor` (recording the fix at its
    /// arrival time; passes after the first shifted in time so every fix is new again) until at
    /// least `minimumUpdates` calls; appends the rate to ``FleetReport/livenessUpdatesPerSecond``.
    public func measureLiveness(minimumUpdates: Int = 2_000_000) {
        guard !arrivals.isEmpty else { return }
        let responders = arrivals.map(\.fix.responder), times = arrivals.map(\.fix.fix.time)
        let duties = arrivals.map(\.fix.duty), received = arrivals.map(\.receivedAt)
        let span = (received.last ?? 0) + 1_000
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        events.reserveCapacity(8_192)
        var updates = 0, offset = 0.0, transitions = 0
        let clock = ContinuousClock(), start = clock.now
        while updates < minimumUpdates {
            for i in 0..<responders.count {
                monitor.recordFix(responders[i], time: times[i] + offset, duty: duties[i], now: received[i] + offset, into: &events)
                if events.count > 4_096 {
                    transitions += events.count
                    events.removeAll(keepingCapacity: true)
                }
            }
            updates += responders.count
            offset += span
        }
        let elapsed = (clock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        precondition(transitions + events.count > 0 || updates == 0, "the replay produced no transitions")
        report.livenessUpdatesPerSecond.append(Double(updates) / seconds)
    }
}
