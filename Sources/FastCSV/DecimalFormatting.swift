#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal text of numbers: the package's one place for it, in two forms.
///
/// - ``append(_:decimals:to:)`` writes bytes for millions of CSV rows without allocating: it
///   rounds the scaled binary value half away from zero (12.25 with 1 decimal is `12.3`).
///   The workload writers use it on values already rounded to the precision they write, where
///   it agrees with printf.
/// - ``fixed(_:_:)`` is C's `%.Nf`, correctly rounded from the exact binary value (`fixed(0.125, 2)`
///   is `0.12`), for tables, messages and JSON: about 10x slower, exact for every value.
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

    /// `value` with `decimals` digits after the point (0...40), as `printf("%.*f")` writes it;
    /// non-finite values are `NaN`, `inf` and `-inf`.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "inf" : "-inf") }
        let digits = min(max(decimals, 0), 40)
        // The largest finite double has 309 integer digits: 309 + sign + point + 40 + NUL fit.
        var buffer = [CChar](repeating: 0, count: 360)
        let format = "%.\(digits)f"
        let count = buffer.withUnsafeMutableBufferPointer { b in
            withVaList([value]) { arguments in vsnprintf(b.baseAddress!, b.count, format, arguments) }
        }
        let length = min(Int(count), buffer.count - 1)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
