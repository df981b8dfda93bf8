/// Order statistics of samples, the one definition every module and tool uses.
public enum Percentile {
    /// The nearest-rank `q`-quantile of `sorted` (ascending): the value at rank `ceil(q * n)`,
    /// clamped to `1...n`. `q` in `0...1`.
    /// - Precondition: `sorted` is not empty.
    /// - Complexity: O(1).
    public static func nearestRank(_ sorted: [Double], _ q: Double) -> Double {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
