import Geodesy
import Geofencing
import Reminders
import Workloads

/// A user's "Mark done" in the nudge simulation: `device` completed the task in `slot` at
/// `time` (Unix seconds).
public struct NudgeCompletion: Hashable, Sendable {
    /// The device.
    public var device: Int32
    /// The task slot.
    public var slot: Int32
    /// Unix seconds.
    public var time: Double
}

/// What one pass of the reminders layer decided over a workload's transition events.
public struct NudgeRun: Sendable {
    /// `decisions[k]` is for device `devices[k]`, in the order they were settled.
    public var devices: [Int32] = []
    /// The decisions.
    public var decisions: [ReminderDecision] = []
    /// The simulated users' completions, in time order per device.
    public var completions: [NudgeCompletion] = []
    /// The engines' counters, summed.
    public var counters = ReminderCounters()

    /// An empty run.
    public init() {}
}

/// The `geofence-bench nudges` world: one `ReminderEngine` per device behind the detector's
/// events, one task per POI (its fences of every tier, as approach rings: "You're 3 mi from
/// POI 17 — errand 17?"), and simulated users who tap "Mark done" on a fraction of the nudges.
///
/// Times: workload times are seconds after `epoch` (Unix seconds of t = 0); the engines see
/// Unix seconds, so local dates and quiet hours follow each device's zone. Everything is
/// deterministic: a nudge is completed when a SplitMix64 hash of (seed, device, task, time)
/// falls under `completionProbability`, `completionDelaySeconds` after it was shown.
public struct NudgeSimulation: Sendable {
    /// Unix seconds of workload time 0.
    public let epoch: Double
    /// One task per POI, its fences bound by their workload ids.
    public let book: TaskBook
    /// The detector's events, times in seconds after `epoch`, in time order.
    public let events: [TransitionEvent]
    /// Preferences of devices not in `perDevice`.
    public let defaults: ReminderPreferences
    /// Preferences by device.
    public let perDevice: [Int32: ReminderPreferences]
    /// Share of shown task nudges the simulated user marks done (default 0.3).
    public var completionProbability = 0.3
    /// Seconds from seeing a nudge to marking it done (default 60).
    public var completionDelaySeconds = 60.0
    /// Seed of the completion hash.
    public var seed: UInt64 = 1

    /// The benchmark's user: Near Me's policy with the limits the user may set turned on (quiet
    /// 22:00-07:00, 2 nudges a local day, 6 h spacing, 2 h per task), UTC. The world gives every
    /// device one task per POI (10,000 on the default workload, where Near Me's free tier allows
    /// 3), so without limits every POI passed is a nudge: measured on the default workload, 116
    /// notifications per device-day.
    public static var benchmarkDefaults: ReminderPreferences {
        var p = ReminderPreferences()
        p.proximity.quietHours = try! QuietHours(start: 22 * 60, end: 7 * 60)
        p.proximity.dailyCap = 2
        p.proximity.minimumSpacingSeconds = 21_600
        p.proximity.defaultCooldownSeconds = 7_200
        return p
    }

    /// The largest fence id a world of `fenceCount` fences accepts: `16 * fenceCount + 1_048_575`.
    /// `TaskBook` keeps its bindings in a table indexed by fence id, so an id far beyond the
    /// number of fences (a hand-edited file) would cost memory for every id below it.
    public static func maximumFenceID(fenceCount: Int) -> Int { 16 * fenceCount + (1 << 20) - 1 }

