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
    /// Times a device's neighborhood of fences was fetched from the index.
    public var neighborhoodQueries = 0
    /// Ids the index reported that the detector does not know (ignored).
    public var unknownFenceIDs = 0
    /// Fixes that restarted a device's time after ``TransitionDetector/outOfOrderRestart``
    /// out-of-order fixes in a row (each is then counted as accepted or gated as any fix).
    public var clockRestarts = 0

    /// All counts zero.
    public init() {}

    /// The field-by-field sum: the counters of detectors that each saw part of one stream (one
    /// per device shard) add up to those of one detector over all of it.
    public static func + (a: TransitionCounters, b: TransitionCounters) -> TransitionCounters {
        var sum = a
        sum += b
        return sum
    }

    /// Adds `b` field by field.
    public static func += (a: inout TransitionCounters, b: TransitionCounters) {
        a.fixes += b.fixes
        a.accepted += b.accepted
        a.invalid += b.invalid
        a.outOfOrder += b.outOfOrder
        a.duplicates += b.duplicates
        a.inaccurate += b.inaccurate
        a.jumps += b.jumps
        a.neighborhoodQueries += b.neighborhoodQueries
        a.unknownFenceIDs += b.unknownFenceIDs
        a.clockRestarts += b.clockRestarts
    }

    private enum CodingKeys: String, CodingKey {
        case fixes, accepted, invalid, outOfOrder, duplicates, inaccurate, jumps, neighborhoodQueries, unknownFenceIDs
        case clockRestarts
    }

    /// Decodes the counters; `clockRestarts` may be absent (counters written before it), then 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fixes = try c.decode(Int.self, forKey: .fixes)
        accepted = try c.decode(Int.self, forKey: .accepted)
        invalid = try c.decode(Int.self, forKey: .invalid)
        outOfOrder = try c.decode(Int.self, forKey: .outOfOrder)
        duplicates = try c.decode(Int.self, forKey: .duplicates)
        inaccurate = try c.decode(Int.self, forKey: .inaccurate)
        jumps = try c.decode(Int.self, forKey: .jumps)
        neighborhoodQueries = try c.decode(Int.self, forKey: .neighborhoodQueries)
        unknownFenceIDs = try c.decode(Int.self, forKey: .unknownFenceIDs)
        clockRestarts = try c.decodeIfPresent(Int.self, forKey: .clockRestarts) ?? 0
    }
}
