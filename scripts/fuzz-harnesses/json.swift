// libFuzzer harness of the JSON module (compiled into module JSON by scripts/fuzz-libs).
// Any bytes: parse (with and without locations), skip with the tokenizer, walk with JSONReader,
// decode into a Codable, and write what parsed and parse it again (the same value).

#if canImport(Glibc)
import Glibc
#endif

/// A failed oracle: the message on stderr (an -O build drops precondition's), then a trap.
struct FuzzRecord: Codable {
    var name: String
    var count: Int
    var small: Int8?
    var unsigned: UInt64?
    var ratio: Double
    var flag: Bool?
    var items: [Int32]?
    var nested: [String: [Double]]?
    var child: Child?
    struct Child: Codable { var id: UInt16; var tags: [String] }
}

func write(_ v: JSONValue, _ out: inout String) {
    switch v {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n, let integral):
        if !n.isFinite { out += "null"; return }
        if integral && n == n.rounded() && abs(n) < 1e15 {
            out += String(Int64(n))
        } else {
            let text = JSONObject.number(n)
            out += text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        }
    case .string(let s): out += JSONObject.string(s)
    case .array(let items):
        out += "["
        for (i, x) in items.enumerated() { if i > 0 { out += "," }; write(x, &out) }
        out += "]"
    case .object(let members):
        out += "{"
        for (i, (k, x)) in members.enumerated() { if i > 0 { out += "," }; out += JSONObject.string(k) + ":"; write(x, &out) }
        out += "}"
    }
}

func walk(_ r: JSONReader, _ budget: inout Int) {
    budget -= 1
    guard budget > 0 else { return }
    _ = try? r.string(); _ = try? r.number(); _ = try? r.integer(); _ = try? r.bool()
    if let items = try? r.array() { for x in items { walk(x, &budget) } }
    if let o = try? r.object() {
        _ = try? o.only(["a", "b"])
        _ = try? o.optionalNonNegative("a")
        _ = try? o.integer("count")
        for name in ["a", "b", "count", "name", ""] { if let f = o.field(name) { walk(f, &budget) } }
    }
    _ = r.error("x").description
}

func stripNonFinite(_ v: JSONValue) -> JSONValue {
    switch v {
    case .number(let n, _) where !n.isFinite: return .null
    case .number(let n, let integral): return .number(n, integral: integral && n == n.rounded() && abs(n) < 1e15)
    case .array(let items): return .array(items.map(stripNonFinite))
    case .object(let members): return .object(members.map { ($0.0, stripNonFinite($0.1)) })
    default: return v
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed = try? JSONValue.parse(bytes)
    let located = try? JSONValue.parseWithLocations(bytes, nonFiniteWords: true)
    do {
        _ = try JSONValue.parse(bytes, maximumDepth: 3)
    } catch {
        check(error.line >= 1 && error.column >= 1 && error.offset >= 0 && error.offset <= bytes.count, "bad place \(error)")
    }
    // The tokenizer's skip agrees with the tree parser on where the first value ends.
    var t = JSONTokenizer(bytes)
    let skipped = (try? t.skipValue()) != nil
    var t2 = JSONTokenizer(bytes)
    let read = try? JSONValue.read(from: &t2)
    check(skipped == (read != nil), "skipValue and read disagree")
    if read != nil { check(t.position == t2.position, "skipValue and read end apart") }
    if let parsed {
        check(located != nil, "parsed without locations but not with")
        var text = ""
        write(parsed, &text)
        let again = try! JSONValue.parse(Array(text.utf8))
        check(again == stripNonFinite(parsed), "written text reads differently: \(text)")
        var budget = 2000
        walk(JSONReader(parsed), &budget)
        _ = try? JSONEncoding.decode(FuzzRecord.self, from: bytes)
        _ = try? JSONEncoding.decode(FuzzRecord.self, from: bytes, snakeCaseKeys: true)
        _ = try? JSONEncoding.decode([String: Int].self, from: bytes)
        _ = try? JSONEncoding.decode([UInt8].self, from: bytes)
    }
    if let located { _ = located.locations.lineColumn(of: "a"); _ = located.locations.lineColumn(of: "") }
    if let r = try? JSONReader(parsing: bytes, nonFiniteWords: true) { var budget = 2000; walk(r, &budget) }
    return 0
}
