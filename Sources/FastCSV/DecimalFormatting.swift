/// Fast fixed-point decimal formatting into a byte buffer, for writing millions of CSV rows
/// without `String(format:)`.
public enum DecimalFormatting {
    @usableFromInline static let powersOfTen: [Double] = (0...15).map { n in
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// Appends `value` with exactly `decimals` digits after the point (0...15), rounding
    /// half away from zero on the scaled binary value; the sign of a negative value is kept
    /// even when it rounds to zero (`-0.0000`), as printf writes it. Values whose scaled magnitude exceeds
    /// 2^53 or that are not finite are written with Swift's shortest round-trip form instead.
    @inlinable
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        let scaled = (value * powersOfTen[decimals]).rounded()
        guard value.isFinite, abs(scaled) < 9_007_199_254_740_992 else {
            out.append(contentsOf: Array(value.description.utf8))
            return
        }
        let n = Int64(scaled)
        // As printf and Python do: a negative value keeps its sign even when it rounds to zero.
        if value.sign == .minus { out.append(UInt8(ascii: "-")) }
        let magnitude = n.magnitude
        let unit = UInt64(powersOfTen[decimals])
        appendDigits(magnitude / unit, minimumDigits: 1, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(magnitude % unit, minimumDigits: decimals, to: &out)
        }
    }

    /// Appends the decimal digits of `n`, left-padded with zeros to `minimumDigits` (<= 20).
    @inlinable
    static func appendDigits(_ n: UInt64, minimumDigits: Int, to out: inout [UInt8]) {
        var n = n
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, enough for 20 digits
        withUnsafeMutableBytes(of: &buffer) { raw in
            var count = 0
            repeat {
                raw[count] = UInt8(truncatingIfNeeded: n % 10) &+ 48
                n /= 10
                count += 1
            } while n > 0 || count < minimumDigits
            for k in stride(from: count - 1, through: 0, by: -1) { out.append(raw[k]) }
        }
    }

    /// Appends a signed integer in decimal.
    @inlinable
    public static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumDigits: 1, to: &out)
    }
}
