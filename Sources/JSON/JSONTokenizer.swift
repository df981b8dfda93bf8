/// A pull tokenizer over the bytes of a JSON text (RFC 8259): the package's one JSON reader.
/// ``JSONValue/parse(_:nonFiniteWords:maximumDepth:)`` builds trees with it, and streaming readers (GeoJSON)
/// pull values one token at a time, so a document of any size needs memory for one record only.
///
/// Strings are unescaped (`\uXXXX` with surrogate pairs; a lone surrogate is an error) and must
/// be UTF-8; numbers are checked against JSON's grammar before conversion (no `nan`, `inf`, hex
/// or leading `+`). Every failure carries the byte offset where reading stopped;
/// ``lineColumn(_:)`` turns it into a 1-based line and column.
///
/// Complexity: each byte is looked at a constant number of times; ``lineColumn(_:)`` is linear in
/// the offset (it is only called to report an error).
public struct JSONTokenizer: Sendable {
    /// The whole text.
    public let bytes: [UInt8]
    /// The offset of the next byte to read.
    public var position = 0

    /// A tokenizer at the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// What failed, at which byte offset.
    public struct Failure: Error, Sendable, Equatable {
        /// What was expected or found ("expected ':', found 'x'").
        public var message: String
        /// 0-based byte offset of the offending byte.
        public var offset: Int

        public init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    /// 1-based line and column of a byte offset (columns count bytes).
    public func lineColumn(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for i in 0..<min(max(offset, 0), bytes.count) {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    /// Skips blanks (space, tab, line feed, carriage return).
    @inlinable
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-blank byte without consuming it (nil at the end).
    @inlinable
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes the punctuation `c` (after blanks), or fails naming what was found.
    @inlinable
    public mutating func expect(_ c: Character) throws(Failure) {
        guard peek() == c.asciiValue else {
            throw Failure(message: "expected '\(c)'" + found, offset: position)
        }
        position += 1
    }

    /// Consumes `c` if it is next (after blanks).
    @inlinable
    public mutating func consume(_ c: Character) -> Bool {
        if peek() == c.asciiValue { position += 1; return true }
        return false
    }

    /// `, found 'x'` (or the end of the input, or a byte value) for messages.
    public var found: String {
        guard position < bytes.count else { return ", found the end of the input" }
        let b = bytes[position]
        return b >= 0x20 && b < 0x7F ? ", found '\(Character(UnicodeScalar(b)))'" : ", found byte \(b)"
    }

    /// A string value (after blanks), unescaped.
    public mutating func string() throws(Failure) -> String {
        try expect("\"")
        let start = position
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw Failure(message: "unterminated string", offset: position) }
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw Failure(message: "string is not valid UTF-8", offset: start)
                }
                return s
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Failure(message: "unterminated string", offset: position) }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    let escape = position - 2
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        else { throw Failure(message: "lone surrogate in \\u escape", offset: escape) }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Failure(message: "lone surrogate in \\u escape", offset: escape) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(scalar) else { throw Failure(message: "lone surrogate in \\u escape", offset: escape) }
                    out.append(contentsOf: Array(String(Character(s)).utf8))
                default:
                    throw Failure(message: "invalid escape in string", offset: position - 1)
                }
            default:
                if b < 0x20 { throw Failure(message: "control character in string", offset: position - 1) }
                out.append(b)
            }
        }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw Failure(message: "short \\u escape", offset: position) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw Failure(message: "invalid \\u escape", offset: position)
            }
            v = v << 4 | d
            position += 1
        }
        return v
    }

    /// A number (after blanks), with its text and whether it was written as an integer (no
    /// fraction, no exponent). A number too large for a `Double` is an error, or, with
    /// `overflowToInfinity`, infinity of its sign (for a reader that refuses it naming its field).
    public mutating func number(overflowToInfinity: Bool = false) throws(Failure) -> (value: Double, text: String, integral: Bool) {
        skipWhitespace()
        let start = position
        func digits() -> Int {
            let s = position
            while position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9") { position += 1 }
            return position - s
        }
        var integral = true
        if position < bytes.count && bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let n = digits()
        if n == 0 || (n > 1 && bytes[intStart] == UInt8(ascii: "0")) {
            position = start
            throw Failure(message: "expected a number" + found, offset: start)
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            integral = false
            if digits() == 0 { throw Failure(message: "digits expected after '.'", offset: position) }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            integral = false
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            if digits() == 0 { throw Failure(message: "digits expected in exponent", offset: position) }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let v = Double(text), v.isFinite || (overflowToInfinity && v.isInfinite) else {
            throw Failure(message: "number out of range", offset: start)
        }
        return (v, text, integral)
    }

    /// The deepest nesting of arrays and objects a reader follows (a bound on its stack).
    public static let maximumDepth = 512

    /// Skips one value of any kind, checking its syntax; `depth` is the nesting of the value
    /// (a value nested deeper than ``maximumDepth`` is an error).
    public mutating func skipValue(depth: Int = 0) throws(Failure) {
        switch peek() {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw Failure(message: "nested too deeply", offset: position) }
            position += 1
            if consume("}") { return }
            repeat {
                _ = try string()
                try expect(":")
                try skipValue(depth: depth + 1)
            } while consume(",")
            try expect("}")
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw Failure(message: "nested too deeply", offset: position) }
            position += 1
            if consume("]") { return }
            repeat { try skipValue(depth: depth + 1) } while consume(",")
            try expect("]")
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    /// Consumes the bare word `word` (after blanks), or fails with "expected a value".
    public mutating func literal(_ word: String) throws(Failure) {
        guard literalIfPresent(word) else { throw Failure(message: "expected a value" + found, offset: position) }
    }

    /// Consumes the bare word `word` (after blanks) if it is next.
    public mutating func literalIfPresent(_ word: String) -> Bool {
        skipWhitespace()
        let w = Array(word.utf8)
        guard position + w.count <= bytes.count, bytes[position..<(position + w.count)].elementsEqual(w) else { return false }
        position += w.count
        return true
    }
}
