import Geodesy
import GeoCells

/// Evaluates ``AlertRules`` over the liveness state: feed it every transition, ask it at any
/// `now` which alerts fire.
///
/// It keeps, per responder, the times of its last `flapCount` drops to OFFLINE (a small ring),
/// nothing else. - Complexity: ``evaluate(now:liveness:position:)`` is O(responders x regions).
public struct AlertEvaluator: Sendable {
    /// The rules.
    public var rules: AlertRules
    private var drops: [ResponderID: [Double]] = [:]

    /// An evaluator with no history yet.
    public init(rules: AlertRules = AlertRules()) {
        self.rules = rules
    }

    /// Remembers the drops to OFFLINE among `events` (from ONLINE or DEGRADED).
    public mutating func record(_ events: some Sequence<LivenessTransition>) {
        for e in events where e.to == .offline && (e.from == .online || e.from == .degraded) {
            var times = drops[e.responder] ?? []
            times.append(e.time)
            if times.count > rules.flapCount { times.removeFirst(times.count - rules.flapCount) }
            drops[e.responder] = times
        }
    }

    /// The alerts firing at `now` (seconds): HighOfflineRate first, then ResponderFlapping by
    /// responder, then NoOnlineResponders by configured region and by cell token.
    /// `position` gives a responder's latest location (nil if unknown).
    public func evaluate(now: Double, liveness: LivenessMonitor, position: (ResponderID) -> LatLng?) -> [Alert] {
        var alerts: [Alert] = []
        let offline = liveness.count(of: .offline)
        let active = liveness.count(of: .online) + liveness.count(of: .degraded) + offline
        if active > 0 && Double(offline) > rules.offlineRate * Double(active) {
            alerts.append(.highOfflineRate(offline: offline, active: active))
        }
        for (responder, times) in drops.sorted(by: { $0.key < $1.key }) {
            let recent = times.filter { now - $0 < rules.flapWindow && $0 <= now }.count
            if recent >= rules.flapCount { alerts.append(.responderFlapping(responder, offlineEntries: recent)) }
        }
        guard !rules.regions.isEmpty || rules.cellLevel != nil else { return alerts }
        var regionOnline = [Int](repeating: 0, count: rules.regions.count)
        var regionActive = [Int](repeating: 0, count: rules.regions.count)
        var cells: [CellID: (active: Int, online: Int)] = [:]
        for responder in liveness.responders {
            let status = liveness.status(of: responder)
            guard status == .online || status == .degraded || status == .offline, let location = position(responder) else { continue }
            let isOnline = status == .online ? 1 : 0
            for (k, region) in rules.regions.enumerated() where region.contains(location) {
                regionActive[k] += 1
                regionOnline[k] += isOnline
            }
            if let level = rules.cellLevel {
                let cell = CellID(location).parent(level: level)
                let old = cells[cell] ?? (0, 0)
                cells[cell] = (old.active + 1, old.online + isOnline)
            }
        }
        for (k, region) in rules.regions.enumerated() where regionOnline[k] == 0 {
            alerts.append(.noOnlineResponders(region: region.name, active: regionActive[k]))
        }
        for (cell, tally) in cells.sorted(by: { $0.key < $1.key }) where tally.online == 0 {
            alerts.append(.noOnlineResponders(region: cell.token, active: tally.active))
        }
        return alerts
    }
}
