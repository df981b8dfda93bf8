/// The server's liveness state machine for every responder, driven by deadlines.
///
/// Per responder: UNKNOWN until the first fix; then, while the latest fix's duty state is
/// active, ONLINE -> DEGRADED when the latest fix is 1.5 x the expected interval old, ->
/// OFFLINE at 3 x (``LivenessThresholds``), and back to ONLINE on a fresh fix; OFF_DUTY while the
/// latest fix says off duty. The thresholds are those of the latest fix's duty state and power
/// mode in the responder's fleet policy (``FleetTable``, ``FleetPolicy/thresholds(duty:powerMode:)``;
/// standard: on duty 90 s / 180 s, on a mission 30 s / 60 s) unless a per-responder expected
/// interval overrides them (1.5 x / 3 x). A responder's fleet is looked up once, when it is first
/// seen; the thresholds themselves are a flat table read per fix.
///
/// Ages are measured from the fix's own `time` (clamped to the server's `now`, so a phone clock
/// running ahead cannot keep a responder online), not from when it arrived: a status changes at
/// exactly `lastFix + threshold`, so the time to detect a silent phone is the threshold itself
/// counted from its last fix, and a late batch neither hides nor delays it.
///
/// An old or duplicate fix (not later than the latest) changes nothing: it never revives a
/// status. Fixes of equal (clamped) time order by sequence, as the store orders its latest
/// location (``StoredFix/isNewer(than:)``): a batch stamped ahead of its arrival counts its
/// last fix, whatever order its fixes come in. A fix that is new but already old when it arrives sets the status its age implies
/// (a 200 s old fix on duty leaves the responder OFFLINE).
///
/// Deadlines: each responder has at most one scheduled deadline in a min-heap (its next
/// threshold crossing). A fresh fix only moves a deadline *later*, which costs nothing: the old
/// entry surfaces, finds the responder's real deadline later, and is pushed once more. So a fix
/// costs O(1) (an array read for ids below 2^20, a hash lookup above), and the heap does
/// O(log n) work at most once per threshold crossing or re-check. ``advance(to:into:)`` reports each change with the deadline as its time,
/// so detection never waits for a poll. Recording a fix first runs the deadlines due by its `now`,
/// so transitions come out in time order.
///
/// Every mutating method takes `now` in seconds and appends the transitions it causes to
/// `events` (no allocation once the buffer has grown). `Codable`: a snapshot restored
/// mid-stream gives identical decisions. The snapshot holds infinities ("no fix yet", "nothing
/// scheduled"): with `JSONEncoder`, set `nonConformingFloatEncodingStrategy` (and the decoder's
/// counterpart).
public struct LivenessMonitor: Sendable, Codable {
    /// Slot + 1 of each responder id below ``denseIDLimit`` (0: none), read without hashing;
    /// grown to the largest such id seen. Larger ids go through `sparseSlots`.
    private var denseSlots: [Int32] = []
    private var sparseSlots: [ResponderID: Int32] = [:]
    /// Ids below this use `denseSlots` (at most 4 MiB of it): fleets number their responders
    /// densely, and a hash lookup costs more than the rest of recording a fix.
    static let denseIDLimit: Int32 = 1 << 20
    /// Responders in registration order (slot order).
    public private(set) var responders: [ResponderID] = []
    private var lastFix: [Double] = []
    /// Per slot: the sequence of the latest fix (ties of `lastFix` order by it).
    private var lastSequence: [Int64] = []
    private var duties: [DutyState] = []
    private var powerModes: [PowerMode] = []
    /// Per slot: the expected interval override in seconds, 0 for none.
    private var overrides: [Double] = []
    private var statuses: [LivenessStatus] = []
    private var scheduled: [Double] = []
    private var heap = DeadlineHeap()
    private var countsByStatus = [Int](repeating: 0, count: LivenessStatus.allCases.count)
    /// Who follows which policy.
    public let fleets: FleetTable
    /// Per policy index (``FleetTable/policyIndex(of:)``) three entries: on duty, on a mission,
    /// battery saver.
    private let thresholdTable: [LivenessThresholds]
    /// Per slot: the responder's policy index times 3.
    private var policyRows: [Int32] = []

