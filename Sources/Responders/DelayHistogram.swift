/// A cumulative histogram of seconds (Prometheus semantics: bucket `le` counts observations
/// `<= le`; `+Inf` counts all), here the delay between a fix being taken and reaching the server.
public struct DelayHistogram: Hashable, Sendable, Codable {
    /// Upper bounds in seconds, increasing, without +Inf. Default: 0.5 s to 600 s, spaced to
    /// separate "live" (< 2 s), "batched" (< 60 s) and "queued while offline".
    public let bounds: [Double]
    /// Per bound: observations `<= bound` (cumulative).
    public private(set) var cumulativeCounts: [Int]
    /// Observations.
    public private(set) var count = 0
    /// Sum of observations, seconds.
    public private(set) var sum = 0.0

    /// Default bounds: 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600 seconds.
    public static let defaultBounds: [Double] = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600]

    /// - Precondition: `bounds` strictly increasing and finite.
    public init(bounds: [Double] = DelayHistogram.defaultBounds) {
        precondition(
            zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 } && bounds.allSatisfy(\.isFinite),
            "histogram bounds must be finite and strictly increasing")
        self.bounds = bounds
        cumulativeCounts = [Int](repeating: 0, count: bounds.count)
    }

    /// Adds one observation (seconds). A value that is not finite is ignored; a negative delay
    /// (phone clock ahead) counts as 0.
    public mutating func observe(_ seconds: Double) {
        guard seconds.isFinite else { return }
        let value = max(0, seconds)
        count += 1
        sum += value
        var k = bounds.count - 1
        while k >= 0 && value <= bounds[k] {
            cumulativeCounts[k] += 1
            k -= 1
        }
    }
}
