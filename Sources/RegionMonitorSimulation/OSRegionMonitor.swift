import Geodesy
import Geofencing
import SpatialIndex

/// A simulated OS region monitor for one device (what iOS `CLLocationManager` region
/// monitoring or Android geofencing do, reduced to the behavior a planner depends on).
///
/// - Only registered regions produce events, and at most ``Configuration/capacity`` may be
///   registered: registering more is refused and counted (``rejectedRegistrations``), as the
///   OS does.
/// - Regions smaller than ``Configuration/minimumRegionRadiusMeters`` are enlarged to it.
/// - The OS sees the device's *true* position at the times it is shown it (``observe(truth:at:)``).
///   A region's state flips to inside only once the position is ``Configuration/passDistanceMeters``
///   inside the circle (`d <= r - pass`), and to outside only once it is that far outside
///   (`d >= r + pass`); the event is delivered after a delay drawn uniformly from
///   `[0, maximumDelaySeconds]` by a seeded `SplitMix64` (same seed, same delays).
/// - On registration the region's state is the true one (`d <= r` is inside); with
///   ``Configuration/reportsInitialState`` (Android's `INITIAL_TRIGGER_ENTER`, iOS
///   `requestState(for:)` after registering) that state is delivered as an enter or exit event,
///   with the same delay. Without it, registering a region while inside produces no event.
/// - Events of a region that is unregistered before delivery are dropped.
///
/// Bad input: an observation whose time goes backwards, or whose position has a NaN
/// component, changes nothing and is counted in ``skippedObservations``.
///
/// Units: meters, seconds; sphere of radius 6,371,008.8 m (squared-chord tests).
public struct OSRegionMonitor: Sendable {
    /// The simulated OS's limits and latencies.
    public struct Configuration: Hashable, Sendable {
        /// Regions the OS accepts at once (iOS 20, Android 100).
        public var capacity: Int
        /// How far past a boundary the true position must be before the OS notices, meters.
        public var passDistanceMeters: Double
        /// Events are delivered after a uniform delay in `[0, maximumDelaySeconds]`.
        public var maximumDelaySeconds: Double
        /// Smaller regions are enlarged to this radius, meters (iOS: about 100 m).
        public var minimumRegionRadiusMeters: Double
        /// Whether a newly registered region's state is reported as an event.
        public var reportsInitialState: Bool

        /// An OS that monitors at most `capacity` regions; the other settings as on their
        /// properties.
        public init(
            capacity: Int, passDistanceMeters: Double = 50, maximumDelaySeconds: Double = 60,
            minimumRegionRadiusMeters: Double = 100, reportsInitialState: Bool = true
        ) {
            self.capacity = capacity
            self.passDistanceMeters = passDistanceMeters
            self.maximumDelaySeconds = maximumDelaySeconds
            self.minimumRegionRadiusMeters = minimumRegionRadiusMeters
            self.reportsInitialState = reportsInitialState
        }
    }

    /// Entering or leaving a region.
    public enum Transition: Hashable, Sendable { case enter, exit }

    /// One delivered event.
    public struct Event: Hashable, Sendable {
        /// The region the event is about.
        public var region: MonitorPlanner.RegionID
        /// Enter or exit.
        public var transition: Transition
        /// When the OS noticed (an observation time), seconds.
        public var detectedAt: Double
        /// When the app receives it, seconds (`detectedAt` plus the delay).
        public var deliveredAt: Double
        /// True when this reports the state at registration rather than a crossing.
        public var isInitialState: Bool
    }

    @usableFromInline struct Watched: Sendable {
        var id: MonitorPlanner.RegionID
        var center: UnitVector
        /// Squared chords of `r - pass` (enter), `r` (initial state), `r + pass` (exit).
        var enterChord2: Double, chord2: Double, exitChord2: Double
        var inside: Bool
        var serial: UInt64
    }

    struct Pending: Sendable {
        var event: Event
        var serial: UInt64
        var order: UInt64
    }

