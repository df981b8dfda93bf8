/// Input text as quoted in an error message: at most ``limit`` bytes of it, so that a hostile
/// field (a megabyte of digits, binary junk) neither floods the terminal nor hides the place.
public enum MessageText {
    /// The most bytes of a field a message shows (one terminal line with its place).
    public static let limit = 40

    /// The first ``limit`` bytes of `bytes` (invalid UTF-8 replaced by U+FFFD), then `...` when
    /// there was more.
    public static func clipped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self) + (bytes.count > limit ? "..." : "")
    }

    /// `text` cut to its first ``limit`` bytes (at a character boundary), then `...` when
    /// there was more.
    public static func clipped(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        var out = ""
        for ch in text {
            if out.utf8.count + ch.utf8.count > limit { break }
            out.append(ch)
        }
        return out + "..."
    }
}
