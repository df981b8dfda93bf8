import Geofencing

/// One user's tasks and completion-offer rules, and the fence -> trigger table decisions read.
///
/// Representation: `entries`, indexed by *slot* (an `Int32` that names an entry for the book's
/// whole life: slots are never reused, a deleted entry stays as a tombstone), an id -> slot
/// dictionary, and `bindings`, indexed by fence id, saying which slot and which ``ReminderKind``
/// a transition of that fence triggers. ``geofences(firstID:)`` numbers the fences of the
/// active entries and rebuilds the table; ``bind(fence:to:kind:transition:distanceMeters:delaySeconds:isOutermost:latitude:longitude:)``
/// binds fences built elsewhere.
///
/// Invariants: ids are unique; at most ``SubscriptionTier/activeTaskLimit`` active tasks
/// (completion-offer rules do not count).
public struct TaskBook: Hashable, Sendable, Codable {
    /// A task or a rule.
    public enum Item: Hashable, Sendable, Codable {
        case task(ReminderTask)
        case offer(CompletionOfferRule)

        /// The entry's id.
        public var id: String {
            switch self {
            case .task(let t): return t.id
            case .offer(let r): return r.id
            }
        }

        /// The Geofencing task that makes its fences.
        public var placeTask: PlaceTask {
            switch self {
            case .task(let t): return t.placeTask
            case .offer(let r): return r.placeTask
            }
        }
    }

    /// Lifecycle of an entry.
    public enum Status: String, Hashable, Sendable, Codable {
        /// Makes fences and nudges.
        case active
        /// A one-shot task that is done: no fences, no nudges.
        case completed
        /// Gone: no fences; an event still bound to it is suppressed as `.taskDeleted`.
        case deleted
    }

    /// One slot.
    public struct Entry: Hashable, Sendable, Codable {
        /// The task or rule.
        public var item: Item
        /// Active, completed or deleted.
        public var status: Status
    }

    /// What a transition of one fence triggers.
    public struct Binding: Hashable, Sendable, Codable {
        /// The entry's slot.
        public var slot: Int32
        /// What it nudges for (approach, arrival, post-arrival or offer).
        public var kind: ReminderKind
        /// The transition that triggers it (enter, exit for a leave rule, dwell for post-arrival).
        public var transition: TransitionKind
        /// The distance the text names: the ring's radius, meters.
        public var distanceMeters: Double
        /// Seconds from the transition to the nudge.
        public var delaySeconds: Double
        /// The widest approach ring (or, without rings, the arrival fence) of its place: leaving
        /// it ends the task's trip.
        public var isOutermost: Bool
        /// The fence's center, degrees (the dense-area cooldown measures between centers).
        public var latitude: Double
        /// Longitude of the center, degrees.
        public var longitude: Double
    }

    /// What the eligibility chain reads of an entry, as plain values (no strings to retain on
    /// the decision path). Kept in step with ``entries``.
    public struct Policy: Hashable, Sendable {
        /// Active, completed or deleted.
        public var status: Status
        /// A completion-offer rule (else a task).
        public var isOffer: Bool
        /// False for a disabled rule.
        public var isEnabled: Bool
        /// Done means done today.
        public var isRepeating: Bool
        /// Offers may ignore completion; tasks never do.
        public var onlyIfIncomplete: Bool
        /// Seconds; NaN = the preference's default cooldown.
        public var cooldownSeconds: Double

        init(_ e: Entry) {
            status = e.status
            switch e.item {
            case .task(let t):
                (isOffer, isEnabled, isRepeating, onlyIfIncomplete) = (false, true, t.isRepeating, true)
                cooldownSeconds = t.cooldownSeconds ?? .nan
            case .offer(let r):
                (isOffer, isEnabled, isRepeating, onlyIfIncomplete) = (true, r.isEnabled, r.isRepeating, r.onlyIfIncomplete)
                cooldownSeconds = r.cooldownSeconds ?? .nan
            }
        }
    }

    /// Entries by slot.
    public private(set) var entries: [Entry] = []
    /// ``Policy`` by slot, derived from ``entries`` (not encoded).
    public private(set) var policies: [Policy] = []
    /// The tier that sets the active-task limit.
    public var tier: SubscriptionTier
    private var slotByID: [String: Int32] = [:]
    /// Bindings by fence id (`nil` = unbound).
    public private(set) var bindings: [Binding?] = []

    /// An empty book for `tier`.
    public init(tier: SubscriptionTier = .free) {
        self.tier = tier
    }

    /// The slot of an id.
    public func slot(of id: String) -> Int32? { slotByID[id] }