    /// A world over workload fences (grouped by `poi_id` into tasks) and the detector's events.
    /// - Throws: `ReminderError` for invalid preferences, a POI center Geofencing rejects, or a
    ///   fence id above ``maximumFenceID(fenceCount:)`` (`ReminderError/invalidTask(id:message:)`
    ///   naming the fence).
    public init(
        fences: [WorkloadFence], events: [TransitionEvent], epoch: Double,
        defaults: ReminderPreferences = NudgeSimulation.benchmarkDefaults,
        perDevice: [Int32: ReminderPreferences] = [:]
    ) throws(ReminderError) {
        try defaults.validate()
        for (_, p) in perDevice { try p.validate() }
        let maximumID = Self.maximumFenceID(fenceCount: fences.count)
        if let f = fences.first(where: { Int($0.id) > maximumID }) {
            throw .invalidTask(
                id: "poi-\(f.poiID)",
                message:
                    "fence id \(f.id) is above \(maximumID), the largest id a world of \(fences.count) fences accepts (bindings are a table by fence id)"
            )
        }
        var book = TaskBook(tier: .premium)
        var slotOfPOI: [Int32: Int32] = [:]
        var widest: [Int32: Double] = [:]
        for f in fences { widest[f.poiID] = max(widest[f.poiID] ?? 0, f.radius) }
        for f in fences {
            let slot: Int32
            if let s = slotOfPOI[f.poiID] {
                slot = s
            } else {
                let place: Place
                do { place = try Place(id: "poi-\(f.poiID)", latitude: f.latitude, longitude: f.longitude) } catch {
                    throw .invalidTask(id: "poi-\(f.poiID)", message: error.description)
                }
                slot = try book.add(
                    ReminderTask(
                        id: "poi-\(f.poiID)", title: "errand \(f.poiID)", kind: .poiCategory,
                        places: [place], placeLabel: "POI \(f.poiID)"))
                slotOfPOI[f.poiID] = slot
            }
            book.bind(
                fence: f.id, to: slot, kind: .approach, distanceMeters: f.radius,
                isOutermost: f.radius == widest[f.poiID], latitude: f.latitude, longitude: f.longitude)
        }
        self.epoch = epoch
        self.book = book
        self.events = events
        self.defaults = defaults
        self.perDevice = perDevice
    }

    /// The preferences of `device`.
    public func preferences(of device: Int32) -> ReminderPreferences { perDevice[device] ?? defaults }

    /// Runs every event through its device's engine (the part the benchmark times), then
    /// delivers what is still waiting a day after the last event.
    public func run() -> NudgeRun {
        var run = NudgeRun()
        var engineOf: [Int32: Int] = [:]
        var engines: [ReminderEngine] = []
        var pending: [[NudgeCompletion]] = []
        var out: [ReminderDecision] = []
        out.reserveCapacity(events.count / 2)
        run.devices.reserveCapacity(events.count / 2)
        let context = AppContext.background
        var lastTime = epoch
        for event in events {
            let now = epoch + event.time
            lastTime = now
            let e: Int
            if let k = engineOf[event.device] {
                e = k
            } else {
                e = engines.count
                engineOf[event.device] = e
                // Cannot fail: validated in init.
                engines.append(try! ReminderEngine(preferences: preferences(of: event.device)))
                pending.append([])
            }
            let before = out.count
            while let c = pending[e].first, c.time <= now {
                engines[e].advance(to: c.time, in: book, context: context, into: &out)
                _ = engines[e].apply(.complete(slot: c.slot), in: book, now: c.time)
                run.completions.append(c)
                pending[e].removeFirst()
            }
            engines[e].handle(
                TransitionEvent(device: event.device, fence: event.fence, kind: event.kind, time: now),
                in: book, context: context, now: now, into: &out)
            if out.count > before { settle(out, from: before, device: event.device, pending: &pending[e], run: &run) }
        }
        for (device, e) in engineOf.sorted(by: { $0.value < $1.value }) {
            let before = out.count
            while let c = pending[e].first {
                engines[e].advance(to: c.time, in: book, context: context, into: &out)
                _ = engines[e].apply(.complete(slot: c.slot), in: book, now: c.time)
                run.completions.append(c)
                pending[e].removeFirst()
            }
            engines[e].advance(to: lastTime + 86_400, in: book, context: context, into: &out)
            if out.count > before { settle(out, from: before, device: device, pending: &pending[e], run: &run) }
            let c = engines[e].counters
            run.counters.events += c.events
            run.counters.ignored += c.ignored
            run.counters.invalidTimes += c.invalidTimes
            run.counters.delivered += c.delivered
            run.counters.suppressed += c.suppressed
            run.counters.queued += c.queued
        }
        run.decisions = out
        return run
    }

    /// Tags new decisions with their device and schedules the simulated completions of new
    /// deliveries.
    private func settle(_ out: [ReminderDecision], from start: Int, device: Int32, pending: inout [NudgeCompletion], run: inout NudgeRun) {
        for k in start..<out.count {
            run.devices.append(device)
            guard out[k].isDelivered else { continue }
            for item in out[k].items {
                var h = SplitMix64(
                    seed: seed ^ (UInt64(UInt32(bitPattern: device)) << 32) ^ UInt64(UInt32(bitPattern: item.slot))
                        ^ out[k].time.bitPattern)
                if h.nextUnit() < completionProbability {
                    pending.append(NudgeCompletion(device: device, slot: item.slot, time: out[k].time + completionDelaySeconds))
                }
            }
        }
        pending.sort { $0.time < $1.time }
    }
}
