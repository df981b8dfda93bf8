/// Escaping of text for XML (and so SVG and XHTML) character data and attribute values.
///
/// The five XML special characters become entities (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`),
/// and control characters that XML 1.0 forbids (U+0000-U+001F other than tab, newline and carriage
/// return, U+FFFE, U+FFFF) become U+FFFD, so any Swift string yields a well-formed document.
public enum XMLText {
    /// `text` escaped for use inside an element or a double- or single-quoted attribute.
    /// - Complexity: O(n) in the length of `text`.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
