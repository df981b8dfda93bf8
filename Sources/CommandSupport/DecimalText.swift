#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decimal text of numbers for tables, messages and JSON: the executables' one formatter.
///
/// ``fixed(_:_:)`` is C's `%.Nf`, correctly rounded from the binary value (`fixed(0.125, 2)` is
/// `0.12`, the double nearest 2.675 gives `2.67`). Non-finite values are spelled `NaN`, `inf`
/// and `-inf`; JSON callers map them to `null` (see ``JSONObject``).
public enum DecimalText {
    /// `value` with `decimals` digits after the point (0...40), as `printf("%.*f")` writes it.
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

    /// The shortest text that reads back as the same `Double` (Swift's `description`: `0.1`,
    /// `1.0`, `1e-07`).
    public static func shortest(_ value: Double) -> String { value.description }
}
