/// Ages of the latest fix (seconds) at which a responder turns DEGRADED and OFFLINE.
///
/// A fleet may set its own (``FleetPolicy``); the standard ones, by duty state: on duty (a fix every 60 s) 90 s and 180 s; on a mission (every 15 s) 30 s
/// and 60 s; battery saver (every 120 s) 180 s and 360 s. A per-responder expected interval `i`
/// gives 1.5 `i` and 3 `i` (the on-duty ratios). A mission gets 2 x and 4 x its interval
/// instead: at 15 s, 1.5 x would call a responder degraded after one fix delayed by 8 s of
/// upload jitter.
/// Invariant: `0 < degradedAfter <= offlineAfter` (either may be infinite: never late).
public struct LivenessThresholds: Hashable, Sendable, Codable {
    /// Seconds of silence after which the responder is DEGRADED.
    public let degradedAfter: Double
    /// Seconds of silence after which the responder is OFFLINE.
    public let offlineAfter: Double

    /// - Precondition: `0 < degradedAfter <= offlineAfter`.
    public init(degradedAfter: Double, offlineAfter: Double) {
        precondition(degradedAfter > 0 && degradedAfter <= offlineAfter, "thresholds need 0 < degraded <= offline")
        self.degradedAfter = degradedAfter
        self.offlineAfter = offlineAfter
    }

    /// 1.5 x and 3 x an expected interval in seconds.
    /// - Precondition: `expectedInterval > 0`.
    public init(expectedInterval: Double) {
        self.init(degradedAfter: 1.5 * expectedInterval, offlineAfter: 3 * expectedInterval)
    }

    /// The thresholds of a duty state and power mode in ``FleetPolicy/standard`` (see the type's
    /// comment). Off duty has none (both infinite).
    public init(duty: DutyState, powerMode: PowerMode = .normal) {
        self = FleetPolicy.standard.thresholds(duty: duty, powerMode: powerMode)
    }

    /// Status of an active responder whose latest fix is `age` seconds old.
    @inlinable
    public func status(age: Double) -> LivenessStatus {
        age < degradedAfter ? .online : (age < offlineAfter ? .degraded : .offline)
    }
}
