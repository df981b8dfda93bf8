/// A tiny ordered JSON object writer (keys keep insertion order; values are numbers, strings
/// or booleans), enough for the benchmark's one-object-per-run output.
struct JSONObject {
    private var fields: [(String, String)] = []

    mutating func set(_ key: String, _ value: Int) { fields.append((key, String(value))) }
    mutating func set(_ key: String, _ value: Double, decimals: Int = 6) {
        fields.append((key, value.isFinite ? formatFixed(value, decimals) : "null"))
    }
    mutating func set(_ key: String, _ value: String) { fields.append((key, quote(value))) }
    mutating func set(_ key: String, _ value: Bool) { fields.append((key, value ? "true" : "false")) }
    mutating func set(_ key: String, raw: String) { fields.append((key, raw)) }

    var text: String {
        "{" + fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    private func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
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
}
