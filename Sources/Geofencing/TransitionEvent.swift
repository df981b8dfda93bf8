/// What happened at a fence.
public enum TransitionKind: UInt8, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The device is now inside (after hysteresis, gating and confirmation).
    case enter
    /// The device is now outside.
    case exit
    /// The device has stayed inside a fence with a `dwellSeconds` for that long.
    case dwell

    /// `enter`, `exit` or `dwell`.
    public var description: String {
        switch self {
        case .enter: return "enter"
        case .exit: return "exit"
        case .dwell: return "dwell"
        }
    }

    /// Parses `enter`, `exit` or `dwell`.
    public init?(name: String) {
        switch name {
        case "enter": self = .enter
        case "exit": self = .exit
        case "dwell": self = .dwell
        default: return nil
        }
    }
}

/// One event of a ``TransitionDetector``: `device` crossed (or dwelt in) fence `fence` at `time`
/// (seconds, the time of the fix that decided it).
public struct TransitionEvent: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The device the event is about.
    public var device: Int32
    /// The fence's id.
    public var fence: Int32
    /// Enter, exit or dwell.
    public var kind: TransitionKind
    /// Seconds, on the clock of the fixes.
    public var time: Double

    /// An event of `kind` for (`device`, `fence`) at `time` seconds.
    @inlinable
    public init(device: Int32, fence: Int32, kind: TransitionKind, time: Double) {
        self.device = device
        self.fence = fence
        self.kind = kind
        self.time = time
    }

    /// `device,fence,kind,t`: the CSV row of the events file.
    public var description: String { "\(device),\(fence),\(kind),\(time)" }
}
