import Geodesy

/// One step of an assignment's trail.
public struct AssignmentStep: Hashable, Sendable {
    /// What happened to the candidate.
    public enum Event: Hashable, Sendable {
        /// The incident was pushed to the responder, `distanceMeters` away at the start.
        case offered(distanceMeters: Double)
        /// The responder acknowledged: the incident is theirs.
        case acknowledged
        /// The responder refused.
        case declined
        /// No acknowledgement within the ACK timeout.
        case timedOut
        /// Not tried: no longer ONLINE when their turn came (the status then).
        case skipped(LivenessStatus)
        /// The responder being asked, or the assignee before the incident was closed, turned
        /// OFFLINE: the incident went to the next ONLINE responder.
        case wentOffline
    }

    /// The candidate.
    public var responder: ResponderID
    /// Seconds.
    public var time: Double
    /// What happened.
    public var event: Event

    /// A step at `time` (seconds).
    public init(responder: ResponderID, time: Double, event: Event) {
        self.responder = responder
        self.time = time
        self.event = event
    }
}

/// The assignment of one incident: ONLINE responders nearest first; push to the first, go to the
/// next on an ACK timeout or a decline, until one acknowledges or the list is exhausted.
///
/// The candidate list is taken once, at the start, from ``Dispatcher/onlineNearest(to:limit:maxDistanceMeters:)``
/// (only ONLINE responders are in that index). When a candidate's turn comes, their status is
/// checked again and anyone no longer ONLINE is skipped, with the status as the reason. Every
/// offer, answer, timeout and skip is in ``trail`` with its time (seconds).
/// An ACK timeout ends exactly at `offer time + ackTimeout`, passed to ``advance(to:status:)``.
///
/// Until it is closed (``close(now:)``), an incident whose responder being asked or whose
/// assignee turns OFFLINE (ACK given or not) is reassigned by
/// ``responderWentOffline(_:now:dispatcher:status:)``: a `wentOffline` step, then a fresh list of
/// the ONLINE responders nearest the incident, leaving out everyone already asked.
public struct IncidentAssignment: Sendable {
    /// Where it stands.
    public enum State: Hashable, Sendable {
        /// Waiting for `responder` until `deadline` (seconds).
        case offering(ResponderID, deadline: Double)
        /// `responder` acknowledged at `time`.
        case assigned(ResponderID, time: Double)
        /// Every candidate was tried or skipped; nobody took it. `time` of the last step.
        case exhausted(time: Double)
        /// The work is done (``close(now:)``); `assignee` is who held it then, if anyone.
        case closed(assignee: ResponderID?, time: Double)
    }

    /// Caller's incident id.
    public let incident: Int
    /// Where it happened.
    public let location: LatLng
    /// Seconds to wait for an acknowledgement.
    public let ackTimeout: Double
    /// Candidates nearest first, with their distances in meters at the start (or at the last
    /// reassignment).
    public private(set) var candidates: [(responder: ResponderID, distanceMeters: Double)]
    /// Times the incident was taken from a responder who went OFFLINE.
    public private(set) var reassignments = 0
    private let maxCandidates: Int
    private let maxDistanceMeters: Double
    /// Everything that happened, in time order.
    public private(set) var trail: [AssignmentStep] = []
    /// The current state.
    public private(set) var state: State
    private var next = 0

    /// Starts the assignment at `now` (seconds): takes up to `maxCandidates` ONLINE responders
    /// within `maxDistanceMeters` from `dispatcher` and offers to the first still ONLINE.
    /// - Precondition: `ackTimeout > 0`, `maxCandidates >= 1`.
    public init(
        incident: Int, location: LatLng, now: Double, dispatcher: inout Dispatcher,
        status: (ResponderID) -> LivenessStatus, ackTimeout: Double = 30, maxCandidates: Int = 10,
        maxDistanceMeters: Double = .infinity
    ) {
        // A fresh assignment is one resumed from an empty trail.
        self.init(
            resuming: incident, location: location, trail: [], now: now, dispatcher: &dispatcher, status: status,
            ackTimeout: ackTimeout, maxCandidates: maxCandidates, maxDistanceMeters: maxDistanceMeters)
    }

    /// Resumes at `now` an assignment whose `trail` another process wrote (a server that took
    /// over from one that died). The last offer stands if it was acknowledged (``State/assigned(_:time:)``)
    /// or if its deadline is still ahead and the responder is still ONLINE; otherwise the next
    /// ONLINE responder is asked. Candidates are taken anew from `dispatcher`, leaving out
    /// everyone the trail shows as asked.
    /// - Precondition: `ackTimeout > 0`, `maxCandidates >= 1`.
    public init(
        resuming incident: Int, location: LatLng, trail: [AssignmentStep], now: Double, dispatcher: inout Dispatcher,
        status: (ResponderID) -> LivenessStatus, ackTimeout: Double = 30, maxCandidates: Int = 10,
        maxDistanceMeters: Double = .infinity
    ) {
        precondition(ackTimeout > 0 && maxCandidates >= 1, "invalid assignment settings")
        self.incident = incident
        self.location = location
        self.ackTimeout = ackTimeout
        self.maxCandidates = maxCandidates
        self.maxDistanceMeters = maxDistanceMeters
        self.trail = trail
        reassignments = trail.filter { $0.event == .wentOffline }.count
        candidates = Self.candidates(
            near: location, from: &dispatcher, notAskedIn: trail, limit: maxCandidates, maxDistanceMeters: maxDistanceMeters)
        state = .exhausted(time: now)
        if let last = trail.last {
            switch last.event {
            case .acknowledged:
                state = .assigned(last.responder, time: last.time)
                return
            case .offered where last.time + ackTimeout > now && status(last.responder) == .online:
                state = .offering(last.responder, deadline: last.time + ackTimeout)
                return
            case .offered:
                self.trail.append(AssignmentStep(responder: last.responder, time: min(now, last.time + ackTimeout), event: .timedOut))
            default:
                break
            }
        }
        offerNext(now: now, status: status)
    }

