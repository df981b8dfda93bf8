extension UnitVector {
    /// The point of a latitude/longitude in degrees, `(cos φ cos λ, cos φ sin λ, sin φ)`,
    /// computed with ``fastSinCos(degrees:)-(SIMD2<Double>)`` (both angles at once, no libm).
    ///
    /// This is a fast path for indexes and benchmarks. It is *not* bit-identical to S2 (use
    /// ``LatLng/unitVector`` for that) but it is more accurate: the angles are reduced exactly
    /// in degrees, so poles and multiples of 90° give exact 0 and ±1 components.
    ///
    /// Measured (tests `UnitVector+FastTests` against mpmath): sin and cos within 0.52 ulp,
    /// `z` within 0.52 ulp, `x` and `y` (one extra product) within 1.1 ulp of the true values.
    ///
    /// - Parameters:
    ///   - fastLatitude: latitude in degrees, finite, |latitude| <= 90.
    ///   - longitude: longitude in degrees, any finite value.
    @inlinable
    public init(fastLatitude latitude: Double, longitude: Double) {
        let (s, c) = fastSinCos(degrees: SIMD2(latitude, longitude))
        self.init(x: c[0] * c[1], y: c[0] * s[1], z: s[0])
    }
}
