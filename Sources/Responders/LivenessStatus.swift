/// What the server believes about a responder's phone.
///
/// ``unknown`` until the first fix; ``offDuty`` while the latest fix says off duty (nothing is
/// expected, so the responder is neither online nor offline); otherwise ``online``,
/// ``degraded`` or ``offline`` by the age of the latest fix (see ``LivenessThresholds``).
public enum LivenessStatus: UInt8, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// No fix yet.
    case unknown = 0
    /// The latest fix is younger than 1.5 x the expected interval.
    case online = 1
    /// The latest fix is at least 1.5 x and less than 3 x the expected interval old.
    case degraded = 2
    /// The latest fix is at least 3 x the expected interval old.
    case offline = 3
    /// The latest fix says off duty.
    case offDuty = 4

    /// Snake-case name used as the Prometheus label value.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .online: "online"
        case .degraded: "degraded"
        case .offline: "offline"
        case .offDuty: "off_duty"
        }
    }

    /// ``name``.
    public var description: String { name }
}

/// One status change of one responder, at `time` (seconds): the deadline that passed, or the
/// time the fix that changed it arrived.
public struct LivenessTransition: Hashable, Sendable, Codable {
    /// Whose status changed.
    public var responder: ResponderID
    /// The status before.
    public var from: LivenessStatus
    /// The status after.
    public var to: LivenessStatus
    /// Seconds.
    public var time: Double

    /// A transition at `time` (seconds).
    public init(responder: ResponderID, from: LivenessStatus, to: LivenessStatus, time: Double) {
        self.responder = responder
        self.from = from
        self.to = to
        self.time = time
    }
}