    /// The policy of `slot`, nil for a slot the book never had.
    @inlinable
    public func policy(_ slot: Int32) -> Policy? {
        slot >= 0 && Int(slot) < policies.count ? policies[Int(slot)] : nil
    }

    /// The entry in `slot`, nil for a slot the book never had.
    @inlinable
    public func entry(_ slot: Int32) -> Entry? {
        slot >= 0 && Int(slot) < entries.count ? entries[Int(slot)] : nil
    }

    /// What fence `id` triggers, nil for an unbound fence.
    @inlinable
    public func binding(ofFence id: Int32) -> Binding? {
        id >= 0 && Int(id) < bindings.count ? bindings[Int(id)] : nil
    }

    /// Active tasks (rules excluded).
    public var activeTaskCount: Int {
        entries.reduce(0) { n, e in
            if case .task = e.item, e.status == .active { return n + 1 }
            return n
        }
    }

    /// Adds a task and returns its slot.
    /// - Throws: ``ReminderError/activeTaskLimit(limit:tier:)`` for a fourth active task on the
    ///   free tier; ``ReminderError/duplicateTaskID(_:)``; ``ReminderError/invalidTask(id:message:)``
    ///   for an empty title, an arrive/leave kind (use a ``CompletionOfferRule``), a negative or
    ///   NaN cooldown, or places Geofencing rejects.
    @discardableResult
    public mutating func add(_ task: ReminderTask) throws(ReminderError) -> Int32 {
        if let limit = tier.activeTaskLimit, activeTaskCount >= limit {
            throw .activeTaskLimit(limit: limit, tier: tier)
        }
        guard !task.title.isEmpty else { throw .invalidTask(id: task.id, message: "the title is empty") }
        guard task.placeTask.kind != .arriveTrigger, task.placeTask.kind != .leaveTrigger else {
            throw .invalidTask(id: task.id, message: "arrive/leave triggers are CompletionOfferRules, not tasks")
        }
        if let c = task.cooldownSeconds, !(c.isFinite && c >= 0) {
            throw .invalidTask(id: task.id, message: "cooldown must be finite and >= 0, got \(c)")
        }
        return try insert(.task(task))
    }

    /// Adds a completion-offer rule and returns its slot.
    /// - Throws: ``ReminderError/duplicateTaskID(_:)``; ``ReminderError/invalidTask(id:message:)``
    ///   for an empty activity, a negative or NaN delay or cooldown, or a radius Geofencing rejects.
    @discardableResult
    public mutating func add(_ rule: CompletionOfferRule) throws(ReminderError) -> Int32 {
        guard !rule.activity.isEmpty else { throw .invalidTask(id: rule.id, message: "the activity is empty") }
        guard rule.delaySeconds.isFinite, rule.delaySeconds >= 0 else {
            throw .invalidTask(id: rule.id, message: "delay must be finite and >= 0, got \(rule.delaySeconds)")
        }
        if let c = rule.cooldownSeconds, !(c.isFinite && c >= 0) {
            throw .invalidTask(id: rule.id, message: "cooldown must be finite and >= 0, got \(c)")
        }
        return try insert(.offer(rule))
    }

    private mutating func insert(_ item: Item) throws(ReminderError) -> Int32 {
        guard slotByID[item.id] == nil else { throw .duplicateTaskID(item.id) }
        do {
            _ = try item.placeTask.fences(firstID: 0)
        } catch {
            throw .invalidTask(id: item.id, message: error.description)
        }
        let slot = Int32(entries.count)
        entries.append(Entry(item: item, status: .active))
        policies.append(Policy(entries[entries.count - 1]))
        slotByID[item.id] = slot
        return slot
    }

    /// Replaces the place with `place.id` in every task and rule that uses it (new center, same
    /// id); the next ``geofences(firstID:)`` reflects it. Returns the slots changed.
    @discardableResult
    public mutating func updatePlace(_ place: Place) -> [Int32] {
        var changed: [Int32] = []
        for k in entries.indices {
            switch entries[k].item {
            case .task(var t):
                guard t.placeTask.places.contains(where: { $0.id == place.id }) else { continue }
                t.placeTask.places = t.placeTask.places.map { $0.id == place.id ? place : $0 }
                entries[k].item = .task(t)
            case .offer(var r):
                guard r.place.id == place.id else { continue }
                r.place = place
                entries[k].item = .offer(r)
            }
            changed.append(Int32(k))
        }
        return changed
    }

