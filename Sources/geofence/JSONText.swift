/// A minimal JSON writer for the CLI's `--json` output: values are built as text, objects keep
/// their keys in insertion order (so output is stable and golden-testable).
enum JSONText {
    /// A JSON string literal.
    static func string(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if ch.value < 0x20 {
                    let hex = String(ch.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }

    /// A number (shortest round-trip form); non-finite values become `null`.
    static func number(_ d: Double) -> String { d.isFinite ? d.description : "null" }

    /// An object from (key, already-encoded value) pairs.
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    /// An array of already-encoded values.
    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }
}
