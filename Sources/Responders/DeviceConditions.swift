/// Whether the app may read the location.
public enum PermissionStatus: UInt8, CaseIterable, Hashable, Sendable, Codable {
    /// Location at any time, in the background too: what tracking needs.
    case always = 0
    /// Location only while the app is in the foreground.
    case whenInUse = 1
    /// Refused by the user or by policy.
    case denied = 2
    /// Not asked yet.
    case notDetermined = 3

    /// Snake-case name for logs and telemetry.
    public var name: String {
        switch self {
        case .always: "always"
        case .whenInUse: "when_in_use"
        case .denied: "denied"
        case .notDetermined: "not_determined"
        }
    }
}

/// The phone's power mode. Battery saver switches collection to ``CollectionProfile/lowPower``.
public enum PowerMode: UInt8, CaseIterable, Hashable, Sendable, Codable {
    /// Normal operation.
    case normal = 0
    /// Battery saver / low power mode.
    case lowPower = 1

    /// Snake-case name for logs and telemetry.
    public var name: String { self == .normal ? "normal" : "low_power" }
}

/// The app's lifecycle state as the OS reports it.
public enum AppState: UInt8, CaseIterable, Hashable, Sendable, Codable {
    /// Visible to the user.
    case foreground = 0
    /// Running without a visible window (location updates keep it alive).
    case background = 1
    /// Woken by the OS for an event (significant change, region) after being terminated.
    case relaunched = 2

    /// Snake-case name for logs and telemetry.
    public var name: String {
        switch self {
        case .foreground: "foreground"
        case .background: "background"
        case .relaunched: "relaunched"
        }
    }
}

/// The network path the phone has now.
public enum NetworkType: UInt8, CaseIterable, Hashable, Sendable, Codable {
    /// No network path at all (airplane mode, no coverage).
    case none = 0
    /// Wi-Fi (which may sit behind a captive portal).
    case wifi = 1
    /// Mobile data.
    case cellular = 2

    /// Snake-case name for logs and telemetry.
    public var name: String {
        switch self {
        case .none: "none"
        case .wifi: "wifi"
        case .cellular: "cellular"
        }
    }
}

/// What the phone's OS says about the device at one moment: the inputs of the telemetry
/// envelope and of the ``TrackingSignal`` besides the queue and the sender.
public struct DeviceConditions: Hashable, Sendable, Codable {
    /// Location permission.
    public var permission: PermissionStatus
    /// Whether location services are switched on system-wide.
    public var locationServicesEnabled: Bool
    /// Battery saver or not.
    public var powerMode: PowerMode
    /// Foreground, background or relaunched.
    public var appState: AppState

    /// Conditions of a healthy tracking phone: permission `always`, location on, normal power,
    /// in the background.
    public init(
        permission: PermissionStatus = .always, locationServicesEnabled: Bool = true,
        powerMode: PowerMode = .normal, appState: AppState = .background
    ) {
        self.permission = permission
        self.locationServicesEnabled = locationServicesEnabled
        self.powerMode = powerMode
        self.appState = appState
    }

    /// Whether the app can read locations now: location services on, and permission `always`,
    /// or `whenInUse` while in the foreground.
    public var canTrack: Bool {
        guard locationServicesEnabled else { return false }
        switch permission {
        case .always: return true
        case .whenInUse: return appState == .foreground
        case .denied, .notDetermined: return false
        }
    }
}