    /// An empty monitor; each responder's thresholds come from its policy in `fleets`.
    public init(fleets: FleetTable = FleetTable()) {
        self.fleets = fleets
        thresholdTable = fleets.policies.flatMap { [$0.onDuty.thresholds, $0.onMission.thresholds, $0.lowPower.thresholds] }
    }

    /// Responders known (registered or seen).
    public var count: Int { responders.count }

    /// Responders currently in `status`.
    public func count(of status: LivenessStatus) -> Int { countsByStatus[Int(status.rawValue)] }

    /// Current status (``LivenessStatus/unknown`` for a responder never seen). As of the last
    /// `now` passed in: call ``advance(to:into:)`` first for a later time.
    public func status(of responder: ResponderID) -> LivenessStatus {
        existingSlot(responder).map { statuses[Int($0)] } ?? .unknown
    }

    /// `time` of the latest fix, seconds; nil before the first.
    public func lastFixTime(of responder: ResponderID) -> Double? {
        guard let slot = existingSlot(responder), lastFix[Int(slot)] > -.infinity else { return nil }
        return lastFix[Int(slot)]
    }

    /// Duty state of the latest fix; nil before the first.
    public func duty(of responder: ResponderID) -> DutyState? {
        guard let slot = existingSlot(responder), lastFix[Int(slot)] > -.infinity else { return nil }
        return duties[Int(slot)]
    }

    /// The thresholds in force for `responder` (override, else its latest fix's duty state);
    /// nil while off duty (an override applies only on duty or on a mission).
    public func thresholds(of responder: ResponderID) -> LivenessThresholds? {
        guard let slot = existingSlot(responder) else { return nil }
        return thresholds(slot: Int(slot))
    }

    /// The earliest scheduled deadline (seconds), nil when none. A deadline may turn out to be a
    /// re-check that changes nothing.
    public var nextDeadline: Double? { heap.count > 0 ? heap.topDeadline : nil }

    /// Makes `responder` known as UNKNOWN (so it counts in the gauges before its first fix).
    /// Does nothing if it is already known.
    public mutating func register(_ responder: ResponderID) {
        _ = slot(for: responder)
    }

    /// Sets (or, with nil, removes) `responder`'s expected interval in seconds, replacing the
    /// profile's. The status is re-evaluated at `now`.
    /// - Precondition: `seconds` is nil or > 0.
    public mutating func setExpectedInterval(
        _ seconds: Double?, for responder: ResponderID, now: Double,
        into events: inout [LivenessTransition]
    ) {
        precondition(seconds.map { $0 > 0 } ?? true, "an expected interval must be > 0 s")
        advance(to: now, into: &events)
        let slot = Int(slot(for: responder))
        overrides[slot] = seconds ?? 0
        set(slot, to: status(slot: slot, at: now), at: now, into: &events)
        schedule(slot, after: now)
    }

    /// Records a fix with `sequence` taken at `time` by `responder` in `duty`/`powerMode`,
    /// received at `now` (seconds). Returns whether it was the responder's newest: a later
    /// `min(time, now)`, or the same and a higher `sequence` (only then does it change anything).
    @discardableResult
    public mutating func recordFix(
        _ responder: ResponderID, time: Double, duty: DutyState, powerMode: PowerMode = .normal,
        sequence: Int64 = 0, now: Double, into events: inout [LivenessTransition]
    ) -> Bool {
        if heap.topDeadline <= now { advance(to: now, into: &events) }
        let slot = Int(slot(for: responder))
        let t = min(time, now)
        guard t > lastFix[slot] || (t == lastFix[slot] && sequence > lastSequence[slot]) else { return false }
        lastFix[slot] = t
        lastSequence[slot] = sequence
        duties[slot] = duty
        powerModes[slot] = powerMode
        set(slot, to: status(slot: slot, at: now), at: now, into: &events)
        schedule(slot, after: now)
        return true
    }

