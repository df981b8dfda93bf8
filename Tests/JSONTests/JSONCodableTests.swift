import Testing
import JSON

/// Every fixed-width integer, `Float` and `Bool`, through synthesized `Codable`.
struct Widths: Codable, Equatable {
    var int8: Int8, int16: Int16, int32: Int32, int64: Int64
    var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64
    var float: Float
    var flag: Bool
}

/// A person, encoded as `super` or under a key of its own.
struct Owner: Codable, Equatable {
    var id: Int
}

/// An incident written with every container of Swift's `Encoder` and `Decoder`: nested keyed
/// and unkeyed containers in keyed and unkeyed ones, explicit nulls, super encoders, and a
/// single-value `Kind`. Decoding records the coding paths its containers report.
struct Incident: Codable, Equatable {
    enum Kind: String, Codable { case fire, flood }
    var id: Int
    var kind: Kind
    var latitude: Double, longitude: Double
    var trail: [[Int]]
    var stops: [String]
    var note: String?
    var owner: Owner
    var base: Owner
    var crew: [Owner]
    /// Filled by decoding only: the coding paths of the containers, and the array sizes seen.
    var seen: [String] = []

    enum CodingKeys: String, CodingKey { case id, kind, position, trail, stops, note, owner, crew }
    enum PositionKeys: String, CodingKey { case lat, lon }
    enum StopKeys: String, CodingKey { case name }

    init(
        id: Int, kind: Kind, latitude: Double, longitude: Double, trail: [[Int]], stops: [String], note: String?, owner: Owner,
        base: Owner, crew: [Owner]
    ) {
        (self.id, self.kind, self.latitude, self.longitude) = (id, kind, latitude, longitude)
        (self.trail, self.stops, self.note, self.owner, self.base, self.crew) = (trail, stops, note, owner, base, crew)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        var position = c.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        try position.encode(latitude, forKey: .lat)
        try position.encode(longitude, forKey: .lon)
        var steps = c.nestedUnkeyedContainer(forKey: .trail)
        for step in trail {
            var inner = steps.nestedUnkeyedContainer()
            for x in step { try inner.encode(x) }
        }
        var list = c.nestedUnkeyedContainer(forKey: .stops)
        for stop in stops {
            var entry = list.nestedContainer(keyedBy: StopKeys.self)
            try entry.encode(stop, forKey: .name)
        }
        try list.encodeNil()  // a trailing null the decoder skips
        if let note { try c.encode(note, forKey: .note) } else { try c.encodeNil(forKey: .note) }
        try owner.encode(to: c.superEncoder(forKey: .owner))
        try base.encode(to: c.superEncoder())
        var members = c.nestedUnkeyedContainer(forKey: .crew)
        for person in crew { try person.encode(to: members.superEncoder()) }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seen.append("userInfo \(decoder.userInfo.count)")
        id = try c.decode(Int.self, forKey: .id)
        kind = try c.decode(Kind.self, forKey: .kind)
        let position = try c.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
        seen.append(Self.path(position.codingPath))
        latitude = try position.decode(Double.self, forKey: .lat)
        longitude = try position.decode(Double.self, forKey: .lon)
        var steps = try c.nestedUnkeyedContainer(forKey: .trail)
        seen.append("trail \(steps.count ?? -1)")
        trail = []
        while !steps.isAtEnd {
            var inner = try steps.nestedUnkeyedContainer()
            seen.append(Self.path(inner.codingPath))
            var step: [Int] = []
            while !inner.isAtEnd { step.append(try inner.decode(Int.self)) }
            trail.append(step)
        }
        var list = try c.nestedUnkeyedContainer(forKey: .stops)
        stops = []
        while !list.isAtEnd {
            if try list.decodeNil() { continue }
            let entry = try list.nestedContainer(keyedBy: StopKeys.self)
            stops.append(try entry.decode(String.self, forKey: .name))
        }
        note = try c.decodeNil(forKey: .note) ? nil : try c.decode(String.self, forKey: .note)
        owner = try Owner(from: c.superDecoder(forKey: .owner))
        base = try Owner(from: c.superDecoder())
        var members = try c.nestedUnkeyedContainer(forKey: .crew)
        crew = []
        while !members.isAtEnd { crew.append(try Owner(from: members.superDecoder())) }
    }

