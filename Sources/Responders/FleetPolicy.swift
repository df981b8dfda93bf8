/// What a fleet's operators may tune without a release (the memo's "feature flags": intervals
/// and thresholds): per duty block the phone's collection profile and the server's liveness
/// thresholds, the ACK timeout of an incident offer, and the sender's backoff.
///
/// ``standard`` is the behaviour with no fleet file, the memo's numbers: on duty a fix every 60 s
/// or 50 m, DEGRADED at 90 s, OFFLINE at 180 s; on a mission 15 s or 20 m, 30 s and 60 s; in
/// battery saver 120 s or 500 m, 180 s and 360 s; 30 s to acknowledge; backoff 1 s doubling to
/// 30 s. The liveness monitor, the incident assignment and the sender read these values, so a
/// fleet whose policy changes one changes exactly that behaviour.
///
/// Invariants (checked by the initialisers of its parts and by ``init(onDuty:onMission:lowPower:ackTimeout:initialBackoff:maximumBackoff:)``):
/// every block's `0 < degradedAfter <= offlineAfter`, `interval > 0`, `distance >= 0`;
/// `ackTimeout > 0`; `0 < initialBackoff <= maximumBackoff`, all finite except where a part allows infinity.
public struct FleetPolicy: Hashable, Sendable, Codable {
    /// One duty block: how often the phone reports and when the server calls it late.
    public struct Block: Hashable, Sendable, Codable {
        /// When the phone keeps a fix.
        public var profile: CollectionProfile
        /// When the server turns the responder DEGRADED and OFFLINE.
        public var thresholds: LivenessThresholds

        public init(profile: CollectionProfile, thresholds: LivenessThresholds) {
            self.profile = profile
            self.thresholds = thresholds
        }
    }

    /// On duty, normal power.
    public var onDuty: Block
    /// On a mission, normal power.
    public var onMission: Block
    /// Battery saver, on duty or on a mission.
    public var lowPower: Block
    /// Seconds a responder has to acknowledge an offered incident.
    public var ackTimeout: Double
    /// Seconds before the sender's first retry after a failure.
    public var initialBackoff: Double
    /// Longest wait between the sender's attempts, seconds.
    public var maximumBackoff: Double

    /// - Precondition: `ackTimeout > 0`, `0 < initialBackoff <= maximumBackoff`, all finite.
    public init(
        onDuty: Block, onMission: Block, lowPower: Block, ackTimeout: Double = 30, initialBackoff: Double = 1,
        maximumBackoff: Double = 30
    ) {
        precondition(ackTimeout > 0 && ackTimeout.isFinite, "an ACK timeout must be > 0 s and finite")
        precondition(
            initialBackoff > 0 && initialBackoff <= maximumBackoff && maximumBackoff.isFinite,
            "a backoff needs 0 < initial <= maximum, finite")
        self.onDuty = onDuty
        self.onMission = onMission
        self.lowPower = lowPower
        self.ackTimeout = ackTimeout
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// The memo's numbers (see the type's comment): the behaviour of a responder in no fleet.
    public static let standard = FleetPolicy(
        onDuty: Block(profile: .onDuty, thresholds: LivenessThresholds(expectedInterval: CollectionProfile.onDuty.interval)),
        onMission: Block(profile: .onMission, thresholds: LivenessThresholds(degradedAfter: 30, offlineAfter: 60)),
        lowPower: Block(profile: .lowPower, thresholds: LivenessThresholds(expectedInterval: CollectionProfile.lowPower.interval)))

    /// The block of a duty state and power mode; nil off duty (nothing is collected or expected).
    @inlinable
    public func block(duty: DutyState, powerMode: PowerMode) -> Block? {
        switch (duty, powerMode) {
        case (.offDuty, _): nil
        case (_, .lowPower): lowPower
        case (.onDuty, .normal): onDuty
        case (.onMission, .normal): onMission
        }
    }

    /// The phone's profile for a duty state and power mode (``CollectionProfile/none`` off duty).
    public func profile(duty: DutyState, powerMode: PowerMode) -> CollectionProfile {
        block(duty: duty, powerMode: powerMode)?.profile ?? .none
    }

    /// The server's thresholds for a duty state and power mode (both infinite off duty).
    public func thresholds(duty: DutyState, powerMode: PowerMode) -> LivenessThresholds {
        block(duty: duty, powerMode: powerMode)?.thresholds ?? LivenessThresholds(degradedAfter: .infinity, offlineAfter: .infinity)
    }

    /// Seconds to wait after `failures` consecutive failures: `min(initialBackoff * 2^(failures-1),
    /// maximumBackoff)`, 0 for none.
    public func backoff(afterFailures failures: Int) -> Double {
        Self.backoff(afterFailures: failures, initial: initialBackoff, maximum: maximumBackoff)
    }

    /// `min(initial * 2^(failures-1), maximum)` seconds, 0 for no failure.
    static func backoff(afterFailures failures: Int, initial: Double, maximum: Double) -> Double {
        guard failures > 0 else { return 0 }
        guard failures <= 62 else { return maximum }
        return min(initial * Double(UInt64(1) << UInt64(failures - 1)), maximum)
    }
}
