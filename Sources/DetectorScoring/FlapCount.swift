import Geofencing

/// Visits and flaps in a list of transition events, a figure that needs no ground truth.
///
/// Per (device, fence), in time order (events of equal time in list order): an `enter` at most
/// ``reentrySeconds`` after that pair's most recent `exit` is a *flap* (an exit re-entered
/// within a minute: the boundary `<=` is inclusive, so a re-entry exactly 60 s later is a flap
/// and one 60.001 s later a visit); every other `enter` is a *visit*. `dwell` events are
/// ignored. A detector that never loses a device inside a fence has 0 flaps.
public struct FlapCount: Hashable, Sendable {
    /// A re-entry at most this many seconds after an exit is a flap (inclusive).
    public static let reentrySeconds = 60.0

    /// The `enter` and `exit` events counted.
    public var events = 0
    /// Entries that are not flaps.
    public var visits = 0
    /// Entries at most ``reentrySeconds`` after the same (device, fence)'s previous exit.
    public var flaps = 0

    /// All counts zero.
    public init() {}

    /// The counts of `events` (any order; times in seconds).
    /// - Complexity: O(n log n): the events are ordered by time, then one hash lookup each.
    public init(_ events: [TransitionEvent]) {
        let order = events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
        var lastExit: [PairKey: Double] = [:]
        for k in order {
            let e = events[k]
            let key = PairKey(device: e.device, fence: e.fence)
            switch e.kind {
            case .exit:
                self.events += 1
                lastExit[key] = e.time
            case .enter:
                self.events += 1
                if let t = lastExit[key], e.time - t <= Self.reentrySeconds {
                    flaps += 1
                } else {
                    visits += 1
                }
            case .dwell:
                break
            }
        }
    }

    /// Flaps per visit (0 when there is no visit).
    public var flapsPerVisit: Double { visits == 0 ? 0 : Double(flaps) / Double(visits) }

    /// The counts of `events` per group: `groupOfDevice` names each device's group (a device it
    /// does not name is in no group); groups sorted by name, every named group listed even
    /// without events.
    public static func byGroup(_ events: [TransitionEvent], groupOfDevice: [Int32: String]) -> [(group: String, count: FlapCount)] {
        var eventsOfGroup: [String: [TransitionEvent]] = [:]
        for group in groupOfDevice.values { eventsOfGroup[group] = [] }
        for e in events {
            if let group = groupOfDevice[e.device] { eventsOfGroup[group]!.append(e) }
        }
        return eventsOfGroup.keys.sorted().map { (group: $0, count: FlapCount(eventsOfGroup[$0]!)) }
    }

    struct PairKey: Hashable {
        var device: Int32
        var fence: Int32
    }
}
