/// How often the phone keeps a fix: when `interval` seconds have passed since the last kept fix,
/// or the phone has moved more than `distance` meters from it (whichever comes first).
///
/// The server derives its liveness thresholds from the same `interval` (see
/// ``LivenessThresholds``), so phone and server agree on what "late" means.
/// Invariants: `interval > 0` and `distance >= 0`, both possibly `.infinity` (never by that rule).
public struct CollectionProfile: Hashable, Sendable, Codable {
    /// Seconds after the last kept fix at which the next fix is kept regardless of movement.
    public let interval: Double
    /// Meters of movement away from the last kept fix beyond which a fix is kept at once.
    public let distance: Double

    /// - Precondition: `interval > 0`, `distance >= 0` (either may be `.infinity`).
    public init(interval: Double, distance: Double) {
        precondition(interval > 0 && distance >= 0, "a profile needs interval > 0 s and distance >= 0 m")
        self.interval = interval
        self.distance = distance
    }

    /// Whether the profile collects anything.
    public var isCollecting: Bool { interval.isFinite || distance.isFinite }

    /// Off duty: nothing is collected.
    public static let none = CollectionProfile(interval: .infinity, distance: .infinity)
    /// On duty: 60 s or 50 m.
    public static let onDuty = CollectionProfile(interval: 60, distance: 50)
    /// On a mission: 15 s or 20 m.
    public static let onMission = CollectionProfile(interval: 15, distance: 20)
    /// Battery saver, on duty or on a mission: 120 s or 500 m (the OS's significant-change
    /// distance), so the phone still checks in at a slow, known cadence and the server's
    /// thresholds (180 s degraded, 360 s offline) follow it.
    public static let lowPower = CollectionProfile(interval: 120, distance: 500)

    /// The profile for a duty state and power mode in ``FleetPolicy/standard``: ``none`` off duty
    /// whatever the power mode, ``lowPower`` in battery saver, else ``onDuty`` or ``onMission``.
    public static func forDuty(_ duty: DutyState, powerMode: PowerMode) -> CollectionProfile {
        FleetPolicy.standard.profile(duty: duty, powerMode: powerMode)
    }
}
