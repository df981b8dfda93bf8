/// What a ``TransitionDetector`` did with its input: every fix lands in exactly one of
/// `accepted`, `invalid`, `outOfOrder`, `duplicates`, `inaccurate` or `jumps`.
public struct TransitionCounters: Hashable, Sendable, Codable {
    /// Fixes given to the detector.
    public var fixes = 0
    /// Fixes that updated fence states.
    public var accepted = 0
    /// Skipped: NaN or infinite time or coordinates, out-of-range coordinates, NaN or negative accuracy.
    public var invalid = 0
    /// Skipped: time earlier than the device's last fix.
    public var outOfOrder = 0
    /// Skipped: same time as the device's last fix.
    public var duplicates = 0
    /// Skipped by the accuracy gate (reported accuracy worse than `maxAccuracyMeters`).
    public var inaccurate = 0
    /// Skipped by the jump gate (implausibly far from the last accepted fix).
    public var jumps = 0
    /// Times a device's neighbourhood of fences was fetched from the index.
    public var neighborhoodQueries = 0
    /// Ids the index reported that the detector does not know (ignored).
    public var unknownFenceIDs = 0

    /// All counts zero.
    public init() {}

    /// Coding keys: the property names, except that the neighborhood count keeps the key
    /// `neighbourhoodQueries`, so encoded counters read either way.
    private enum CodingKeys: String, CodingKey {
        case fixes, accepted, invalid, outOfOrder, duplicates, inaccurate, jumps, unknownFenceIDs
        case neighborhoodQueries = "neighbourhoodQueries"
    }

    /// The neighborhood count under its former spelling.
    @available(*, deprecated, renamed: "neighborhoodQueries")
    public var neighbourhoodQueries: Int {
        get { neighborhoodQueries }
        set { neighborhoodQueries = newValue }
    }
}
