/// A parsed JSON document (RFC 8259), read from a request body.
///
/// Numbers are kept as `Double` with a flag for whether they were written as an integer.
/// Beyond RFC 8259, the bare words `NaN`, `Infinity` and `-Infinity` (what some encoders write
/// for non-finite numbers) are read as numbers, so that the request check can reject them
/// naming the field rather than the whole body.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number; `integral` when written without fraction or exponent.
    case number(Double, integral: Bool)
    case string(String)
    case array([JSONValue])
    /// Members in document order (a repeated key: the last one wins on lookup).
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x, let i), .number(let y, let j)): (x == y || (x.isNaN && y.isNaN)) && i == j
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object (the last one if repeated), nil if absent or not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The kind, for messages ("a string", "an object", ...).
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let v, _): v.isFinite ? "a number" : "a non-finite number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses `bytes` (UTF-8). Nesting deeper than 64 levels is refused.
    /// - Throws: ``JSONSyntaxError`` with the byte offset.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw JSONSyntaxError(offset: parser.at, message: "text after the document") }
        return value
    }
}

/// Why a body is not JSON, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// 0-based byte offset.
    public var offset: Int
    public var message: String
    public var description: String { "not valid JSON at byte \(offset): \(message)" }
}

private struct JSONParser {
    let bytes: [UInt8]
    var at = 0

    mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
    }

    func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: at, message: message) }

    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard at + n <= bytes.count else { return false }
        let w = word.utf8Start
        for k in 0..<n where bytes[at + k] != w[k] { return false }
        at += n
        return true
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 64 else { throw fail("nested too deeply") }
        guard at < bytes.count else { throw fail("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                at += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard at < bytes.count else { throw fail("unexpected end") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            at += 1
            var items: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw fail("unexpected end") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            if literal("true") { return .bool(true) }
        case UInt8(ascii: "f"):
            if literal("false") { return .bool(false) }
        case UInt8(ascii: "n"):
            if literal("null") { return .null }
        case UInt8(ascii: "N"):
            if literal("NaN") { return .number(.nan, integral: false) }
        case UInt8(ascii: "I"):
            if literal("Infinity") { return .number(.infinity, integral: false) }
        case UInt8(ascii: "-") where at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "I"):
            if literal("-Infinity") { return .number(-.infinity, integral: false) }
        default:
            return try number()
        }
        throw fail("unexpected character")
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = at
        var integral = true
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.at
            while p.at < p.bytes.count, p.bytes[p.at] >= 0x30 && p.bytes[p.at] <= 0x39 { p.at += 1 }
            return p.at - s
        }
        let intStart = at
        guard digits(&self) > 0 else { throw fail("unexpected character") }
        if bytes[intStart] == 0x30 && at - intStart > 1 { throw JSONSyntaxError(offset: intStart, message: "leading zero") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            integral = false
            guard digits(&self) > 0 else { throw fail("expected a digit") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            integral = false
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw fail("expected a digit") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let value = Double(text) else { throw JSONSyntaxError(offset: start, message: "bad number") }
        return .number(value, integral: integral)
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard at + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[at]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | d
            at += 1
        }
        return v
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        at += 1  // the opening quote
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("unterminated string") }
            let c = bytes[at]
            at += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw fail("unterminated string") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard literal("\\u") else { throw fail("lone surrogate") }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw fail("bad escape")
                }
            default:
                guard c >= 0x20 else { throw fail("control character in a string") }
                out.append(c)
            }
        }
    }
}