    static func path(_ keys: [any CodingKey]) -> String { keys.map(\.stringValue).joined(separator: ".") }

    static func == (a: Incident, b: Incident) -> Bool {
        (a.id, a.kind, a.latitude, a.longitude) == (b.id, b.kind, b.latitude, b.longitude)
            && (a.trail, a.stops, a.note) == (b.trail, b.stops, b.note) && (a.owner, a.base, a.crew) == (b.owner, b.base, b.crew)
    }
}

/// A value written as JSON `null` through a single-value container, and read back only from `null`.
struct Nothing: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard c.decodeNil() else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "expected null"))
        }
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encodeNil()
    }
}

/// Reports the keys of its object (`allKeys`) that are among its coding keys.
struct KeyLister: Decodable {
    enum CodingKeys: String, CodingKey { case fixesPerSecond, name }
    var keys: [String]
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        keys = c.allKeys.map(\.stringValue).sorted()
    }
}

/// Reads two integers from an array.
struct Pair: Decodable {
    var values: [Int]
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        values = [try c.decode(Int.self), try c.decode(Int.self)]
    }
}

/// Reads three integers from the array in member `pair`.
struct Triple: Decodable {
    var pair: [Int]
    enum CodingKeys: CodingKey { case pair }
    init(from decoder: any Decoder) throws {
        var c = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .pair)
        pair = [try c.decode(Int.self), try c.decode(Int.self), try c.decode(Int.self)]
    }
}

