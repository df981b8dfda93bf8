import Responders
import Statistics

/// Times to detect an unreachable responder at one duty state, seconds.
///
/// An episode starts when a phone stops being able to reach the server (it dies, loses the
/// network, or lands behind a captive portal) while the server has the responder ONLINE or
/// DEGRADED; it is detected at the responder's first OFFLINE transition after that. The duty
/// state (and so the threshold) is the one the server knew when the episode began.
public struct DetectionStats: Hashable, Sendable {
    /// Detected episodes.
    public var count = 0
    /// Nearest-rank percentiles and maximum of the detection times, seconds (0 when no episode).
    public var p50 = 0.0, p95 = 0.0, max = 0.0
    /// The OFFLINE threshold, seconds.
    public var threshold: Double
    /// Episodes that lasted longer than the threshold + 1 s without an OFFLINE transition.
    public var missed = 0

    /// Statistics of detection `times` (seconds, any order) against `threshold` (seconds).
    public init(times: [Double], threshold: Double, missed: Int) {
        let sorted = times.sorted()
        self.threshold = threshold
        self.missed = missed
        count = sorted.count
        guard !sorted.isEmpty else { return }
        p50 = OrderStatistics.percentile(sorted: sorted, 0.5)
        p95 = OrderStatistics.percentile(sorted: sorted, 0.95)
        max = sorted[sorted.count - 1]
    }

    /// Goal: every episode detected, none later than the threshold + 1 s.
    public var meetsGoal: Bool { missed == 0 && max <= threshold + 1 }
}

/// What a ``FleetSimulation`` run measured. Counts are over the whole run; the liveness speed is
/// filled in by ``FleetSimulation/measureLiveness(minimumUpdates:)``, the ingest figures and
/// ``duplicatesStored`` by whoever replays ``FleetSimulation/arrivals`` into a store.
public struct FleetReport: Sendable {
    /// The configuration's fleet size, minutes and seed.
    public var responders = 0, minutes = 0, seed: UInt64 = 0
    /// Fixes the phones' filters kept (each got a sequence number).
    public var fixesKept = 0
    /// Raw fixes the filters dropped, by reason.
    public var fixesDropped = FixDropCounts()
    /// Batches and fixes that reached the server, copies included.
    public var batchesDelivered = 0, fixesDelivered = 0
    /// Copies among them (a batch resent after its answer was lost).
    public var duplicatesReceived = 0
    /// Goal 0: kept fixes neither stored on the server nor still queued on their phone at the end.
    public var fixesLost = 0
    /// Fixes still queued on phones at the end (dead phones, phones without network).
    public var fixesQueuedAtEnd = 0
    /// Goal 0: rows of the history beyond one per `(responder, sequence)`.
    public var duplicatesStored = 0
    /// Detection times by duty state (`on_duty`, `on_mission`).
    public var detection: [DutyState: DetectionStats] = [:]
    /// Goal 0: OFFLINE transitions of a responder whose phone had been able to reach the server
    /// for at least the OFFLINE threshold before them (its batches delayed less than
    /// ``FleetConfiguration/healthyDelayLimit(duty:)``).
    public var falseOffline = 0
    /// Goal 0: offers to a responder whose phone had been unreachable for at least its DEGRADED
    /// threshold (so that by the liveness rules it could not be ONLINE).
    public var assignmentsToUnreachable = 0
    /// Offers to a phone unreachable for less than that: a silent death the server cannot know
    /// of yet; the ACK timeout moves the incident on.
    public var offersToSilentPhones = 0
    /// Incidents, offers made, ACK timeouts, incidents acknowledged by a responder, incidents
    /// nobody took.
    public var incidents = 0, offers = 0, ackTimeouts = 0, assigned = 0, exhausted = 0
    /// Times an open incident was taken from a responder (asked or assigned) who went OFFLINE
    /// and offered to the next.
    public var incidentsReassigned = 0
    /// Goal 0: incidents still open at the end whose assignee is OFFLINE.
    public var incidentsLeftWithOfflineAssignee = 0
    /// Liveness transitions in the run.
    public var transitions = 0
    /// Responders per status at the end.
    public var finalStatusCounts: [LivenessStatus: Int] = [:]
    /// Fixes per second into a fresh SQLite server store, one thread, one value per run.
    public var ingestFixesPerSecond: [Double] = []
    /// The same per second of the thread's CPU time (user + system), which the other processes
    /// of a busy machine disturb less.
    public var ingestFixesPerCPUSecond: [Double] = []
    /// Fixes per second through the whole server (SQLite store, liveness, metrics, dispatcher),
    /// one thread, one value per run.
    public var serverIngestFixesPerSecond: [Double] = []
    /// Liveness updates (`LivenessMonitor/recordFix(_:time:duty:powerMode:sequence:now:into:)` calls)
    /// per second in memory, one value per run.
    public var livenessUpdatesPerSecond: [Double] = []

    /// An empty report.
    public init() {}
}
