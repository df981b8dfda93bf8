/// Human-readable numbers for labels, without Foundation: fixed decimals, thousands separators,
/// and short SI forms for axis ticks.
public enum NumberText {
    /// `value` with exactly `decimals` places (0...9) and a comma every three integer digits:
    /// `fixed(1234567.891, decimals: 1)` is `"1,234,567.9"`. Non-finite values read `"nan"`,
    /// `"inf"` or `"-inf"` (labels show what the data holds).
    /// - Precondition: `decimals` is in `0...9`.
    public static func fixed(_ value: Double, decimals: Int, grouping: Bool = true) -> String {
        precondition((0...9).contains(decimals), "NumberText.fixed: decimals must be in 0...9")
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return String(value) }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale), fraction = units % UInt64(scale)
        var digits = String(whole)
        if grouping && digits.count > 3 {
            var grouped = ""
            for (i, ch) in digits.enumerated() {
                if i > 0 && (digits.count - i) % 3 == 0 { grouped += "," }
                grouped.append(ch)
            }
            digits = grouped
        }
        if decimals > 0 {
            var f = String(fraction)
            while f.count < decimals { f = "0" + f }
            digits += "." + f
        }
        return (value < 0 && units != 0 ? "-" : "") + digits
    }

    /// A short tick label: up to three significant digits, with `k`, `M` or `G` for thousands,
    /// millions and billions (`3k`, `1.5M`, `0.25`, `0.001`). Zero is `"0"`.
    public static func short(_ value: Double) -> String {
        guard value.isFinite else { return fixed(value, decimals: 0) }
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

    /// `value` with at most `significant` significant digits and no trailing zeros.
    static func trimmed(_ value: Double, significant: Int) -> String {
        let magnitude = abs(value)
        var decimals = 0
        var threshold = 1.0
        for _ in 1..<significant { threshold *= 10 }
        var m = magnitude
        while m < threshold && decimals < 9 && m > 0 { m *= 10; decimals += 1 }
        var s = fixed(value, decimals: decimals, grouping: false)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }

    /// A distance in meters as `"850 m"`, `"2 km"` or `"1.5 km"`.
    public static func meters(_ value: Double) -> String {
        abs(value) >= 1000 ? trimmed(value / 1000, significant: 3) + " km" : trimmed(value, significant: 3) + " m"
    }
}
