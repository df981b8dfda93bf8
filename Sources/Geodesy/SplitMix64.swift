/// A small, fast, seeded pseudo-random generator (Steele, Lea & Flood's SplitMix64).
///
/// Shared by the tests, the synthetic-world generator and the benchmark so that every
/// random input in the package is reproducible from one `UInt64` seed. Not cryptographic.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The current state; the next output is a function of it alone.
    public var state: UInt64

    /// A generator whose stream is determined by `seed` (any value, 0 included).
    @inlinable
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits; advances the state. O(1).
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
