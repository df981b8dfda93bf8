/// The one-glance status the responder's phone shows, derived from the same state the sender
/// and the telemetry use.
///
/// Rules, first match wins:
/// - ``off``: off duty (nothing is expected of the phone);
/// - ``red``: the app cannot read locations (location services off, permission denied or not
///   determined, or only "when in use" while not in the foreground): "permission required";
/// - ``yellow``: no network, the last attempt failed (captive portal, server error, 401),
///   battery saver (a slower cadence), or the oldest queued fix is older than the server's
///   DEGRADED threshold for the phone's fleet (``FleetPolicy/thresholds(duty:powerMode:)``):
///   "Connectivity degraded — you may miss assignments";
/// - ``green``: "Location tracking active".
/// ``message`` is the memo's wording, word for word.
public enum TrackingSignal: UInt8, Hashable, Sendable, Codable {
    /// Off duty.
    case off = 0
    /// Tracking active.
    case green = 1
    /// Connectivity degraded: assignments may be missed.
    case yellow = 2
    /// Permission required: the app cannot track.
    case red = 3

    /// The signal at `now` (seconds) for a phone on `duty` with `device` conditions, its sender
    /// `policy`, the `time` of its oldest queued fix (nil when the queue is empty) and its
    /// `fleet`'s policy (the one `GET /v1/policy` gives the phone).
    public init(
        duty: DutyState, device: DeviceConditions, policy: SenderPolicy, oldestQueuedTime: Double?, now: Double,
        fleet: FleetPolicy = .standard
    ) {
        if duty == .offDuty {
            self = .off
        } else if !device.canTrack {
            self = .red
        } else {
            let degradedAfter = fleet.thresholds(duty: duty, powerMode: device.powerMode).degradedAfter
            let stale = oldestQueuedTime.map { now - $0 >= degradedAfter } ?? false
            let degraded = policy.network == .none || policy.failures > 0 || device.powerMode == .lowPower || stale
            self = degraded ? .yellow : .green
        }
    }

    /// What the phone shows under the color.
    public var message: String {
        switch self {
        case .off: "Off duty"
        case .green: "Location tracking active"
        case .yellow: "Connectivity degraded — you may miss assignments"
        case .red: "Location permission required"
        }
    }
}
