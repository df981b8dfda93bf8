/// The phone's state sent with every batch, so the server (and whoever reads its logs) can tell
/// *why* a phone went quiet. It holds no coordinates, and ``logLine`` writes none.
public struct TelemetryEnvelope: Hashable, Sendable, Codable {
    /// Location permission.
    public var permission: PermissionStatus
    /// Whether location services are on.
    public var locationServicesEnabled: Bool
    /// Battery saver or not.
    public var powerMode: PowerMode
    /// Foreground, background, relaunched.
    public var appState: AppState
    /// Fixes waiting in the phone's queue (this batch included).
    public var queueDepth: Int
    /// Seconds since the oldest queued fix was taken; 0 when the queue is empty.
    public var oldestEntryAge: Double
    /// The current network path.
    public var network: NetworkType

    /// An envelope with every field given (`oldestEntryAge` in seconds).
    public init(
        permission: PermissionStatus, locationServicesEnabled: Bool, powerMode: PowerMode,
        appState: AppState, queueDepth: Int, oldestEntryAge: Double, network: NetworkType
    ) {
        self.permission = permission
        self.locationServicesEnabled = locationServicesEnabled
        self.powerMode = powerMode
        self.appState = appState
        self.queueDepth = queueDepth
        self.oldestEntryAge = oldestEntryAge
        self.network = network
    }

    /// The envelope for `device` with the queue's state at `now` (seconds).
    public init(device: DeviceConditions, queueDepth: Int, oldestTime: Double?, network: NetworkType, now: Double) {
        self.init(
            permission: device.permission, locationServicesEnabled: device.locationServicesEnabled,
            powerMode: device.powerMode, appState: device.appState, queueDepth: queueDepth,
            oldestEntryAge: oldestTime.map { max(0, now - $0) } ?? 0, network: network)
    }

    /// One `key=value` line for logs, e.g.
    /// `permission=always location_services=on power=normal app=background queue=3 oldest_s=42 network=wifi`.
    /// The age is in whole seconds (rounded down); one that no `Int` holds (a client may send
    /// up to 1.8e308, a decoded envelope may hold NaN) is written as the number (`1e+300`, `nan`).
    public var logLine: String {
        let age = oldestEntryAge.rounded(.down)
        let ageText = age.magnitude < 0x1p63 ? String(Int(age)) : "\(age)"
        return "permission=\(permission.name) location_services=\(locationServicesEnabled ? "on" : "off")"
            + " power=\(powerMode.name) app=\(appState.name) queue=\(queueDepth)"
            + " oldest_s=\(ageText) network=\(network.name)"
    }
}