    /// The responder being asked now, if any.
    public var currentOffer: ResponderID? {
        if case .offering(let responder, _) = state { return responder }
        return nil
    }

    /// `responder` acknowledged at `now`. Accepted only from the responder currently asked,
    /// before their deadline; returns whether it was accepted.
    @discardableResult
    public mutating func acknowledge(by responder: ResponderID, now: Double) -> Bool {
        guard case .offering(let asked, let deadline) = state, asked == responder, now < deadline else { return false }
        trail.append(AssignmentStep(responder: responder, time: now, event: .acknowledged))
        state = .assigned(responder, time: now)
        return true
    }

    /// `responder` declined at `now`: the next candidate is asked at once.
    public mutating func decline(by responder: ResponderID, now: Double, status: (ResponderID) -> LivenessStatus) {
        guard case .offering(let asked, let deadline) = state, asked == responder, now < deadline else { return }
        trail.append(AssignmentStep(responder: responder, time: now, event: .declined))
        offerNext(now: now, status: status)
    }

    /// Runs the ACK timeouts due by `now`: each at its exact deadline, moving to the next candidate.
    public mutating func advance(to now: Double, status: (ResponderID) -> LivenessStatus) {
        while case .offering(let asked, let deadline) = state, deadline <= now {
            trail.append(AssignmentStep(responder: asked, time: deadline, event: .timedOut))
            offerNext(now: deadline, status: status)
        }
    }

    /// The responder who holds the incident now: the one being asked, or the assignee.
    public var holder: ResponderID? {
        switch state {
        case .offering(let responder, _), .assigned(let responder, _): responder
        case .exhausted, .closed: nil
        }
    }

    /// `responder` turned OFFLINE at `now`. If they hold the incident (asked, or assigned and
    /// not closed), it is reassigned: a `wentOffline` step, then up to the same number of
    /// candidates, ONLINE and nearest, taken anew from `dispatcher` without anyone already asked,
    /// and an offer to the first still ONLINE (or ``State/exhausted(time:)``). Returns whether
    /// the incident was reassigned.
    @discardableResult
    public mutating func responderWentOffline(
        _ responder: ResponderID, now: Double, dispatcher: inout Dispatcher,
        status: (ResponderID) -> LivenessStatus
    ) -> Bool {
        guard holder == responder else { return false }
        trail.append(AssignmentStep(responder: responder, time: now, event: .wentOffline))
        reassignments += 1
        candidates = Self.candidates(
            near: location, from: &dispatcher, notAskedIn: trail, limit: maxCandidates, maxDistanceMeters: maxDistanceMeters)
        next = 0
        offerNext(now: now, status: status)
        return true
    }

    /// The work is done at `now`: nothing more is offered or reassigned.
    public mutating func close(now: Double) {
        state = .closed(assignee: holder.flatMap { if case .assigned = state { $0 } else { nil } }, time: now)
    }

    /// Up to `limit` ONLINE responders within `maxDistanceMeters` of `location`, nearest first,
    /// with their distances in meters, leaving out everyone `trail` shows as offered the incident.
    private static func candidates(
        near location: LatLng, from dispatcher: inout Dispatcher, notAskedIn trail: [AssignmentStep], limit: Int,
        maxDistanceMeters: Double
    ) -> [(responder: ResponderID, distanceMeters: Double)] {
        var asked = Set<ResponderID>()
        for step in trail { if case .offered = step.event { asked.insert(step.responder) } }
        return dispatcher.onlineNearest(to: location, limit: limit + asked.count, maxDistanceMeters: maxDistanceMeters)
            .filter { !asked.contains($0.0) }.prefix(limit).map { (responder: $0.0, distanceMeters: $0.1) }
    }

    private mutating func offerNext(now: Double, status: (ResponderID) -> LivenessStatus) {
        while next < candidates.count {
            let candidate = candidates[next]
            next += 1
            let current = status(candidate.responder)
            guard current == .online else {
                trail.append(AssignmentStep(responder: candidate.responder, time: now, event: .skipped(current)))
                continue
            }
            trail.append(
                AssignmentStep(
                    responder: candidate.responder, time: now,
                    event: .offered(distanceMeters: candidate.distanceMeters)))
            state = .offering(candidate.responder, deadline: now + ackTimeout)
            return
        }
        state = .exhausted(time: now)
    }
}
