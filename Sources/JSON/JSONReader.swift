/// A field that cannot be used: its JSON path, what is wrong, and where it starts in the text
/// when that is known.
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `events[3].at`; empty for the document itself.
    public var path: String
    /// What was expected or found.
    public var message: String
    /// 1-based line and column where the value starts (nil for a missing field or when the
    /// reader was built without locations).
    public var line: Int?, column: Int?

    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `PATH: MESSAGE (line L, column C)`; without the path for the document itself, without
    /// the place when it is unknown.
    public var description: String {
        let place = line.map { " (line \($0), column \(column ?? 0))" } ?? ""
        return (path.isEmpty ? message : "\(path): \(message)") + place
    }
}

/// A value of a parsed document with its path, read with errors that name the path, line and
/// column (``JSONPathError``).
///
/// ```swift
/// let root = try JSONReader(parsing: bytes)
/// let events = try root.object().array("events")
/// let at = try events[3].object().number("at")  // or: events[3].at: expected a number, found a string (line 12, column 9)
/// ```
public struct JSONReader: Sendable {
    /// The value.
    public let value: JSONValue
    /// Its path in the document.
    public let path: String
    /// Where the document's values start.
    public let locations: JSONLocations

    public init(_ value: JSONValue, path: String = "", locations: JSONLocations = .none) {
        self.value = value
        self.path = path
        self.locations = locations
    }

    /// The root of the document in `bytes`, with locations for messages.
    /// - Throws: ``JSONSyntaxError`` when `bytes` is not JSON.
    public init(parsing bytes: [UInt8], nonFiniteWords: Bool = false) throws(JSONSyntaxError) {
        let parsed = try JSONValue.parseWithLocations(bytes, nonFiniteWords: nonFiniteWords)
        self.init(parsed.value, locations: parsed.locations)
    }

    /// An error about this value.
    public func error(_ message: String) -> JSONPathError { Self.error(at: path, message, locations) }

    static func error(at path: String, _ message: String, _ locations: JSONLocations) -> JSONPathError {
        let place = locations.lineColumn(of: path)
        return JSONPathError(path: path, message: message, line: place?.line, column: place?.column)
    }

    /// The value as an object.
    public func object() throws(JSONPathError) -> JSONObjectReader {
        guard case .object(let members) = value else { throw error("expected an object, found \(value.kind)") }
        return JSONObjectReader(members: members, path: path, locations: locations)
    }

    /// The value's elements.
    public func array() throws(JSONPathError) -> [JSONReader] {
        guard case .array(let items) = value else { throw error("expected an array, found \(value.kind)") }
        return items.enumerated().map { JSONReader($1, path: JSONPath.element(path, $0), locations: locations) }
    }

    /// The value as a string.
    public func string() throws(JSONPathError) -> String {
        guard case .string(let s) = value else { throw error("expected a string, found \(value.kind)") }
        return s
    }

    /// The value as a finite number.
    public func number() throws(JSONPathError) -> Double {
        guard case .number(let n, _) = value, n.isFinite else { throw error("expected a number, found \(value.kind)") }
        return n
    }

    /// The value as an integer (a number with an integral value below 2^53 in magnitude).
    public func integer() throws(JSONPathError) -> Int {
        guard case .number(let n, _) = value, n == n.rounded(), abs(n) < 9_007_199_254_740_992 else {
            throw error("expected an integer, found \(value.kind)")
        }
        return Int(n)
    }

    /// The value as a boolean.
    public func bool() throws(JSONPathError) -> Bool {
        guard case .bool(let b) = value else { throw error("expected true or false, found \(value.kind)") }
        return b
    }
}

/// An object of a parsed document with its path: fields read by name, each error naming the
/// field's path (and line and column when known).
public struct JSONObjectReader: Sendable {
    /// The members in document order.
    public let members: [(String, JSONValue)]
    /// The object's path.
    public let path: String
    let locations: JSONLocations

    /// The member `name` (the last one if repeated), nil when absent.
    public func field(_ name: String) -> JSONReader? {
        guard let v = members.last(where: { $0.0 == name })?.1 else { return nil }
        return JSONReader(v, path: JSONPath.member(path, name), locations: locations)
    }

    /// Whether the member `name` is present.
    public func has(_ name: String) -> Bool { members.contains { $0.0 == name } }

    /// An error about the field `name` (present or not).
    public func error(_ name: String, _ message: String) -> JSONPathError {
        JSONReader.error(at: JSONPath.member(path, name), message, locations)
    }

    /// An error about the object itself.
    public func error(_ message: String) -> JSONPathError { JSONReader.error(at: path, message, locations) }

    /// Fails on the first key (in sorted order) not in `allowed`.
    public func only(_ allowed: Set<String>) throws(JSONPathError) {
        if let extra = members.map(\.0).sorted().first(where: { !allowed.contains($0) }) {
            throw error(extra, "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// The field `name`, which must be present (`missing (WHAT)` otherwise).
    public func required(_ name: String, _ what: String) throws(JSONPathError) -> JSONReader {
        guard let f = field(name) else { throw error(name, "missing (\(what))") }
        return f
    }

    public func string(_ name: String) throws(JSONPathError) -> String { try required(name, "a string").string() }
    public func optionalString(_ name: String) throws(JSONPathError) -> String? { try field(name)?.string() }
    public func number(_ name: String) throws(JSONPathError) -> Double { try required(name, "a number").number() }
    public func optionalNumber(_ name: String) throws(JSONPathError) -> Double? { try field(name)?.number() }
    public func integer(_ name: String) throws(JSONPathError) -> Int { try required(name, "an integer").integer() }
    public func bool(_ name: String) throws(JSONPathError) -> Bool { try required(name, "true or false").bool() }
    public func optionalBool(_ name: String) throws(JSONPathError) -> Bool? { try field(name)?.bool() }
    public func object(_ name: String) throws(JSONPathError) -> JSONObjectReader { try required(name, "an object").object() }
    public func array(_ name: String) throws(JSONPathError) -> [JSONReader] { try required(name, "an array").array() }

    /// A number >= 0, nil when absent.
    public func optionalNonNegative(_ name: String) throws(JSONPathError) -> Double? {
        guard let n = try optionalNumber(name) else { return nil }
        guard n >= 0 else { throw error(name, "expected a number >= 0, found \(n)") }
        return n
    }
}
