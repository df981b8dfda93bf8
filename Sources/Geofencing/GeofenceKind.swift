/// What a fence is for: its tier in a task's set of fences.
///
/// - `approach(miles:)`: a wide ring announcing that the person is getting near (5, 3, 1 miles
///   for POI-category tasks; 2 for home/work; 5 for a custom place). Radius = miles × 1,609.344 m.
/// - `arrival`: the place itself (default radius 150 m, or the place's outline).
/// - `postArrivalDwell`: the same circle as the arrival fence, firing a `dwell` event once the
///   person has stayed inside for the fence's `dwellSeconds` (default 300 s).
/// - `arriveTrigger` / `leaveTrigger`: a reminder that fires on entering / on leaving the place
///   (default radius 150 m), optionally after `delaySeconds`.
public enum GeofenceKind: Hashable, Sendable, Codable, CustomStringConvertible {
    case approach(miles: Double)
    case arrival
    case postArrivalDwell
    case arriveTrigger
    case leaveTrigger

    /// Default priority of this tier (larger = more important to monitor): triggers and arrival
    /// first, then the dwell, then approach rings, nearer rings before wider ones.
    public var defaultPriority: Int {
        switch self {
        case .arriveTrigger, .leaveTrigger: return 100
        case .arrival: return 90
        case .postArrivalDwell: return 80
        // 60 minus 5 per mile: 1 mi -> 55, 2 mi -> 50, 3 mi -> 45, 5 mi -> 35; wider rings rank lower.
        // Rings are clamped to ±10,000 miles (wider than the Earth is round; NaN counts as wide).
        case .approach(let miles): return 60 - Int((5 * (miles.isNaN ? 10_000 : Swift.max(-10_000, Swift.min(miles, 10_000)))).rounded())
        }
    }

    /// Short label: `approach-5mi`, `arrival`, `dwell`, `arrive`, `leave`.
    public var description: String {
        switch self {
        case .approach(let miles):
            let whole = miles.rounded()
            return whole == miles && abs(miles) < 1e9 ? "approach-\(Int(whole))mi" : "approach-\(miles)mi"
        case .arrival: return "arrival"
        case .postArrivalDwell: return "dwell"
        case .arriveTrigger: return "arrive"
        case .leaveTrigger: return "leave"
        }
    }
}
