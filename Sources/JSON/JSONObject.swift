import NumberFormatting

/// One JSON object written as text, keys in insertion order (so output is stable and can be
/// compared byte for byte), values set one by one: the package's one JSON writer.
///
/// Strings are escaped per RFC 8259: `"` and `\` get a backslash, `\n` `\r` `\t` `\b` `\f`
/// their short forms, other control characters below U+0020 `\u00XX`; everything else is
/// written as is (UTF-8; `/` is not escaped). Numbers are written by `DecimalFormatting`:
/// with a fixed number of decimals, or in the shortest form that reads back to the same
/// `Double` (integral values without a fraction, `3` not `3.0`). Numbers that are not finite
/// (NaN, ±infinity) have no JSON form and are written as `null`. Nested objects and arrays go
/// in with ``set(_:object:)`` and ``set(_:array:)``.
///
/// ``text`` is one line (`{"a": 1, "b": [1, 2]}`); ``prettyText(sortedKeys:)`` is indented by
/// two spaces with `"key" : value` members, the layout of Foundation's `JSONEncoder` with
/// `.prettyPrinted` (``JSONEncoding`` writes `Encodable` values with it).
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
    /// One value as the writer holds it: encoded text, or a nested object or array.
    public indirect enum Value: Sendable {
        /// An encoded scalar (number, string literal, `true`, `false`, `null`).
        case encoded(String)
        case object(JSONObject)
        case array([Value])
    }

    private var fields: [(key: String, value: Value)] = []

    /// An empty object.
    public init() {}

    /// Whether no field is set.
    public var isEmpty: Bool { fields.isEmpty }

    /// Sets `key` to an integer.
    public mutating func set(_ key: String, _ value: Int) { fields.append((key, .encoded(String(value)))) }

    /// Sets `key` to a number with `decimals` digits after the point (`DecimalFormatting`),
    /// or, with `decimals` nil, its shortest round-trip form (`DecimalFormatting`);
    /// `null` when not finite.
    public mutating func set(_ key: String, _ value: Double, decimals: Int? = 6) {
        fields.append((key, .encoded(Self.number(value, decimals: decimals))))
    }

    /// Sets `key` to a string.
    public mutating func set(_ key: String, _ value: String) { fields.append((key, .encoded(Self.string(value)))) }

    /// Sets `key` to a boolean.
    public mutating func set(_ key: String, _ value: Bool) { fields.append((key, .encoded(value ? "true" : "false"))) }

    /// Sets `key` to `null`.
    public mutating func setNull(_ key: String) { fields.append((key, .encoded("null"))) }

    /// Sets `key` to a nested object.
    public mutating func set(_ key: String, object: JSONObject) { fields.append((key, .object(object))) }

    /// Sets `key` to an array of already encoded values (see ``string(_:)``, ``number(_:decimals:)``).
    public mutating func set(_ key: String, array: [String]) { fields.append((key, .array(array.map(Value.encoded)))) }

    /// Sets `key` to any value.
    public mutating func set(_ key: String, value: Value) { fields.append((key, value)) }

    /// The object as one line of JSON text.
    public var text: String {
        var out = ""
        Value.object(self).write(to: &out, indent: nil, sortedKeys: false)
        return out
    }

    /// The object as indented JSON text (no final line break), keys sorted by their Unicode
    /// scalars when `sortedKeys`.
    public func prettyText(sortedKeys: Bool = false) -> String {
        var out = ""
        Value.object(self).write(to: &out, indent: "", sortedKeys: sortedKeys)
        return out
    }

    /// A JSON number: `decimals` digits after the point, or the shortest round-trip form when
    /// `decimals` is nil; `null` when `value` is not finite.
    public static func number(_ value: Double, decimals: Int? = nil) -> String {
        guard value.isFinite else { return "null" }
        guard let decimals else { return DecimalFormatting.shortest(value) }
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

extension JSONObject.Value {
    /// Writes the value: on one line when `indent` is nil, else indented below `indent`.
    func write(to out: inout String, indent: String?, sortedKeys: Bool) {
        switch self {
        case .encoded(let text):
            out += text
        case .array(let items):
            Self.write("[", items.map { (nil, $0) }, "]", to: &out, indent: indent, sortedKeys: sortedKeys)
        case .object(let object):
            let fields = sortedKeys ? object.fieldsSorted : object.fieldsInOrder
            Self.write("{", fields.map { ($0.key, $0.value) }, "}", to: &out, indent: indent, sortedKeys: sortedKeys)
        }
    }

    /// Writes an array (members without keys) or an object between `open` and `close`.
    static func write(
        _ open: String, _ members: [(key: String?, value: Self)], _ close: String, to out: inout String, indent: String?,
        sortedKeys: Bool
    ) {
        let inner = indent.map { $0 + "  " }
        out += open
        if inner != nil { out += "\n" }
        for (k, member) in members.enumerated() {
            if k > 0 { out += inner == nil ? ", " : ",\n" }
            out += inner ?? ""
            if let key = member.key { out += JSONObject.string(key) + (inner == nil ? ": " : " : ") }
            member.value.write(to: &out, indent: inner, sortedKeys: sortedKeys)
        }
        if let indent { out += "\n" + indent }
        out += close
    }
}

extension JSONObject {
    var fieldsInOrder: [(key: String, value: Value)] { fields }
    var fieldsSorted: [(key: String, value: Value)] {
        fields.enumerated().sorted { a, b in
            a.element.key.unicodeScalars.lexicographicallyPrecedes(b.element.key.unicodeScalars)
                || (a.element.key == b.element.key && a.offset < b.offset)
        }.map(\.element)
    }
}
