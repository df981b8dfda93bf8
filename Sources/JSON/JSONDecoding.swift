/// The `Decoder` of ``JSONEncoding/decode(_:from:snakeCaseKeys:)``: reads a ``JSONValue``.
struct ValueDecoder: Decoder {
    let value: JSONValue
    let snakeCaseKeys: Bool
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kind)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object") }
        var byKey: [String: JSONValue] = [:]
        for (k, v) in members { byKey[k] = v }
        return KeyedDecodingContainer(KeyedReader<Key>(decoder: self, members: byKey))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array") }
        return UnkeyedReader(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(decoder: self) }

    func child(_ value: JSONValue, _ key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, snakeCaseKeys: snakeCaseKeys, codingPath: codingPath + [key])
    }

    /// `T` from this decoder's value: scalars directly, everything else through `T(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch("a string") }
            return s as! T
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch("true or false") }
            return b as! T
        case is Double.Type:
            return try number() as! T
        case is Float.Type:
            return Float(try number()) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int8.Type: return try integer(Int8.self) as! T
        case is Int16.Type: return try integer(Int16.self) as! T
        case is Int32.Type: return try integer(Int32.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is UInt.Type: return try integer(UInt.self) as! T
        case is UInt8.Type: return try integer(UInt8.self) as! T
        case is UInt16.Type: return try integer(UInt16.self) as! T
        case is UInt32.Type: return try integer(UInt32.self) as! T
        case is UInt64.Type: return try integer(UInt64.self) as! T
        default: return try T(from: self)
        }
    }

    func number() throws -> Double {
        guard case .number(let n, _) = value else { throw mismatch("a number") }
        return n
    }

    /// An integer that the number represents exactly (below 2^53 in magnitude).
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let n, _) = value, abs(n) < 9_007_199_254_740_992, let i = I(exactly: n) else {
            throw mismatch("an integer that fits \(I.self)")
        }
        return i
    }
}

struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let members: [String: JSONValue]
    var codingPath: [any CodingKey] { decoder.codingPath }

    func name(_ key: Key) -> String { decoder.snakeCaseKeys ? JSONEncoding.snakeCase(key.stringValue) : key.stringValue }

    var allKeys: [Key] {
        members.keys.compactMap { json in Key(stringValue: json) ?? Key(stringValue: camelCase(json)) }
    }

    func camelCase(_ snake: String) -> String {
        let words = snake.split(separator: "_")
        guard let first = words.first else { return snake }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    func contains(_ key: Key) -> Bool { members[name(key)] != nil }

    func value(_ key: Key) throws -> JSONValue {
        guard let v = members[name(key)] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing \(name(key))"))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.child(try value(key), key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(try value(key), key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(try value(key), key).unkeyedContainer()
    }

    /// The decoder of member `super`, as Foundation's `JSONDecoder` names it (what
    /// `superEncoder()` writes).
    func superDecoder() throws -> any Decoder {
        guard let v = members[PlainKey.super.stringValue] else {
            throw DecodingError.keyNotFound(PlainKey.super, .init(codingPath: codingPath, debugDescription: "missing super"))
        }
        return decoder.child(v, PlainKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try value(key), key) }
}

struct UnkeyedReader: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let items: [JSONValue]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], PlainKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleReader: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