    /// Marks the entry `id` completed (a one-shot task: no more fences or nudges) or deleted.
    /// A repeating task or rule is never marked completed: its "done today" lives in the
    /// ``ReminderLedger``.
    /// - Throws: ``ReminderError/unknownTask(_:)``.
    public mutating func setStatus(_ status: Status, of id: String) throws(ReminderError) {
        guard let slot = slotByID[id] else { throw .unknownTask(id) }
        if status == .completed, isRepeating(slot) { return }
        entries[Int(slot)].status = status
        policies[Int(slot)] = Policy(entries[Int(slot)])
    }

    /// Replaces a rule's enabled flag (a disabled rule makes no fence and no offer).
    /// - Throws: ``ReminderError/unknownTask(_:)`` for an id that is not a rule.
    public mutating func setRuleEnabled(_ enabled: Bool, id: String) throws(ReminderError) {
        guard let slot = slotByID[id], case .offer(var r) = entries[Int(slot)].item else { throw .unknownTask(id) }
        r.isEnabled = enabled
        entries[Int(slot)].item = .offer(r)
        policies[Int(slot)] = Policy(entries[Int(slot)])
    }

    /// Whether the entry repeats daily.
    public func isRepeating(_ slot: Int32) -> Bool { policies[Int(slot)].isRepeating }

    private enum CodingKeys: String, CodingKey { case entries, tier, slotByID, bindings }

    /// Decodes a book and rebuilds its policies.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        entries = try c.decode([Entry].self, forKey: .entries)
        tier = try c.decode(SubscriptionTier.self, forKey: .tier)
        slotByID = try c.decode([String: Int32].self, forKey: .slotByID)
        bindings = try c.decode([Binding?].self, forKey: .bindings)
        policies = entries.map(Policy.init)
    }

    /// The fences of every active entry (enabled rules only), numbered from `firstID`, and the
    /// binding table rebuilt to match: the next region plan. Completed, deleted and disabled
    /// entries have none.
    /// - Throws: ``ReminderError/invalidTask(id:message:)`` if Geofencing rejects an entry
    ///   (e.g. ids past `Int32.max`).
    public mutating func geofences(firstID: Int32 = 0) throws(ReminderError) -> [Geofence] {
        var out: [Geofence] = []
        bindings = []
        for (k, e) in entries.enumerated() where e.status == .active {
            if case .offer(let r) = e.item, !r.isEnabled { continue }
            let fences: [Geofence]
            do {
                fences = try e.item.placeTask.fences(firstID: firstID + Int32(out.count))
            } catch {
                throw .invalidTask(id: e.item.id, message: error.description)
            }
            var widest: [String: Double] = [:]
            for f in fences {
                switch f.kind {
                case .approach, .arrival: widest[f.place.id] = max(widest[f.place.id] ?? 0, f.radiusMeters)
                default: break
                }
            }
            for f in fences {
                let kind: ReminderKind, transition: TransitionKind
                switch f.kind {
                case .approach: (kind, transition) = (.approach, .enter)
                case .arrival: (kind, transition) = (.arrival, .enter)
                case .postArrivalDwell: (kind, transition) = (.postArrival, .dwell)
                case .arriveTrigger: (kind, transition) = (.offer, .enter)
                case .leaveTrigger: (kind, transition) = (.offer, .exit)
                }
                bind(
                    fence: f.id, to: Int32(k), kind: kind, transition: transition, distanceMeters: f.radiusMeters,
                    delaySeconds: f.delaySeconds ?? 0, isOutermost: widest[f.place.id] == f.radiusMeters && (kind == .approach || kind == .arrival),
                    latitude: f.place.latitude, longitude: f.place.longitude)
            }
            out += fences
        }
        return out
    }

    /// Binds fence `id` (built elsewhere, e.g. a server's fence table) to the entry in `slot`.
    /// - Precondition: `id >= 0` and `slot >= 0`. Bindings are a table indexed by fence id, so
    ///   memory grows with the largest id bound.
    public mutating func bind(
        fence id: Int32, to slot: Int32, kind: ReminderKind, transition: TransitionKind = .enter,
        distanceMeters: Double, delaySeconds: Double = 0, isOutermost: Bool = false,
        latitude: Double, longitude: Double
    ) {
        precondition(id >= 0 && slot >= 0, "fence ids and task slots are >= 0")
        if Int(id) >= bindings.count { bindings += [Binding?](repeating: nil, count: Int(id) + 1 - bindings.count) }
        bindings[Int(id)] = Binding(
            slot: slot, kind: kind, transition: transition, distanceMeters: distanceMeters,
            delaySeconds: delaySeconds, isOutermost: isOutermost, latitude: latitude, longitude: longitude)
    }
}
