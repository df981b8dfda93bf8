import NumberFormatting

/// Short numbers for chart ticks and scale labels, written with `DecimalFormatting` (fixed
/// decimals and grouping are `DecimalFormatting/fixed(_:_:)` and `DecimalFormatting/grouped(_:_:)`).
public enum NumberText {
    /// A short tick label: up to three significant digits, with `k`, `M` or `G` for thousands,
    /// millions and billions (`3k`, `1.5M`, `0.25`, `0.001`). Zero is `"0"`; non-finite values
    /// read `nan`, `inf`, `-inf`.
    public static func short(_ value: Double) -> String {
        guard value.isFinite else { return DecimalFormatting.nonFinite(value) }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        let (scaled, suffix): (Double, String) =
            magnitude >= 1e9
            ? (value / 1e9, "G")
            : magnitude >= 1e6
                ? (value / 1e6, "M")
                : magnitude >= 1e3 ? (value / 1e3, "k") : (value, "")
        return trimmed(scaled, significant: 3) + suffix
    }

    /// `value` with at most `significant` significant digits (at most 9 decimals) and no
    /// trailing zeros.
    static func trimmed(_ value: Double, significant: Int) -> String {
        var decimals = 0
        var threshold = 1.0
        for _ in 1..<significant { threshold *= 10 }
        var m = abs(value)
        while m < threshold && decimals < 9 && m > 0 { m *= 10; decimals += 1 }
        return DecimalFormatting.trimmed(value, decimals)
    }

    /// A distance in meters as `"850 m"`, `"2 km"` or `"1.5 km"`.
    public static func meters(_ value: Double) -> String {
        abs(value) >= 1000 ? trimmed(value / 1000, significant: 3) + " km" : trimmed(value, significant: 3) + " m"
    }
}
