#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal text of numbers: the package's one number formatter, with one rounding rule.
///
/// **Rounding.** Every mode rounds the exact binary value of the `Double` to the nearest
/// decimal with the digits asked for, ties to even: what C's `printf("%.Nf")` writes. A tie
/// needs the binary value to be exactly halfway (`0.125` with 2 decimals is `0.12`, `0.375`
/// is `0.38`); `2.675` is `2.67` because its binary value is 2.67499999999999982236431605997495353221893310546875.
/// A negative value keeps its sign when it rounds to zero (`-0.001` with 2 decimals and `-0.0`
/// are `-0.00`), except in ``trimmed(_:_:)``.
///
/// **Modes.**
/// - ``append(_:decimals:to:)``: fixed decimals as bytes, without allocating (millions of CSV rows);
/// - ``fixed(_:_:)``: fixed decimals as a `String` (tables, messages, JSON);
/// - ``grouped(_:_:)``: fixed decimals with a comma every three integer digits (`1,234,567.9`);
/// - ``trimmed(_:_:)``: at most N decimals, no trailing zeros, never `-0` (SVG coordinates);
/// - ``shortest(_:)``: the fewest digits that read back to the same `Double`, integral values
///   without a fraction (`3`, `0.1`, `1e+20`), as JSON writers write numbers.
///
/// **Not finite.** NaN, +infinity and -infinity are written `nan`, `inf` and `-inf` (as printf writes them) by every
/// mode (JSON has no form for them: ``JSONObject`` writes `null` before asking).
public enum DecimalFormatting {
    @usableFromInline static let powersOfTen: [Double] = (0...22).map { n in
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// The text of a value that is not finite.
    @inlinable
    public static func nonFinite(_ value: Double) -> String { value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }

    /// Appends `value` with exactly `decimals` digits after the point (0...40), rounded as the
    /// type's comment describes. Values whose scaled magnitude reaches 2^52 go through
    /// ``fixed(_:_:)`` (which allocates); all others are formatted in place.
    @inlinable
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite, decimals >= 0, decimals <= 15 else {
            out.append(contentsOf: Array(fixed(value, decimals).utf8))
            return
        }
        let p = powersOfTen[decimals]
        let a = abs(value) * p
        guard a < 4_503_599_627_370_496 else {  // 2^52: beyond it the scaled value has no fraction bits to round
            out.append(contentsOf: Array(fixed(value, decimals).utf8))
            return
        }
        // abs(value) * p == a + e exactly (the product's rounding error, by a fused multiply-add).
        let e = (-a).addingProduct(abs(value), p)
        let floor = a.rounded(.down)
        let d = (a - floor) - 0.5  // exact whenever the comparison below is close
        var n = UInt64(floor)
        if d > -e || (d == -e && n & 1 == 1) { n += 1 }
        if value.sign == .minus { out.append(UInt8(ascii: "-")) }
        let unit = UInt64(p)
        appendDigits(n / unit, minimumDigits: 1, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(n % unit, minimumDigits: decimals, to: &out)
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

    /// `value` with `decimals` digits after the point (clamped to 0...40).
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return nonFinite(value) }
        let digits = min(max(decimals, 0), 40)
        if digits <= 15, abs(value) * powersOfTen[digits] < 4_503_599_627_370_496 {
            var out: [UInt8] = []
            out.reserveCapacity(24)
            append(value, decimals: digits, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        // The largest finite double has 309 integer digits: 309 + sign + point + 40 + NUL fit.
        var buffer = [CChar](repeating: 0, count: 360)
        let format = "%.\(digits)f"
        let count = buffer.withUnsafeMutableBufferPointer { b in
            withVaList([value]) { arguments in vsnprintf(b.baseAddress!, b.count, format, arguments) }
        }
        let length = min(Int(count), buffer.count - 1)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// ``fixed(_:_:)`` with a comma between every three integer digits: `grouped(1234567.891, 1)`
    /// is `1,234,567.9`, `grouped(-1234, 0)` is `-1,234`.
    public static func grouped(_ value: Double, _ decimals: Int) -> String {
        let text = fixed(value, decimals)
        guard value.isFinite else { return text }
        let sign = text.hasPrefix("-") ? "-" : ""
        let body = text.dropFirst(sign.count)
        let point = body.firstIndex(of: ".") ?? body.endIndex
        let whole = Array(body[..<point])
        guard whole.count > 3 else { return text }
        var out = sign
        for (i, c) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out + body[point...]
    }

    /// ``fixed(_:_:)`` without trailing zeros after the point (nor the point itself when
    /// nothing follows it), and `0` for any value that rounds to zero, whatever its sign:
    /// `trimmed(12.5, 2)` is `12.5`, `trimmed(3.0001, 2)` is `3`, `trimmed(-0.001, 2)` is `0`.
    public static func trimmed(_ value: Double, _ decimals: Int) -> String {
        var text = fixed(value, decimals)
        guard value.isFinite else { return text }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// The shortest decimal that reads back to exactly `value` (Swift's `description`), with
    /// an integral value written without `.0`: `3`, `-0`, `0.1`, `1e-07`, `1e+20`.
    public static func shortest(_ value: Double) -> String {
        guard value.isFinite else { return nonFinite(value) }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
