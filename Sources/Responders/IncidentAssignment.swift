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
public struct IncidentAssignment: Sendable {
    /// Where it stands.
    public enum State: Hashable, Sendable {
        /// Waiting for `responder` until `deadline` (seconds).
        case offering(ResponderID, deadline: Double)
        /// `responder` acknowledged at `time`.
        case assigned(ResponderID, time: Double)
        /// Every candidate was tried or skipped; nobody took it. `time` of the last step.
        case exhausted(time: Double)
    }

    /// Caller's incident id.
    public let incident: Int
    /// Where it happened.
    public let location: LatLng
    /// Seconds to wait for an acknowledgement.
    public let ackTimeout: Double
    /// Candidates nearest first, with their distances in meters at the start.
    public let candidates: [(responder: ResponderID, distanceMeters: Double)]
    /// Everything that happened, in time order.
    public private(set) var trail: [AssignmentStep] = []
    /// The current state.
    public private(set) var state: State
    private var next = 0

    /// Starts the assignment at `now` (seconds): takes up to `maxCandidates` ONLINE responders
    /// within `maxDistanceMeters` from `dispatcher` and offers to the first still ONLINE.
    /// - Precondition: `ackTimeout > 0`, `maxCandidates >= 1`.
    public init(incident: Int, location: LatLng, now: Double, dispatcher: inout Dispatcher,
                status: (ResponderID) -> LivenessStatus, ackTimeout: Double = 30, maxCandidates: Int = 10,
                maxDistanceMeters: Double = .infinity) {
        precondition(ackTimeout > 0 && maxCandidates >= 1, "invalid assignment settings")
        self.incident = incident
        self.location = location
        self.ackTimeout = ackTimeout
        candidates = dispatcher.onlineNearest(to: location, limit: maxCandidates, maxDistanceMeters: maxDistanceMeters)
            .map { (responder: $0.0, distanceMeters: $0.1) }
        state = .exhausted(time: now)
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

    private mutating func offerNext(now: Double, status: (ResponderID) -> LivenessStatus) {
        while next < candidates.count {
            let candidate = candidates[next]
            next += 1
            let current = status(candidate.responder)
            guard current == .online else {
                trail.append(AssignmentStep(responder: candidate.responder, time: now, event: .skipped(current)))
                continue
            }
            trail.append(AssignmentStep(responder: candidate.responder, time: now,
                                        event: .offered(distanceMeters: candidate.distanceMeters)))
            state = .offering(candidate.responder, deadline: now + ackTimeout)
            return
        }
        state = .exhausted(time: now)
    }
}
