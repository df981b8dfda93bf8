#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Number parsing straight from field bytes, without making a String.
//
// Grammar accepted by `parseDouble` (the decimal subset of what Swift's `Double(String)` takes):
//   [+-]? ( digits ( '.' digits? )? | '.' digits ) ( [eE] [+-]? digits )?
// No leading or trailing spaces, no thousands separators, no decimal comma, no hexadecimal
// floats; the words `nan`, `inf`, `infinity` (any case, optional sign) only when
// `allowingNonFinite` is true. A decimal that overflows gives ±infinity, as `Double(String)` does.
// For every accepted string the result is bit-identical to `Double(String)`: correctly rounded.

/// Exactly representable powers of ten, 10^0 ... 10^22 (10^22 < 2^53 * 2^22 is the largest
/// whose every digit fits a Double's 53-bit significand times a power of two).
@usableFromInline
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
]

/// Parses a decimal floating-point number from raw bytes.
///
/// Fast path (Clinger 1990, "How to read floating point numbers accurately"): when the decimal
/// significand fits in 53 bits and the power of ten is at most 22 in magnitude, both are exact
/// Doubles and one IEEE multiplication or division rounds correctly. Other inputs (more than ~16
/// significant digits, large exponents) go to libc `strtod` on a stack copy, which is correctly
/// rounded too. Typical coordinates (`60.1680505`) take the fast path.
///
/// - Returns: the value, or `nil` if the bytes are not a number in the grammar above.
@inlinable
public func parseDouble(_ field: UnsafeBufferPointer<UInt8>, allowingNonFinite: Bool = false) -> Double? {
    let n = field.count
    guard n > 0, let p = field.baseAddress else { return nil }
    var i = 0
    var negative = false
    if p[0] == 0x2D { negative = true; i = 1 } else if p[0] == 0x2B { i = 1 }
    var mantissa: UInt64 = 0
    var significant = 0  // digits held in `mantissa` after its leading zeros
    var exponent = 0
    var sawDigit = false
    var truncated = false  // a non-zero digit did not fit in `mantissa`
    while i < n {
        let d = p[i] &- 0x30
        if d > 9 { break }
        sawDigit = true
        if significant < 19 {  // 19 digits always fit in a UInt64
            mantissa = mantissa &* 10 &+ UInt64(d)
            if mantissa != 0 { significant += 1 }
        } else {
            exponent += 1
            if d != 0 { truncated = true }
        }
        i += 1
    }
    if i < n && p[i] == 0x2E {
        i += 1
        while i < n {
            let d = p[i] &- 0x30
            if d > 9 { break }
            sawDigit = true
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                if mantissa != 0 { significant += 1 }
                exponent -= 1
            } else if d != 0 {
                truncated = true
            }
            i += 1
        }
    }
    guard sawDigit else {
        return allowingNonFinite ? parseNonFiniteWord(field) : nil
    }
    if i < n && (p[i] | 0x20) == 0x65 {  // 'e' or 'E'
        i += 1
        var exponentNegative = false
        if i < n && (p[i] == 0x2D || p[i] == 0x2B) {
            exponentNegative = p[i] == 0x2D
            i += 1
        }
        var e = 0
        var sawExponentDigit = false
        while i < n {
            let d = p[i] &- 0x30
            if d > 9 { break }
            sawExponentDigit = true
            if e < 100_000 { e = e * 10 + Int(d) }  // beyond any Double's range: clamp
            i += 1
        }
        guard sawExponentDigit else { return nil }
        exponent += exponentNegative ? -e : e
    }
    guard i == n else { return nil }
    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    if !truncated && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
        let m = Double(mantissa)
        let value = exponent < 0 ? m / exactPowersOfTen[-exponent] : m * exactPowersOfTen[exponent]
        return negative ? -value : value
    }
    return parseDoubleSlowPath(field)
}

/// Parses a string with ``parseDouble(_:allowingNonFinite:)``.
@inlinable
public func parseDouble(_ text: some StringProtocol, allowingNonFinite: Bool = false) -> Double? {
    var text = String(text)
    return text.withUTF8 { parseDouble($0, allowingNonFinite: allowingNonFinite) }
}

/// The correctly rounded value of an already validated decimal, via libc `strtod`.
@usableFromInline
func parseDoubleSlowPath(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = field.count
    let parsed: Double? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { scratch in
        let s = scratch.baseAddress!
        field.withMemoryRebound(to: CChar.self) { src in s.update(from: src.baseAddress!, count: n) }
        s[n] = 0
        var end: UnsafeMutablePointer<CChar>? = nil
        let value = strtod(s, &end)
        // strtod honors LC_NUMERIC: if some locale made it stop early, defer to Swift below.
        return end == s + n ? value : nil
    }
    if let parsed { return parsed }
    return Double(String(decoding: field, as: UTF8.self))
}

/// `nan`, `inf`, `infinity` in any case with an optional sign.
@usableFromInline
func parseNonFiniteWord(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
    var bytes = field[...]
    var negative = false
    if let first = bytes.first, first == 0x2D || first == 0x2B {
        negative = first == 0x2D
        bytes = bytes.dropFirst()
    }
    let word = String(decoding: bytes, as: UTF8.self).lowercased()
    switch word {
    case "nan": return negative ? -Double.nan : Double.nan
    case "inf", "infinity": return negative ? -Double.infinity : Double.infinity
    default: return nil
    }
}

/// Parses `[+-]?digits` into a sign and a magnitude; `nil` on an empty field, a lone sign,
/// any other character, or a magnitude beyond `UInt64.max`. The shared core of
/// ``parseInt64(_:)`` and ``parseUInt64(_:)``.
@inlinable
func parseSignAndMagnitude(_ field: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: UInt64)? {
    let n = field.count
    guard n > 0, let p = field.baseAddress else { return nil }
    var i = 0
    var negative = false
    if p[0] == 0x2D { negative = true; i = 1 } else if p[0] == 0x2B { i = 1 }
    guard i < n else { return nil }
    var magnitude: UInt64 = 0
    while i < n {
        let d = p[i] &- 0x30
        guard d <= 9 else { return nil }
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
        guard !o1 && !o2 else { return nil }
        magnitude = sum
        i += 1
    }
    return (negative, magnitude)
}

/// Parses `[+-]?digits` as an `Int64`; `nil` on anything else or on overflow (same accepted
/// strings and results as Swift's `Int64(String)`).
@inlinable
public func parseInt64(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard let (negative, magnitude) = parseSignAndMagnitude(field) else { return nil }
    if negative {
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return Int64(bitPattern: 0 &- magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
}

/// Parses `+?digits` as a `UInt64` (also `-0`, as Swift's `UInt64(String)` does); `nil` on
/// anything else or on overflow.
@inlinable
public func parseUInt64(_ field: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard let (negative, magnitude) = parseSignAndMagnitude(field) else { return nil }
    if negative && magnitude != 0 { return nil }
    return magnitude
}