@Suite struct JSONCodableTests {
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, snakeCaseKeys: Bool = false) throws -> T {
        try JSONEncoding.decode(type, from: Array(text.utf8), snakeCaseKeys: snakeCaseKeys)
    }

    /// The coding path (dotted) and message of a `DecodingError`, nil for another outcome.
    static func failure<T: Decodable>(_ type: T.Type, _ text: String, snakeCaseKeys: Bool = false) -> String? {
        do {
            _ = try decode(type, text, snakeCaseKeys: snakeCaseKeys)
            return nil
        } catch DecodingError.typeMismatch(_, let c), DecodingError.keyNotFound(_, let c), DecodingError.valueNotFound(_, let c),
            DecodingError.dataCorrupted(let c)
        {
            return Incident.path(c.codingPath) + ": " + c.debugDescription
        } catch {
            return nil
        }
    }

    static let widths = Widths(
        int8: -128, int16: -32_768, int32: 2_147_483_647, int64: -9_007_199_254_740_991, uint: 42, uint8: 255, uint16: 65_535,
        uint32: 4_294_967_295, uint64: 9_007_199_254_740_991, float: 0.25, flag: true)

    @Test func everyIntegerWidthAndFloatRoundTrip() throws {
        let text = try JSONEncoding.prettyText(Self.widths)
        #expect(
            text == """
                {
                  "flag" : true,
                  "float" : 0.25,
                  "int16" : -32768,
                  "int32" : 2147483647,
                  "int64" : -9007199254740991,
                  "int8" : -128,
                  "uint" : 42,
                  "uint16" : 65535,
                  "uint32" : 4294967295,
                  "uint64" : 9007199254740991,
                  "uint8" : 255
                }
                """)
        #expect(try Self.decode(Widths.self, text) == Self.widths)
    }

    /// A number decodes as an integer only when it is one, exactly, and fits the type (and is
    /// below 2^53, where every integer is exact).
    @Test(arguments: [
        ("int8", "128", "int8: expected an integer that fits Int8, found a number"),
        ("uint8", "-1", "uint8: expected an integer that fits UInt8, found a number"),
        ("int32", "1.5", "int32: expected an integer that fits Int32, found a number"),
        ("uint64", "9007199254740992", "uint64: expected an integer that fits UInt64, found a number"),
        ("int16", "\"7\"", "int16: expected an integer that fits Int16, found a string"),
        ("float", "true", "float: expected a number, found a boolean"),
        ("flag", "1", "flag: expected true or false, found a number")
    ])
    func aNumberThatDoesNotFitIsNamedByItsPath(key: String, value: String, message: String) throws {
        var members: [String] = [
            "\"int8\": 1", "\"int16\": 1", "\"int32\": 1", "\"int64\": 1", "\"uint\": 1", "\"uint8\": 1", "\"uint16\": 1",
            "\"uint32\": 1", "\"uint64\": 1", "\"float\": 1", "\"flag\": false"
        ]
        #expect(try Self.decode(Widths.self, "{" + members.joined(separator: ", ") + "}").uint64 == 1)
        members = members.map { $0.hasPrefix("\"\(key)\":") ? "\"\(key)\": \(value)" : $0 }
        #expect(Self.failure(Widths.self, "{" + members.joined(separator: ", ") + "}") == message)
    }

    static let incident = Incident(
        id: 9, kind: .flood, latitude: 60.17, longitude: 24.94, trail: [[1, 2], [], [3]], stops: ["gate", "pier"], note: nil,
        owner: Owner(id: 4), base: Owner(id: 5), crew: [Owner(id: 6), Owner(id: 7)])

    @Test func nestedContainersNullsAndSuperEncodersRoundTrip() throws {
        let text = try JSONEncoding.prettyText(Self.incident)
        #expect(
            text == """
                {
                  "crew" : [
                    {
                      "id" : 6
                    },
                    {
                      "id" : 7
                    }
                  ],
                  "id" : 9,
                  "kind" : "flood",
                  "note" : null,
                  "owner" : {
                    "id" : 4
                  },
                  "position" : {
                    "lat" : 60.17,
                    "lon" : 24.94
                  },
                  "stops" : [
                    {
                      "name" : "gate"
                    },
                    {
                      "name" : "pier"
                    },
                    null
                  ],
                  "super" : {
                    "id" : 5
                  },
                  "trail" : [
                    [
                      1,
                      2
                    ],
                    [

                    ],
                    [
                      3
                    ]
                  ]
                }
                """)
        let back = try Self.decode(Incident.self, text)
        #expect(back == Self.incident)
        #expect(back.seen == ["userInfo 0", "position", "trail 3", "trail.0", "trail.1", "trail.2"])
        var noted = Self.incident
        noted.note = "north gate"
        #expect(try Self.decode(Incident.self, JSONEncoding.prettyText(noted)).note == "north gate")
    }

    /// Each container refuses the wrong kind of value, and a missing member is named.
    @Test func containerMismatchesNameThePath() throws {
        let good = try JSONEncoding.prettyText(Self.incident)
        func with(_ old: String, _ new: String) -> String {
            let replaced = good.replacing(old, with: new)
            #expect(replaced != good, "\(old) is not in the text")
            return replaced
        }
        #expect(Self.failure(Incident.self, "[]") == ": expected an object, found an array")
        #expect(Self.failure(Incident.self, with("\"id\" : 9,", "")) == ": missing id")
        #expect(Self.failure(Incident.self, with("\"super\" :", "\"base\" :")) == ": missing super")
        #expect(
            Self.failure(Incident.self, with("\"kind\" : \"flood\"", "\"kind\" : \"storm\""))
                == "kind: Cannot initialize Kind from invalid String value storm")
        #expect(Self.failure(Incident.self, with("\"trail\"", "\"trail\" : {}, \"old_trail\"")) == "trail: expected an array, found an object")
        #expect(Self.failure(Incident.self, with("\"position\"", "\"position\" : 5, \"place\"")) == "position: expected an object, found a number")
        #expect(Self.failure(Incident.self, with("\"stops\" : [\n    {", "\"stops\" : [\n    [],{")) == "stops.0: expected an object, found an array")
        #expect(Self.failure(Incident.self, with("[\n      1,", "[\n      true,")) == "trail.0.0: expected an integer that fits Int, found a boolean")
        #expect(Self.failure(Owner.self, "{\"id\": null}") == "id: expected an integer that fits Int, found null")
        #expect(Self.failure(Int.self, "\"7\"") == ": expected an integer that fits Int, found a string")
        #expect(Self.failure(Pair.self, "{}") == ": expected an array, found an object")
        #expect(try Self.decode(Pair.self, "[1, 2]").values == [1, 2])
        #expect(Self.failure(Triple.self, "{\"pair\": [1, 2]}") == "pair: the array has no more elements")
        // A missing position as a whole: its nested container names it.
        #expect(Self.failure(Incident.self, with("\"position\"", "\"place\"")) == ": missing position")
        #expect(Self.failure(Incident.self, with("\"trail\"", "\"path\"")) == ": missing trail")
        #expect(Self.failure(Incident.self, with("\"owner\"", "\"boss\"")) == ": missing owner")
    }

    @Test func aSingleValueContainerWritesAndReadsNull() throws {
        #expect(try JSONEncoding.prettyText(Nothing()) == "null")
        #expect(try JSONEncoding.prettyText([Nothing(), Nothing()]) == "[\n  null,\n  null\n]")
        #expect(try Self.decode(Nothing.self, "null") == Nothing())
        #expect(Self.failure(Nothing.self, "0") == ": expected null")
    }

    /// With snake_case keys, `allKeys` maps the object's members back to the coding keys; members
    /// that are none of them are left out.
    @Test func allKeysMapSnakeCaseMembersBack() throws {
        let text = "{\"fixes_per_second\": 1, \"name\": \"x\", \"other_key\": 2, \"_\": 3, \"\": 4}"
        #expect(try Self.decode(KeyLister.self, text, snakeCaseKeys: true).keys == ["fixesPerSecond", "name"])
        #expect(try Self.decode(KeyLister.self, "{\"fixesPerSecond\": 1}").keys == ["fixesPerSecond"])
    }

    /// A number that is not finite has no JSON form: an `EncodingError` naming its path.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteNumberIsRefusedWithItsPath(value: Double) throws {
        struct Rate: Encodable {
            var perSecond: Double
            var asFloat: [Float]
        }
        for rate in [Rate(perSecond: value, asFloat: []), Rate(perSecond: 1, asFloat: [0, Float(value)])] {
            do {
                _ = try JSONEncoding.prettyText(rate, snakeCaseKeys: true)
                Issue.record("\(value) was encoded")
            } catch EncodingError.invalidValue(_, let context) {
                let expected = rate.asFloat.isEmpty ? "perSecond" : "asFloat.1"
                #expect(Incident.path(context.codingPath) == expected)
                #expect(context.debugDescription == "\(value) has no JSON form")
            }
        }
    }

    @Test func anObjectWrittenByHandIsPrettyPrintedAndKnowsWhetherItIsEmpty() {
        var o = JSONObject()
        #expect(o.isEmpty && o.text == "{}" && o.prettyText() == "{\n\n}")
        o.set("zone", "north")
        o.set("count", 2)
        var inner = JSONObject()
        inner.set("ok", true)
        o.set("inner", object: inner)
        o.set("list", array: ["1", JSONObject.string("a")])
        #expect(!o.isEmpty)
        #expect(
            o.prettyText()
                == "{\n  \"zone\" : \"north\",\n  \"count\" : 2,\n  \"inner\" : {\n    \"ok\" : true\n  },\n  \"list\" : [\n    1,\n    \"a\"\n  ]\n}"
        )
        #expect(o.prettyText(sortedKeys: true).hasPrefix("{\n  \"count\" : 2,\n  \"inner\" : {"))
    }
}
