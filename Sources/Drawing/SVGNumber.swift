/// Formatting of coordinates and lengths for SVG attributes.
public enum SVGNumber {
    /// `value` rounded to `decimals` places (0...6), written without a trailing `.0` and never
    /// as `-0`: `12.5`, `3`, `-0.25`. Two decimals are a hundredth of a pixel, finer than any
    /// screen shows.
    ///
    /// - Precondition: `value` is finite (a NaN or infinity reaching a drawing is a bug in the
    ///   caller, which must filter or count such inputs first), and `decimals` is in `0...6`.
    public static func format(_ value: Double, decimals: Int = 2) -> String {
        precondition(value.isFinite, "SVGNumber.format: \(value) is not finite")
        precondition((0...6).contains(decimals), "SVGNumber.format: decimals must be in 0...6")
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 }  // turns -0 into 0
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return String(Int64(rounded))
        }
        return String(rounded)
    }
}
