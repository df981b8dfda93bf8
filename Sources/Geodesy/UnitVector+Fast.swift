extension UnitVector {
    /// The point of a latitude/longitude in degrees, `(cos φ cos λ, cos φ sin λ, sin φ)`,
    /// computed with ``fastSinCos(degrees:)-(SIMD2<Double>)`` (both angles at once, no libm).
    ///
    /// This is a fast path for indexes and benchmarks. It is *not* bit-identical to S2 (use
    /// ``LatLng/unitVector`` for that) but it is more accurate: the angles are reduced exactly
    /// in degrees, so poles and multiples of 90° give exact 0 and ±1 components.
    ///
    /// Measured against mpmath (`UnitVector+FastTests.swift`, 1,000 points): `z` within 0.56 ulp,
    /// `x` and `y` (one more rounded product) within 1.7 ulp (mean 0.4) of the true values; the
    /// libm path on the same uniform points: max 170 ulp (near zero crossings), mean 1.3 ulp.
    /// Within 1e-15 (chord) of ``LatLng/unitVector``. About 10 ns against 35 ns for the libm
    /// path (release build, 2.6 GHz AMD EPYC).
    ///
    /// - Parameters:
    ///   - latitude: latitude in degrees, finite, |latitude| <= 90.
    ///   - longitude: longitude in degrees, any finite value.
    @inlinable
    public init(fastLatitude latitude: Double, longitude: Double) {
        let (s, c) = fastSinCos(degrees: SIMD2(latitude, longitude))
        self.init(x: c[0] * c[1], y: c[0] * s[1], z: s[0])
    }

    /// The point of a latitude/longitude in degrees as ``init(fastLatitude:longitude:)`` gives
    /// it, computed with ``quickSinCos(degrees:)`` (half the operations): each component
    /// within 4e-16 of that one's (`UnitVector+FastTests`), for per-fix paths that need no
    /// better.
    ///
    /// - Parameters:
    ///   - latitude: latitude in degrees, finite, |latitude| <= 90.
    ///   - longitude: longitude in degrees, finite, |longitude| <= 2^40·90.
    @inlinable
    public init(quickLatitude latitude: Double, longitude: Double) {
        let (s, c) = quickSinCos(degrees: SIMD2(latitude, longitude))
        self.init(x: c[0] * c[1], y: c[0] * s[1], z: s[0])
    }
}
