/// When the phone may try to upload: exponential backoff after failures, reset by a network
/// change. A value with no clock: every decision takes `now` (seconds).
///
/// Rules:
/// - after the n-th consecutive failure the next attempt waits the fleet's
///   ``FleetPolicy/backoff(afterFailures:)``: by default 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s
///   (the cap) for every further failure;
/// - a network change resets the failures and makes an attempt due at once, after a fresh
///   health check (a new Wi-Fi may be a captive portal);
/// - with no network (``NetworkType/none``) nothing is due: fixes keep queueing;
/// - a success clears the failures, and the next batch is due at once;
/// - a `now` earlier than the moment the wait was set (the phone's clock set back) makes an
///   attempt due at once: a wait never lasts longer than its backoff.
public struct SenderPolicy: Hashable, Sendable, Codable {
    /// Seconds before the first retry (the fleet's; ``FleetPolicy/standard``: 1 s).
    public let initialBackoff: Double
    /// Longest wait between attempts, seconds (the fleet's; ``FleetPolicy/standard``: 30 s).
    public let maximumBackoff: Double

    /// The network path the phone last reported.
    public private(set) var network: NetworkType
    /// Consecutive failed attempts (health check not 200, upload not accepted, unreachable).
    public private(set) var failures = 0
    /// Seconds: the earliest time of the next attempt.
    public private(set) var nextAttempt: Double
    /// Seconds: when ``nextAttempt`` was set. A `now` before it means the clock went back.
    public private(set) var waitSetAt: Double
    /// Whether the server's health check must pass before the next upload (true after a
    /// network change or a failure, false after a success).
    public private(set) var needsHealthCheck = true

    /// A policy on `network`, due at `now`, backing off as `fleet` says.
    public init(network: NetworkType, now: Double, fleet: FleetPolicy = .standard) {
        self.network = network
        self.nextAttempt = now
        waitSetAt = now
        initialBackoff = fleet.initialBackoff
        maximumBackoff = fleet.maximumBackoff
    }

    /// Seconds to wait after `failures` consecutive failures with the standard backoff:
    /// `min(2^(failures-1), 30)`, 0 for none (``FleetPolicy/backoff(afterFailures:)``).
    public static func backoff(afterFailures failures: Int) -> Double {
        FleetPolicy.standard.backoff(afterFailures: failures)
    }

    /// Seconds to wait after `failures` consecutive failures with this policy's backoff.
    public func backoff(afterFailures failures: Int) -> Double {
        FleetPolicy.backoff(afterFailures: failures, initial: initialBackoff, maximum: maximumBackoff)
    }

    /// Whether an attempt may start at `now`: a network is present and the backoff has passed
    /// (or the clock was set back to before the backoff began).
    public func isDue(now: Double) -> Bool { network != .none && (now >= nextAttempt || now < waitSetAt) }

    /// The phone's network changed (including to or from ``NetworkType/none``): reset the
    /// backoff, retry at once, check for a captive portal first.
    public mutating func networkChanged(to network: NetworkType, now: Double) {
        self.network = network
        failures = 0
        nextAttempt = now
        waitSetAt = now
        needsHealthCheck = true
    }

    /// An attempt failed at `now`: back off.
    public mutating func recordFailure(now: Double) {
        failures += 1
        nextAttempt = now + backoff(afterFailures: failures)
        waitSetAt = now
        needsHealthCheck = true
    }

    /// The health check passed at `now` (status 200): upload may follow.
    public mutating func recordHealthy() {
        needsHealthCheck = false
    }

    /// An upload was accepted at `now`: no backoff, the next batch is due at once.
    public mutating func recordSuccess(now: Double) {
        failures = 0
        nextAttempt = now
        waitSetAt = now
        needsHealthCheck = false
    }
}
