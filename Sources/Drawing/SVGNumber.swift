import NumberFormatting

/// Coordinates and lengths in SVG attributes.
public enum SVGNumber {
    /// `value` with at most `decimals` places (0...6), no trailing zeros and never `-0`
    /// (`DecimalFormatting/trimmed(_:_:)`): `12.5`, `3`, `-0.25`. Two decimals are a
    /// hundredth of a pixel, finer than any screen shows.
    ///
    /// - Precondition: `value` is finite (a NaN or infinity reaching a drawing is a bug in the
    ///   caller, which must filter or count such inputs first), and `decimals` is in `0...6`.
    public static func format(_ value: Double, decimals: Int = 2) -> String {
        precondition(value.isFinite, "SVGNumber.format: \(value) is not finite")
        precondition((0...6).contains(decimals), "SVGNumber.format: decimals must be in 0...6")
        return DecimalFormatting.trimmed(value, decimals)
    }
}
