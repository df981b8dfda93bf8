import FastCSV

/// One JSON object written as text, keys in insertion order (so output is stable and can be
/// compared byte for byte), values set one by one.
///
/// Strings are escaped per RFC 8259: `"` and `\` get a backslash, `\n` `\r` `\t` `\b` `\f`
/// their short forms, other control characters below U+0020 `\u00XX`; everything else is
/// written as is (UTF-8). Numbers that are not finite (NaN, ±infinity) have no JSON form and
/// are written as `null`. Nested objects and arrays go in with ``set(_:object:)`` and
/// ``set(_:array:)``.
///
/// ```swift
/// var o = JSONObject()
/// o.set("index", "grid")
/// o.set("hits", 42)
/// o.set("fixes_per_second", 1.25e7, decimals: 0)
/// o.set("ratio", Double.infinity, decimals: 1)
/// print(o.text)   // {"index": "grid", "hits": 42, "fixes_per_second": 12500000, "ratio": null}
/// ```
public struct JSONObject: Sendable {
    private var fields: [(key: String, value: String)] = []

    /// An empty object.
    public init() {}

    /// Sets `key` to an integer.
    public mutating func set(_ key: String, _ value: Int) { fields.append((key, String(value))) }

    /// Sets `key` to a number with `decimals` digits after the point (`DecimalFormatting.fixed`),
    /// or, with `decimals` nil, its shortest round-trip form; `null` when not finite.
    public mutating func set(_ key: String, _ value: Double, decimals: Int? = 6) {
        fields.append((key, Self.number(value, decimals: decimals)))
    }

    /// Sets `key` to a string.
    public mutating func set(_ key: String, _ value: String) { fields.append((key, Self.string(value))) }

    /// Sets `key` to a boolean.
    public mutating func set(_ key: String, _ value: Bool) { fields.append((key, value ? "true" : "false")) }

    /// Sets `key` to `null`.
    public mutating func setNull(_ key: String) { fields.append((key, "null")) }

    /// Sets `key` to a nested object.
    public mutating func set(_ key: String, object: JSONObject) { fields.append((key, object.text)) }

    /// Sets `key` to an array of already encoded values (see ``string(_:)``, ``number(_:decimals:)``).
    public mutating func set(_ key: String, array: [String]) { fields.append((key, Self.array(array))) }

    /// The object as one line of JSON text.
    public var text: String {
        "{" + fields.map { Self.string($0.key) + ": " + $0.value }.joined(separator: ", ") + "}"
    }

    /// A JSON array of already encoded values.
    public static func array(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }

    /// A JSON number: `decimals` digits after the point, or the shortest round-trip form when
    /// `decimals` is nil; `null` when `value` is not finite.
    public static func number(_ value: Double, decimals: Int? = nil) -> String {
        guard value.isFinite else { return "null" }
        guard let decimals else { return value.description }
        return DecimalFormatting.fixed(value, decimals)
    }

    /// A JSON string literal of `s`, escaped as the type's comment describes.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
