/// The dense-area cooldown: after a nudge is shown, a nudge for a *different* place whose center
/// lies within `radiusMeters` (great circle, R = 6,371,008.8 m) of the last nudged place waits
/// `cooldownSeconds`. It stops a walk down a street of shops from pinging once per shop when the
/// global spacing is set short; with the default 6-hour spacing it rarely decides anything.
public struct DenseAreaCooldown: Hashable, Sendable, Codable {
    /// Meters from the last nudged place's center within which the cooldown applies.
    public var radiusMeters: Double
    /// Seconds after the last nudge during which nearby places stay quiet.
    public var cooldownSeconds: Double

    /// Default: 1,000 m and 30 minutes.
    public init(radiusMeters: Double = 1_000, cooldownSeconds: Double = 1_800) {
        self.radiusMeters = radiusMeters
        self.cooldownSeconds = cooldownSeconds
    }
}
