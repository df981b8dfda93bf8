import NumberFormatting

/// `Encodable` values written with ``JSONObject`` and `Decodable` values read from
/// ``JSONValue``: the package's JSON for `Codable` types, with no Foundation.
///
/// Keys are the coding keys, or with `snakeCaseKeys` their snake_case form (`fixesPerSecond`
/// is `fixes_per_second`, `latencyP50Seconds` is `latency_p50_seconds`, as Foundation's
/// `.convertToSnakeCase`). A nil optional is left out (synthesized `Codable` uses
/// `encodeIfPresent`). Numbers are written as ``JSONObject/number(_:decimals:)`` writes them
/// (shortest round-trip form); a non-finite `Double` is an `EncodingError`, as with
/// `JSONEncoder`. Decoding errors are `DecodingError`s whose context names the JSON path.
public enum JSONEncoding {
    /// `value` as pretty-printed JSON text, keys sorted (no final line break).
    /// - Throws: `EncodingError.invalidValue` for a non-finite number.
    public static func prettyText(_ value: some Encodable, snakeCaseKeys: Bool = false) throws -> String {
        let root = EncodedNode()
        try ValueEncoder(snakeCaseKeys: snakeCaseKeys, codingPath: [], node: root).encode(value, into: root, key: nil)
        var out = ""
        root.value.write(to: &out, indent: "", sortedKeys: true)
        return out
    }

    /// A `T` read from the document in `bytes`.
    /// - Throws: ``JSONSyntaxError`` when `bytes` is not JSON; `DecodingError` naming the path
    ///   when it does not describe a `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], snakeCaseKeys: Bool = false) throws -> T {
        let value = try JSONValue.parse(bytes)
        return try T(from: ValueDecoder(value: value, snakeCaseKeys: snakeCaseKeys, codingPath: []))
    }

    /// `camelCase` as `camel_case`; runs of capitals are one word (`POIs` is `pois`,
    /// `URLValue` is `url_value`).
    public static func snakeCase(_ key: String) -> String {
        let chars = Array(key)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0 {
                let previous = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if !previous.isUppercase || nextIsLower { out += "_" }
            }
            out += c.lowercased()
        }
        return out
    }
}

/// Where an encoder's output goes: a slot filled by a value, an object or an array.
final class EncodedNode {
    enum Content {
        case value(JSONObject.Value)
        case object([(String, EncodedNode)])
        case array([EncodedNode])
    }
    var content = Content.value(.encoded("null"))

    var value: JSONObject.Value {
        switch content {
        case .value(let v): return v
        case .array(let items): return .array(items.map(\.value))
        case .object(let members):
            var o = JSONObject()
            for (key, node) in members { o.set(key, value: node.value) }
            return .object(o)
        }
    }

    func append(_ key: String, _ node: EncodedNode) {
        if case .object(var members) = content {
            members.append((key, node))
            content = .object(members)
        } else {
            content = .object([(key, node)])
        }
    }

    func append(_ node: EncodedNode) {
        if case .array(var items) = content {
            items.append(node)
            content = .array(items)
        } else {
            content = .array([node])
        }
    }
}

struct ValueEncoder: Encoder {
    let snakeCaseKeys: Bool
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Where this encoder's value goes.
    let node: EncodedNode

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(encoder: self, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self, node: node) }

    func key(_ key: any CodingKey) -> String { snakeCaseKeys ? JSONEncoding.snakeCase(key.stringValue) : key.stringValue }

    func child(_ key: any CodingKey, _ node: EncodedNode) -> ValueEncoder {
        ValueEncoder(snakeCaseKeys: snakeCaseKeys, codingPath: codingPath + [key], node: node)
    }

    /// The encoded form of a scalar, or nil when `value` is not one.
    static func scalar(_ value: any Encodable, _ path: [any CodingKey]) throws -> JSONObject.Value? {
        switch value {
        case let v as String: return .encoded(JSONObject.string(v))
        case let v as Bool: return .encoded(v ? "true" : "false")
        case let v as Double: return try number(v, path)
        case let v as Float: return try number(Double(v), path)
        case let v as Int: return .encoded(String(v))
        case let v as Int8: return .encoded(String(v))
        case let v as Int16: return .encoded(String(v))
        case let v as Int32: return .encoded(String(v))
        case let v as Int64: return .encoded(String(v))
        case let v as UInt: return .encoded(String(v))
        case let v as UInt8: return .encoded(String(v))
        case let v as UInt16: return .encoded(String(v))
        case let v as UInt32: return .encoded(String(v))
        case let v as UInt64: return .encoded(String(v))
        default: return nil
        }
    }

    static func number(_ v: Double, _ path: [any CodingKey]) throws -> JSONObject.Value {
        guard v.isFinite else {
            throw EncodingError.invalidValue(v, .init(codingPath: path, debugDescription: "\(v) has no JSON form"))
        }
        return .encoded(JSONObject.number(v))
    }

    func encode(_ value: some Encodable, into node: EncodedNode, key: (any CodingKey)?) throws {
        let path = key.map { codingPath + [$0] } ?? codingPath
        if let s = try Self.scalar(value, path) {
            node.content = .value(s)
        } else {
            try value.encode(to: ValueEncoder(snakeCaseKeys: snakeCaseKeys, codingPath: path, node: node))
        }
    }
}

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil(forKey key: Key) throws {
        let child = EncodedNode()
        node.append(encoder.key(key), child)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = EncodedNode()
        try encoder.encode(value, into: child, key: key)
        node.append(encoder.key(key), child)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedNode()
        node.append(encoder.key(key), child)
        return encoder.child(key, child).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodedNode()
        node.append(encoder.key(key), child)
        return encoder.child(key, child).unkeyedContainer()
    }

    /// The encoder of member `super`, as Foundation's `JSONEncoder` names it.
    func superEncoder() -> any Encoder { superEncoder(PlainKey.super) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key) }

    private func superEncoder(_ key: any CodingKey) -> any Encoder {
        let child = EncodedNode()
        node.append(encoder.key(key), child)
        return encoder.child(key, child)
    }
}

/// A key that is none of a type's coding keys: an array index in a coding path, or `super`.
struct PlainKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) { (stringValue, intValue) = (String(index), index) }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.init(intValue) }
    /// The member that `superEncoder()` and `superDecoder()` use.
    static let `super` = PlainKey(stringValue: "super")
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.append(EncodedNode()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = EncodedNode()
        try encoder.encode(value, into: child, key: PlainKey(count))
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodedNode(), key = PlainKey(count)
        node.append(child)
        return encoder.child(key, child).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodedNode(), key = PlainKey(count)
        node.append(child)
        return encoder.child(key, child).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodedNode(), key = PlainKey(count)
        node.append(child)
        return encoder.child(key, child)
    }
}

struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil() throws { node.content = .value(.encoded("null")) }

    func encode<T: Encodable>(_ value: T) throws { try encoder.encode(value, into: node, key: nil) }
}
