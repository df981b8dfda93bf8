/// What a responder is doing, as the phone reports it with every fix. It selects the phone's
/// ``CollectionProfile`` and, on the server, the liveness thresholds.
public enum DutyState: UInt8, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Not working: nothing is collected and nothing is expected from the phone.
    case offDuty = 0
    /// Available for incidents: a fix every 60 s or 50 m.
    case onDuty = 1
    /// Working an incident: a fix every 15 s or 20 m.
    case onMission = 2

    /// Snake-case name used in metrics, JSON and the database (`off_duty`, `on_duty`, `on_mission`).
    public var name: String {
        switch self {
        case .offDuty: "off_duty"
        case .onDuty: "on_duty"
        case .onMission: "on_mission"
        }
    }

    /// Whether a responder in this state is expected to report (``onDuty`` or ``onMission``).
    public var isActive: Bool { self != .offDuty }

    /// ``name``.
    public var description: String { name }
}
