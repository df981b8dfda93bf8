/// A parsed JSON document (RFC 8259), built with ``JSONTokenizer``.
///
/// Numbers are kept as `Double` with a flag for whether they were written as an integer.
/// Object members keep document order (a repeated key: the last one wins on lookup).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number; `integral` when written without fraction or exponent.
    case number(Double, integral: Bool)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
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

    /// Parses `bytes` (UTF-8), a whole document.
    ///
    /// - Parameters:
    ///   - bytes: the document's UTF-8 text, whole.
    ///   - nonFiniteWords: also read the bare words `NaN`, `Infinity` and `-Infinity` (what
    ///     Python's `json` and some encoders write for non-finite numbers) as numbers, and a
    ///     number too large for a `Double` (`1e400`) as infinity of its sign, so that a reader
    ///     can reject or accept them naming the field rather than the whole text.
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted.
    /// - Throws: ``JSONSyntaxError`` with the byte offset, line and column.
    public static func parse(
        _ bytes: [UInt8], nonFiniteWords: Bool = false, maximumDepth: Int = JSONTokenizer.maximumDepth
    ) throws(JSONSyntaxError) -> JSONValue {
        var builder = Builder(tokenizer: JSONTokenizer(bytes), nonFiniteWords: nonFiniteWords, maximumDepth: maximumDepth, locations: nil)
        return try builder.document()
    }

    /// Parses `bytes` as ``parse(_:nonFiniteWords:maximumDepth:)`` does and also returns where
    /// each value starts, by its path (``JSONLocations``), for messages about fields.
    public static func parseWithLocations(
        _ bytes: [UInt8], nonFiniteWords: Bool = false, maximumDepth: Int = JSONTokenizer.maximumDepth
    ) throws(JSONSyntaxError) -> (value: JSONValue, locations: JSONLocations) {
        var builder = Builder(tokenizer: JSONTokenizer(bytes), nonFiniteWords: nonFiniteWords, maximumDepth: maximumDepth, locations: [:])
        let value = try builder.document()
        return (value, JSONLocations(bytes: bytes, offsets: builder.locations ?? [:]))
    }

    /// Reads the one value at `tokenizer`'s position as a tree and leaves the tokenizer after it:
    /// how a streaming reader (GeoJSON's) keeps a small part of a large document, such as one
    /// feature's `properties`, while skipping or pulling the rest token by token.
    /// - Throws: `JSONTokenizer.Failure` at the offending byte (the tokenizer's position is then
    ///   unspecified).
    public static func read(
        from tokenizer: inout JSONTokenizer, maximumDepth: Int = JSONTokenizer.maximumDepth
    ) throws(JSONTokenizer.Failure) -> JSONValue {
        var builder = Builder(tokenizer: tokenizer, nonFiniteWords: false, maximumDepth: maximumDepth, locations: nil)
        let value = try builder.value(depth: 0, path: "")
        tokenizer.position = builder.tokenizer.position
        return value
    }

    /// A tree builder over the tokenizer, recording value offsets by path when asked.
    struct Builder {
        var tokenizer: JSONTokenizer
        let nonFiniteWords: Bool
        let maximumDepth: Int
        var locations: [String: Int]?

        mutating func document() throws(JSONSyntaxError) -> JSONValue {
            do throws(JSONTokenizer.Failure) {
                let root = try value(depth: 0, path: "")
                if tokenizer.peek() != nil { throw JSONTokenizer.Failure(message: "text after the document", offset: tokenizer.position) }
                return root
            } catch {
                let (line, column) = tokenizer.lineColumn(error.offset)
                throw JSONSyntaxError(message: error.message, offset: error.offset, line: line, column: column)
            }
        }

        mutating func value(depth: Int, path: String) throws(JSONTokenizer.Failure) -> JSONValue {
            let next = tokenizer.peek()
            if locations != nil { locations?[path] = tokenizer.position }
            switch next {
            case UInt8(ascii: "{"):
                guard depth < maximumDepth else { throw JSONTokenizer.Failure(message: "nested too deeply", offset: tokenizer.position) }
                tokenizer.position += 1
                var members: [(String, JSONValue)] = []
                if tokenizer.consume("}") { return .object(members) }
                repeat {
                    if tokenizer.peek() != UInt8(ascii: "\"") {
                        throw JSONTokenizer.Failure(message: "expected a key" + tokenizer.found, offset: tokenizer.position)
                    }
                    let key = try tokenizer.string()
                    try tokenizer.expect(":")
                    members.append((key, try value(depth: depth + 1, path: locations == nil ? "" : JSONPath.member(path, key))))
                } while tokenizer.consume(",")
                try tokenizer.expect("}")
                return .object(members)
            case UInt8(ascii: "["):
                guard depth < maximumDepth else { throw JSONTokenizer.Failure(message: "nested too deeply", offset: tokenizer.position) }
                tokenizer.position += 1
                var items: [JSONValue] = []
                if tokenizer.consume("]") { return .array(items) }
                repeat {
                    items.append(try value(depth: depth + 1, path: locations == nil ? "" : JSONPath.element(path, items.count)))
                } while tokenizer.consume(",")
                try tokenizer.expect("]")
                return .array(items)
            case UInt8(ascii: "\""):
                return .string(try tokenizer.string())
            case UInt8(ascii: "t"):
                try tokenizer.literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try tokenizer.literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try tokenizer.literal("null")
                return .null
            case nil:
                throw JSONTokenizer.Failure(message: "expected a value" + tokenizer.found, offset: tokenizer.position)
            default:
                if nonFiniteWords {
                    if tokenizer.literalIfPresent("NaN") { return .number(.nan, integral: false) }
                    if tokenizer.literalIfPresent("Infinity") { return .number(.infinity, integral: false) }
                    if tokenizer.literalIfPresent("-Infinity") { return .number(-.infinity, integral: false) }
                }
                let n = try tokenizer.number(overflowToInfinity: nonFiniteWords)
                return .number(n.value, integral: n.integral)
            }
        }
    }
}

/// Why a text is not JSON: what, and where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was expected or found.
    public var message: String
    /// 0-based byte offset.
    public var offset: Int
    /// 1-based line and column (columns count bytes).
    public var line: Int, column: Int

    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `not valid JSON at line L, column C: MESSAGE`.
    public var description: String { "not valid JSON at line \(line), column \(column): \(message)" }
}

/// JSON paths as the package's messages write them: `events[3].at`, `preferences.daily_cap`;
/// the document itself is the empty path.
public enum JSONPath {
    /// The path of member `key` of the object at `path`.
    public static func member(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
    /// The path of element `index` of the array at `path`.
    public static func element(_ path: String, _ index: Int) -> String { path + "[\(index)]" }
}

/// Where the values of one document start, by path, as lines and columns.
public struct JSONLocations: Sendable {
    let bytes: [UInt8]
    let offsets: [String: Int]

    /// No locations (every lookup is nil).
    public static let none = JSONLocations(bytes: [], offsets: [:])

    /// The 1-based line and column where the value at `path` starts, nil if unknown.
    public func lineColumn(of path: String) -> (line: Int, column: Int)? {
        guard let offset = offsets[path] else { return nil }
        return JSONTokenizer(bytes).lineColumn(offset)
    }
}