    /// The simulated OS's settings.
    public let configuration: Configuration
    var watched: [Watched] = []
    var pending: [Pending] = []  // sorted by (deliveredAt, order)
    var rng: SplitMix64
    var nextSerial: UInt64 = 0
    var lastTime = -Double.infinity
    /// Registrations refused because the OS was at capacity.
    public private(set) var rejectedRegistrations = 0
    /// Events dropped because their region was unregistered before delivery.
    public private(set) var droppedEvents = 0
    /// Observations ignored because time went backwards or the position was NaN.
    public private(set) var skippedObservations = 0

    /// An OS with nothing registered; `seed` fixes the delivery delays.
    public init(configuration: Configuration, seed: UInt64) {
        self.configuration = configuration
        self.rng = SplitMix64(seed: seed)
    }

    /// The identifiers registered now, in id order.
    public var registeredIDs: [MonitorPlanner.RegionID] { watched.map(\.id).sorted() }

    /// Unregisters `diff.remove`, then registers `diff.add` at `time` with the device truly at
    /// `truth` (a region already registered under the same id is replaced).
    public mutating func apply(_ diff: RegionDiff, at time: Double, truth: UnitVector) {
        let removed = Set(diff.remove)
        watched.removeAll { removed.contains($0.id) }
        for region in diff.add {
            watched.removeAll { $0.id == region.id }
            guard watched.count < configuration.capacity else { rejectedRegistrations += 1; continue }
            let r = max(region.radiusMeters, configuration.minimumRegionRadiusMeters)
            let center = region.center.unitVector
            let c2 = truth.chord2(to: center)
            var w = Watched(
                id: region.id, center: center,
                enterChord2: Geodesy.chord2(forMeters: max(0, r - configuration.passDistanceMeters)),
                chord2: Geodesy.chord2(forMeters: r),
                exitChord2: Geodesy.chord2(forMeters: r + configuration.passDistanceMeters),
                inside: false, serial: nextSerial)
            nextSerial &+= 1
            w.inside = c2 <= w.chord2
            watched.append(w)
            if configuration.reportsInitialState, !c2.isNaN {
                schedule(w, w.inside ? .enter : .exit, at: time, initial: true)
            }
        }
        if time > lastTime { lastTime = time }
    }

    /// Shows the OS the true position at `time`; schedules an event for every region whose
    /// state flips.
    public mutating func observe(truth: UnitVector, at time: Double) {
        guard time >= lastTime, !(truth.x.isNaN || truth.y.isNaN || truth.z.isNaN) else {
            skippedObservations += 1
            return
        }
        lastTime = time
        for k in watched.indices {
            let c2 = truth.chord2(to: watched[k].center)
            if watched[k].inside {
                if c2 >= watched[k].exitChord2 {
                    watched[k].inside = false
                    schedule(watched[k], .exit, at: time, initial: false)
                }
            } else if c2 <= watched[k].enterChord2 {
                watched[k].inside = true
                schedule(watched[k], .enter, at: time, initial: false)
            }
        }
    }

    /// Appends to `events` (after clearing it) every event delivered strictly before `time`
    /// whose region is still registered, in delivery order.
    public mutating func deliver(before time: Double, into events: inout [Event]) {
        events.removeAll(keepingCapacity: true)
        var n = 0
        while n < pending.count, pending[n].event.deliveredAt < time { n += 1 }
        guard n > 0 else { return }
        for p in pending[..<n] {
            if watched.contains(where: { $0.serial == p.serial }) { events.append(p.event) } else { droppedEvents += 1 }
        }
        pending.removeFirst(n)
    }

    mutating func schedule(_ w: Watched, _ transition: Transition, at time: Double, initial: Bool) {
        let delay = rng.nextUnit() * configuration.maximumDelaySeconds
        let event = Event(
            region: w.id, transition: transition, detectedAt: time, deliveredAt: time + delay,
            isInitialState: initial)
        let entry = Pending(event: event, serial: w.serial, order: nextSerial)
        nextSerial &+= 1
        // Keep `pending` sorted by (deliveredAt, order): find the first later entry.
        var lo = 0, hi = pending.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pending[mid].event.deliveredAt <= event.deliveredAt { lo = mid + 1 } else { hi = mid }
        }
        pending.insert(entry, at: lo)
    }
}
