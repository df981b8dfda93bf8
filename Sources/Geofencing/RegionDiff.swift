/// What an app must change in the OS's monitored set to go from `current` to a plan's regions:
/// unregister ``remove``, then register ``add``. A region whose center or radius changed (the
/// refresh region, every time) appears in both, because OS regions cannot be edited in place.
/// Regions already registered identically are left alone, so reconciling on launch never
/// re-registers everything.
///
/// Invariant (tested): applying the diff to `current` yields exactly the target set;
/// `remove` and `add` are in ``MonitorPlanner/RegionID`` order.
public struct RegionDiff: Hashable, Sendable, Codable {
    /// Regions to register, in id order.
    public var add: [MonitorPlanner.Region]
    /// Identifiers to unregister, in id order (including ids the planner does not know).
    public var remove: [MonitorPlanner.RegionID]

    /// A diff that registers `add` and unregisters `remove`.
    public init(add: [MonitorPlanner.Region] = [], remove: [MonitorPlanner.RegionID] = []) {
        self.add = add
        self.remove = remove
    }

    /// The diff from `current` to `target`. If `current` holds one id twice, every copy is
    /// removed (and the target's region registered afresh): duplicates are a broken state.
    public init(from current: [MonitorPlanner.Region], to target: [MonitorPlanner.Region]) {
        var currentByID: [MonitorPlanner.RegionID: MonitorPlanner.Region] = [:]
        var duplicated: Set<MonitorPlanner.RegionID> = []
        for r in current {
            if currentByID.updateValue(r, forKey: r.id) != nil { duplicated.insert(r.id) }
        }
        var targetIDs: Set<MonitorPlanner.RegionID> = []
        var add: [MonitorPlanner.Region] = []
        var remove: [MonitorPlanner.RegionID] = []
        for r in target {
            targetIDs.insert(r.id)
            if let old = currentByID[r.id], old == r, !duplicated.contains(r.id) { continue }
            if currentByID[r.id] != nil { remove.append(r.id) }
            add.append(r)
        }
        for id in currentByID.keys where !targetIDs.contains(id) { remove.append(id) }
        self.add = add.sorted { $0.id < $1.id }
        self.remove = remove.sorted()
    }

    /// True when nothing changes.
    public var isEmpty: Bool { add.isEmpty && remove.isEmpty }

    /// `current` with ``remove`` unregistered and ``add`` registered, in id order.
    public func applied(to current: [MonitorPlanner.Region]) -> [MonitorPlanner.Region] {
        let removed = Set(remove)
        var out = current.filter { !removed.contains($0.id) }
        out += add
        return out.sorted { $0.id < $1.id }
    }
}
