/// One position from the phone's location provider.
///
/// Units: `time` in seconds (any fixed epoch shared by phone and server, e.g. Unix time),
/// `latitude`/`longitude` in degrees, `accuracy` the horizontal 68 % radius in meters.
/// Nothing is validated here: ``FixFilter`` drops fixes whose fields are not finite or out of range.
public struct LocationFix: Hashable, Sendable, Codable {
    /// Seconds, when the fix was taken.
    public var time: Double
    /// Degrees, [-90, 90] when valid.
    public var latitude: Double
    /// Degrees, [-180, 180] when valid.
    public var longitude: Double
    /// Meters, >= 0 when valid.
    public var accuracy: Double

    /// A fix as given (seconds, degrees, meters); not validated.
    public init(time: Double, latitude: Double, longitude: Double, accuracy: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }

    /// Whether every field is finite and in range.
    public var isValid: Bool {
        time.isFinite && latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180
            && accuracy >= 0 && accuracy.isFinite
    }
}
