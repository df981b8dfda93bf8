#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SplitMix64 {
    /// Uniform double in [lo, hi).
    @inlinable
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * nextUnit()
    }

    /// Standard normal deviate (Box–Muller; one of the pair is discarded to keep the state simple).
    @inlinable
    public mutating func gaussian() -> Double {
        // 1 - u is in (0, 1], so the logarithm is finite.
        let u1 = 1 - nextUnit()
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// Exponential deviate with mean 1.
    @inlinable
    public mutating func exponential() -> Double { -log(1 - nextUnit()) }

    /// Index drawn with probability proportional to `cumulativeWeights[i] - cumulativeWeights[i-1]`.
    /// `cumulativeWeights` is non-decreasing with a positive last element.
    @inlinable
    public mutating func weightedIndex(_ cumulativeWeights: [Double]) -> Int {
        let target = nextUnit() * cumulativeWeights[cumulativeWeights.count - 1]
        var lo = 0, hi = cumulativeWeights.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cumulativeWeights[mid] > target { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
