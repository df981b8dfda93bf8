import Responders

/// The settings of a ``FleetSimulation``: fleet size, duration, seed, and the rates of what goes
/// wrong. Rates are per responder per hour unless stated; times in seconds; distances in meters.
public struct FleetConfiguration: Hashable, Sendable {
    /// Responders (phones).
    public var responders: Int
    /// Simulated minutes.
    public var minutes: Int
    /// Seed of every random choice.
    public var seed: UInt64
    /// Center of the area (degrees; default Helsinki) and its radius in meters.
    public var centerLatitude = 60.17, centerLongitude = 24.94, areaRadius = 15_000.0
    /// Phones that die silently (app killed, battery, permission revoked), per hour. They never
    /// come back within the run.
    public var deathsPerHour = 0.1
    /// Network losses per hour; each lasts 20 s to 10 min (uniform).
    public var networkLossesPerHour = 0.4
    /// Captive portals per hour (Wi-Fi whose health check is not 200); each 1 to 8 min.
    public var captivePortalsPerHour = 0.2
    /// Duty changes per hour (off -> on duty -> on a mission -> on duty -> ...).
    public var dutyChangesPerHour = 0.6
    /// Incidents per hour for the whole fleet.
    public var incidentsPerHour = 60.0
    /// Share of uploads whose answer is lost after the server got the batch: the phone sends it
    /// again, so the server sees duplicates.
    public var lostAnswerShare = 0.02
    /// Share of uploads that are slow: delayed uniformly from 2 s up to the longest delay a
    /// healthy phone can have (``healthyDelayLimit(duty:)``); others take 0.2-2 s. Varying delays
    /// also reorder batches.
    public var slowUploadShare = 0.1
    /// Seconds a responder has to acknowledge an offer.
    public var ackTimeout = 30.0
    /// Seconds an assignee works an incident after acknowledging it (then it is closed).
    public var missionSeconds = 1_200.0
    /// Fixes per transaction when the delivered batches are replayed into SQLite: a server under
    /// load commits what has queued up since its last commit. Each commit writes every page it
    /// dirtied to the WAL, and 1,000 fixes from 1,000 responders dirty a page of the uniqueness
    /// index per responder, so small transactions rewrite the same pages over and over.
    public var ingestTransactionSize = 10_000

    /// - Precondition: `responders` in `1...Int32.max` (they become `ResponderID`s), `minutes >= 1`.
    public init(responders: Int = 1_000, minutes: Int = 60, seed: UInt64 = 1) {
        precondition(responders >= 1 && responders <= Int(Int32.max) && minutes >= 1, "a fleet needs responders and minutes")
        self.responders = responders
        self.minutes = minutes
        self.seed = seed
    }

    /// The longest upload delay (seconds) of a healthy phone in `duty`: the OFFLINE threshold
    /// minus the profile interval minus 15 s of slack (on duty 180 - 60 - 15 = 105 s, on a mission
    /// 60 - 15 - 15 = 30 s; off duty the same as on duty, for the last report). A phone keeps its
    /// cadence, so when its batches can take `offline - interval` or longer, the server cannot
    /// tell it from a dead one at the deadline; the slack covers the gap after a fix the filter
    /// dropped (inaccurate) before the next kept one.
    public static func healthyDelayLimit(duty: DutyState) -> Double {
        let active = duty == .offDuty ? DutyState.onDuty : duty
        return LivenessThresholds(duty: active).offlineAfter - CollectionProfile.forDuty(active, powerMode: .normal).interval - 15
    }
}
