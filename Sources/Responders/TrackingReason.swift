/// Why a phone may stop reporting, as its latest telemetry says: kept by the server beside the
/// liveness status (a responder OFFLINE with `permissionRevoked` needs a call, not a wait).
///
/// The first that applies, in this order: permission not `always` (nor `whenInUse` in the
/// foreground) -> ``permissionRevoked``; location services off -> ``locationServicesOff``;
/// battery saver -> ``lowPower``; otherwise ``none``.
public enum TrackingReason: UInt8, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Nothing in the telemetry explains a silence.
    case none = 0
    /// The app may not read the location in the background.
    case permissionRevoked = 1
    /// Location services are switched off system-wide.
    case locationServicesOff = 2
    /// Battery saver: the phone reports less often.
    case lowPower = 3

    /// The reason `telemetry` gives (see the type's comment).
    public init(_ telemetry: TelemetryEnvelope) {
        let device = DeviceConditions(
            permission: telemetry.permission, locationServicesEnabled: true,
            powerMode: telemetry.powerMode, appState: telemetry.appState)
        if !device.canTrack {
            self = .permissionRevoked
        } else if !telemetry.locationServicesEnabled {
            self = .locationServicesOff
        } else {
            self = telemetry.powerMode == .lowPower ? .lowPower : .none
        }
    }

    /// Snake-case name used as the Prometheus label value and in JSON.
    public var name: String {
        switch self {
        case .none: "none"
        case .permissionRevoked: "permission_revoked"
        case .locationServicesOff: "location_services_off"
        case .lowPower: "low_power"
        }
    }

    /// The reason named `name`, nil if none is.
    public init?(name: String) {
        guard let reason = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = reason
    }

    /// ``name``.
    public var description: String { name }
}
