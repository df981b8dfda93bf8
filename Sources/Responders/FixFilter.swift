import Geodesy

/// The phone's fix filter: decides, fix by fix in arrival order, which positions are kept (queued
/// for the server) and counts every drop by reason.
///
/// A fix is kept when it passes the quality checks and the profile's time threshold is reached
/// (`time - lastKept.time >= profile.interval`) OR its distance threshold is exceeded
/// (`distance(lastKept, fix) > profile.distance`); the first good fix is always kept. Checks, in
/// order (the first that fails names the drop, see ``FixDropReason``):
/// 1. invalid fields; 2. out of order (`time` < the latest time seen); 3. duplicate (`time` equal
/// to it); 4. `accuracy > maxAccuracy`; 5. implausible speed: `(d - a1 - a2) / dt > maxSpeed`
/// against the last kept fix, where `d` is the great-circle distance (sphere of radius
/// 6,371,008.8 m) and `a1`, `a2` the two accuracies, so noise alone never trips it;
/// 6. not due. With ``CollectionProfile/none`` (off duty) every valid, in-order fix is dropped
/// as not due, except the first after switching to it: that one tells the server the responder
/// went off duty.
///
/// A phone that really jumps (a flight, or a wrong last kept fix) would be stuck forever
/// behind rule 5, so after `speedDropLimit` consecutive speed drops the next good fix is kept as
/// a new starting point. Likewise a clock that steps back (corrected after running ahead, set
/// by hand, or one fix stamped far in the future) would leave every later fix behind rule 2
/// until the clock caught up, so after `outOfOrderLimit` consecutive out-of-order drops the
/// next valid fix restarts the filter: it is kept (if accurate enough) as its new starting
/// point. Changing ``profile`` (a duty change) makes the next good fix due at once.
///
/// - Complexity: O(1) per fix, no allocation.
public struct FixFilter: Sendable, Codable {
    /// The collection thresholds; set it on a duty or power change.
    public var profile: CollectionProfile {
        didSet { if profile != oldValue { profileChanged = true } }
    }
    /// Meters; fixes with a worse accuracy are dropped (default 100 m).
    public let maxAccuracy: Double
    /// Meters per second; default 75 m/s (270 km/h), beyond any road vehicle.
    public let maxSpeed: Double
    /// Consecutive speed drops after which the next good fix is accepted (default 3).
    public let speedDropLimit: Int
    /// Consecutive out-of-order drops after which the next valid fix restarts the filter
    /// (default 3): the clock stepped back.
    public let outOfOrderLimit: Int

    /// The last fix kept, nil before the first.
    public private(set) var lastKept: LocationFix?
    /// Fixes kept so far.
    public private(set) var keptCount = 0
    /// Fixes dropped so far, by reason.
    public private(set) var drops = FixDropCounts()

    private var latestTimeSeen = -Double.infinity
    private var consecutiveSpeedDrops = 0
    private var consecutiveOutOfOrder = 0
    private var profileChanged = false

    /// - Precondition: `maxAccuracy >= 0`, `maxSpeed > 0`, `speedDropLimit >= 0`,
    ///   `outOfOrderLimit >= 0`.
    public init(
        profile: CollectionProfile, maxAccuracy: Double = 100, maxSpeed: Double = 75,
        speedDropLimit: Int = 3, outOfOrderLimit: Int = 3
    ) {
        precondition(
            maxAccuracy >= 0 && maxSpeed > 0 && speedDropLimit >= 0 && outOfOrderLimit >= 0, "invalid fix filter limits")
        self.profile = profile
        self.maxAccuracy = maxAccuracy
        self.maxSpeed = maxSpeed
        self.speedDropLimit = speedDropLimit
        self.outOfOrderLimit = outOfOrderLimit
    }

    /// Considers the next fix: returns nil if it is kept (and remembers it), else the reason it
    /// was dropped (and counts it).
    public mutating func consider(_ fix: LocationFix) -> FixDropReason? {
        let reason = dropReason(fix)
        if let reason {
            drops[reason] += 1
        } else {
            lastKept = fix
            keptCount += 1
            consecutiveSpeedDrops = 0
            profileChanged = false
        }
        return reason
    }

    private mutating func dropReason(_ fix: LocationFix) -> FixDropReason? {
        guard fix.isValid else { return .invalid }
        var restart = false
        if fix.time < latestTimeSeen {
            consecutiveOutOfOrder += 1
            guard consecutiveOutOfOrder > outOfOrderLimit else { return .outOfOrder }
            restart = true  // the clock stepped back: this fix is the new starting point
        }
        if fix.time == latestTimeSeen { return .duplicate }
        consecutiveOutOfOrder = 0
        latestTimeSeen = fix.time
        if restart {
            lastKept = nil
            consecutiveSpeedDrops = 0
        }
        guard profile.isCollecting || profileChanged else { return .notDue }
        if fix.accuracy > maxAccuracy { return .inaccurate }
        guard let last = lastKept else { return nil }
        let meters = haversineDistance(
            LatLng(uncheckedLatitude: last.latitude, longitude: last.longitude),
            LatLng(uncheckedLatitude: fix.latitude, longitude: fix.longitude))
        let seconds = fix.time - last.time
        if (meters - last.accuracy - fix.accuracy) > maxSpeed * seconds {
            consecutiveSpeedDrops += 1
            if consecutiveSpeedDrops <= speedDropLimit { return .implausibleSpeed }
            return nil
        }
        if profileChanged || seconds >= profile.interval || meters > profile.distance { return nil }
        return .notDue
    }
}
