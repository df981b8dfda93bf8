/// The phone's own log (no coordinates, no personal data): one line per change worth knowing
/// when a phone went quiet. It watches the inputs it is given and writes a line when one of
/// them changes: duty state, permission, location services, power mode, app lifecycle
/// (foreground, background, relaunched), network type, and the battery crossing 20 % and 10 %
/// (downwards; crossing back up above a threshold re-arms it).
///
/// Lines are `t=SECONDS event=NAME from=OLD to=NEW` (battery: `event=battery_low level=20`).
/// The first observation sets the baseline and writes nothing.
public struct PhoneEventLog: Sendable, Codable {
    /// Battery levels (percent) that write a line when the level falls to or below them.
    public static let batteryThresholds: [Double] = [20, 10]

    private var device: DeviceConditions?
    private var duty: DutyState?
    private var network: NetworkType?
    private var battery: Double?
    /// Lines written so far, oldest first.
    public private(set) var lines: [String] = []

    /// An empty log.
    public init() {}

    /// Observes the phone at `now` (seconds) and appends a line per change; returns how many.
    /// `batteryPercent` is 0...100.
    @discardableResult
    public mutating func observe(
        device: DeviceConditions, duty: DutyState, network: NetworkType, batteryPercent: Double,
        now: Double
    ) -> Int {
        let before = lines.count
        let t = "t=\(Int(now.rounded(.down)))"
        if let old = self.duty, old != duty { lines.append("\(t) event=duty from=\(old.name) to=\(duty.name)") }
        if let old = self.device {
            if old.permission != device.permission {
                lines.append("\(t) event=permission from=\(old.permission.name) to=\(device.permission.name)")
            }
            if old.locationServicesEnabled != device.locationServicesEnabled {
                lines.append(
                    "\(t) event=location_services from=\(old.locationServicesEnabled ? "on" : "off") to=\(device.locationServicesEnabled ? "on" : "off")"
                )
            }
            if old.powerMode != device.powerMode {
                lines.append("\(t) event=power_mode from=\(old.powerMode.name) to=\(device.powerMode.name)")
            }
            if old.appState != device.appState {
                lines.append("\(t) event=lifecycle from=\(old.appState.name) to=\(device.appState.name)")
            }
        }
        if let old = self.network, old != network { lines.append("\(t) event=network from=\(old.name) to=\(network.name)") }
        if let old = battery {
            for level in Self.batteryThresholds where old > level && batteryPercent <= level {
                lines.append("\(t) event=battery_low level=\(Int(level))")
            }
        }
        self.device = device
        self.duty = duty
        self.network = network
        battery = batteryPercent
        return lines.count - before
    }
}
