/// One analytics or operational event: an exact name, when (Unix seconds), the user's
/// pseudonymous id, string properties, and whether it is essential (kept when the user opts out
/// of analytics).
public struct AnalyticsEvent: Hashable, Sendable, Codable {
    /// One of ``AnalyticsName``.
    public var name: String
    /// Unix seconds.
    public var time: Double
    /// A ``PseudonymousID`` value, never a raw account id.
    public var userID: String
    /// String properties (`reason`, `channel`, `notification_type`...).
    public var properties: [String: String]

    /// An event; `userID` should be a ``PseudonymousID`` value.
    public init(name: String, time: Double, userID: String, properties: [String: String] = [:]) {
        self.name = name
        self.time = time
        self.userID = userID
        self.properties = properties
    }

    /// Operational events the product needs to run (notification bookkeeping and fence
    /// registration): `notification_scheduled`, `notification_cancelled`,
    /// `notification_fired_estimated`, `geofence_registered`. Everything else is analytics.
    public var isEssential: Bool { AnalyticsName.essential.contains(name) }
}
