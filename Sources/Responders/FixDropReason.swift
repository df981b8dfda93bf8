/// Why ``FixFilter`` dropped a fix. Every drop is counted under exactly one reason, checked in
/// this order.
public enum FixDropReason: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// A field is not finite or out of range (latitude, longitude, accuracy, time).
    case invalid = 0
    /// Older than a fix already seen.
    case outOfOrder = 1
    /// Same timestamp as a fix already seen (the OS delivering it twice).
    case duplicate = 2
    /// Accuracy worse than the filter's limit.
    case inaccurate = 3
    /// Implies a speed above the filter's limit from the last kept fix.
    case implausibleSpeed = 4
    /// Fine, but neither the time nor the distance threshold of the profile is reached.
    case notDue = 5

    /// Snake-case name for counters and logs.
    public var name: String {
        switch self {
        case .invalid: "invalid"
        case .outOfOrder: "out_of_order"
        case .duplicate: "duplicate"
        case .inaccurate: "inaccurate"
        case .implausibleSpeed: "implausible_speed"
        case .notDue: "not_due"
        }
    }

    /// ``name``.
    public var description: String { name }
}

/// Drop counters of a ``FixFilter``, one per ``FixDropReason``.
public struct FixDropCounts: Hashable, Sendable, Codable {
    private var counts = [Int](repeating: 0, count: FixDropReason.allCases.count)

    /// All counters at 0.
    public init() {}

    /// Fixes dropped for `reason`.
    public subscript(reason: FixDropReason) -> Int {
        get { counts[reason.rawValue] }
        set { counts[reason.rawValue] = newValue }
    }

    /// All drops.
    public var total: Int { counts.reduce(0, +) }
}
