/// Order statistics of samples: the one median and the one percentile every module and tool
/// uses.
public enum OrderStatistics {
    /// The median of `values` (any order): the middle one, or the mean of the two middle ones
    /// for an even count; NaN for none. O(n log n).
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The nearest-rank `q`-quantile of `sorted` (ascending): the value at rank `ceil(q * n)`,
    /// clamped to `1...n`; `q` in `0...1`.
    /// - Precondition: `sorted` is not empty.
    /// - Complexity: O(1).
    public static func percentile(sorted: [Double], _ q: Double) -> Double {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
