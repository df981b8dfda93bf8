/// A pull tokenizer over the bytes of a JSON text (RFC 8259), for ``GeoJSONReader``: values
/// are read one token at a time, so a document of any size needs memory for one feature only.
/// Strings are unescaped (`\uXXXX` with surrogate pairs); numbers are checked against JSON's
/// grammar before conversion (no `nan`, `inf`, hex or leading `+`).
struct JSONTokenizer {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// What failed, with the line and column of `position`.
    struct Failure: Error {
        let message: String
        let offset: Int
    }

    /// 1-based line and column of a byte offset.
    func lineColumn(_ offset: Int) -> (Int, Int) {
        var line = 1, column = 1
        for i in 0..<min(offset, bytes.count) {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-blank byte without consuming it (nil at the end).
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ c: Character) throws(Failure) {
        guard peek() == c.asciiValue else {
            throw Failure(message: "expected '\(c)'" + found, offset: position)
        }
        position += 1
    }

    /// Consumes `c` if it is next.
    mutating func consume(_ c: Character) -> Bool {
        if peek() == c.asciiValue { position += 1; return true }
        return false
    }

    var found: String {
        guard position < bytes.count else { return ", found the end of the input" }
        let b = bytes[position]
        return b >= 0x20 && b < 0x7F ? ", found '\(Character(UnicodeScalar(b)))'" : ", found byte \(b)"
    }

    mutating func string() throws(Failure) -> String {
        try expect("\"")
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw Failure(message: "unterminated string", offset: position) }
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
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
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
                        bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
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

    /// A JSON number, with its text (for integer ids).
    mutating func number() throws(Failure) -> (value: Double, text: String) {
        skipWhitespace()
        let start = position
        func digits() -> Int {
            let s = position
            while position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9") { position += 1 }
            return position - s
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: "-") { position += 1 }
        let intStart = position
        let n = digits()
        if n == 0 || (n > 1 && bytes[intStart] == UInt8(ascii: "0")) {
            position = start
            throw Failure(message: "expected a number" + found, offset: start)
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits() == 0 { throw Failure(message: "digits expected after '.'", offset: position) }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            if digits() == 0 { throw Failure(message: "digits expected in exponent", offset: position) }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw Failure(message: "number out of range", offset: start) }
        return (v, text)
    }

    /// Skips one value of any kind.
    mutating func skipValue() throws(Failure) {
        switch peek() {
        case UInt8(ascii: "{"):
            position += 1
            if consume("}") { return }
            repeat {
                _ = try string()
                try expect(":")
                try skipValue()
            } while consume(",")
            try expect("}")
        case UInt8(ascii: "["):
            position += 1
            if consume("]") { return }
            repeat { try skipValue() } while consume(",")
            try expect("]")
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }

    mutating func literal(_ word: String) throws(Failure) {
        let w = Array(word.utf8)
        guard position + w.count <= bytes.count, Array(bytes[position..<(position + w.count)]) == w else {
            throw Failure(message: "expected a value" + found, offset: position)
        }
        position += w.count
    }
}
