#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy
import Responders

/// A phone's queue in the fleet simulation: the ``OutboundQueue`` contract in memory (the SQLite
/// queue is tested on its own, against SIGKILL).
struct FleetQueue: OutboundQueue {
    private(set) var fixes: [ReportedFix] = []
    private var front = 0
    private(set) var lastSequence: Int64 = 0

    mutating func append(_ fix: ReportedFix) {
        fixes.append(fix)
        lastSequence = fix.sequence
    }

    func peek(limit: Int) -> [ReportedFix] { Array(fixes[front..<min(fixes.count, front + limit)]) }

    mutating func acknowledge(through sequence: Int64) {
        while front < fixes.count && fixes[front].sequence <= sequence { front += 1 }
        if front > 1_024 && front * 2 > fixes.count {
            fixes.removeFirst(front)
            front = 0
        }
    }

    func depth() -> Int { fixes.count - front }
    func oldestTime() -> Double? { front < fixes.count ? fixes[front].fix.time : nil }
    /// Sequences still queued.
    var queuedSequences: ArraySlice<ReportedFix> { fixes[front...] }
}

/// A batch on its way to the server.
struct FleetDelivery {
    var arrival: Double
    var order: Int  // tie-break: the order of sending
    var fixes: [ReportedFix]
}

/// The network as one phone sees it during one sender step: a captive portal answers the health
/// check with 302; otherwise uploads reach the server after a delay (some slow, some whose answer
/// is lost so the phone sends them again).
struct FleetTransport: UploadTransport {
    var captive: Bool
    var rng: SplitMix64
    var slowShare: Double
    var lostAnswerShare: Double
    var sent: [FleetDelivery] = []

    mutating func healthCheck(now: Double) -> TransportResponse { captive ? .status(302) : .status(200) }

    mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse {
        let duty = batch.fixes.last?.duty ?? .onDuty
        let delay =
            rng.nextUnit() < slowShare
            ? rng.uniform(2, FleetConfiguration.healthyDelayLimit(duty: duty))
            : rng.uniform(0.2, 2)
        sent.append(FleetDelivery(arrival: now + delay, order: 0, fixes: batch.fixes))
        return rng.nextUnit() < lostAnswerShare ? .unreachable : .status(200)
    }

    mutating func refreshToken(now: Double) -> String? { "token" }
}

/// One simulated responder: where they are, their duty, their phone's health (the truth the
/// scores are measured against), and the phone-side library state.
struct FleetPhone {
    let id: ResponderID
    var duty: DutyState
    var latitude: Double, longitude: Double
    var heading: Double, speed: Double
    var alive = true
    var network: NetworkType = .cellular
    var captive = false
    var outageEnd = Double.infinity
    /// Truth: since when the phone cannot reach the server (dead, no network, captive portal).
    var unreachableSince: Double?
    /// Truth: since when it can (0 at the start).
    var reachableSince = 0.0
    /// The current unreachable episode: the thresholds the server applied when it began (nil if
    /// the server had the responder neither ONLINE nor DEGRADED then, or the phone was off duty),
    /// and whether it was detected.
    var episodeDuty: DutyState?
    var episodeThreshold = 0.0
    var episodeDetected = false
    var filter: FixFilter
    var queue = FleetQueue()
    var sender: Sender

    var isReachable: Bool { unreachableSince == nil }
}