    /// Runs every deadline up to and including `now` (seconds); each change is reported with
    /// its deadline as the time.
    public mutating func advance(to now: Double, into events: inout [LivenessTransition]) {
        while heap.topDeadline <= now {
            let deadline = heap.topDeadline
            let slot = Int(heap.topSlot)
            heap.pop()
            guard scheduled[slot] == deadline else { continue }  // superseded entry
            scheduled[slot] = .infinity
            set(slot, to: status(slot: slot, at: deadline), at: deadline, into: &events)
            schedule(slot, after: deadline)
        }
    }

    // MARK: - Slots

    @inline(__always)
    private func existingSlot(_ responder: ResponderID) -> Int32? {
        let id = responder.rawValue
        if id < Self.denseIDLimit {
            guard Int(id) < denseSlots.count else { return nil }
            let slot = denseSlots[Int(id)]
            return slot > 0 ? slot - 1 : nil
        }
        return sparseSlots[responder]
    }

    private mutating func slot(for responder: ResponderID) -> Int32 {
        if let slot = existingSlot(responder) { return slot }
        let slot = Int32(responders.count)
        let id = responder.rawValue
        if id < Self.denseIDLimit {
            if Int(id) >= denseSlots.count { denseSlots.append(contentsOf: repeatElement(0, count: Int(id) + 1 - denseSlots.count)) }
            denseSlots[Int(id)] = slot + 1
        } else {
            sparseSlots[responder] = slot
        }
        responders.append(responder)
        lastFix.append(-.infinity)
        lastSequence.append(.max)  // no fix yet: a time of -infinity never ties above it
        duties.append(.offDuty)
        powerModes.append(.normal)
        overrides.append(0)
        policyRows.append(Int32(3 * fleets.policyIndex(of: responder)))
        statuses.append(.unknown)
        scheduled.append(.infinity)
        countsByStatus[Int(LivenessStatus.unknown.rawValue)] += 1
        return slot
    }

    private func thresholds(slot: Int) -> LivenessThresholds? {
        guard duties[slot].isActive else { return nil }
        if overrides[slot] > 0 { return LivenessThresholds(expectedInterval: overrides[slot]) }
        let block: Int32 = powerModes[slot] == .lowPower ? 2 : (duties[slot] == .onMission ? 1 : 0)
        return thresholdTable[Int(policyRows[slot] + block)]
    }

    /// Status at `time`: the same boundary expressions as ``nextBoundary(slot:after:)``, so a
    /// deadline always changes what it was scheduled for.
    private func status(slot: Int, at time: Double) -> LivenessStatus {
        let last = lastFix[slot]
        guard last > -.infinity else { return .unknown }
        guard duties[slot].isActive, let th = thresholds(slot: slot) else { return .offDuty }
        if time < last + th.degradedAfter { return .online }
        if time < last + th.offlineAfter { return .degraded }
        return .offline
    }

    private func nextBoundary(slot: Int, after time: Double) -> Double {
        let last = lastFix[slot]
        guard last > -.infinity, duties[slot].isActive, let th = thresholds(slot: slot) else { return .infinity }
        let degraded = last + th.degradedAfter
        if time < degraded { return degraded }
        let offline = last + th.offlineAfter
        return time < offline ? offline : .infinity
    }

    private mutating func schedule(_ slot: Int, after time: Double) {
        let deadline = nextBoundary(slot: slot, after: time)
        guard deadline < scheduled[slot] else { return }
        scheduled[slot] = deadline
        heap.push(deadline, slot: Int32(slot))
    }

    private mutating func set(
        _ slot: Int, to status: LivenessStatus, at time: Double,
        into events: inout [LivenessTransition]
    ) {
        let old = statuses[slot]
        guard old != status else { return }
        statuses[slot] = status
        countsByStatus[Int(old.rawValue)] -= 1
        countsByStatus[Int(status.rawValue)] += 1
        events.append(LivenessTransition(responder: responders[slot], from: old, to: status, time: time))
    }
}
