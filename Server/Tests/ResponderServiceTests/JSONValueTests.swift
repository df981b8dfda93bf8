import Testing
@testable import ResponderService

@Suite struct JSONValueTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func readsEveryKindAndEscape() throws {
        let v = try parse(#" {"a": [1, -2.5e3, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "o": {}} "#)
        #expect(v["a"] == .array([.number(1, integral: true), .number(-2500, integral: false), .bool(true), .bool(false), .null]))
        #expect(v["s"] == .string("x\"\\/\u{08}\u{0C}\n\r\té😀"))
        #expect(v["o"] == .object([]))
        #expect(try parse("NaN") == .number(.nan, integral: false))
        #expect(try parse("-Infinity") == .number(-.infinity, integral: false))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\ud800\"", "\"a\u{01}\"", "tru", "[1] 2", "-"])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try parse(text) }
    }

    @Test func refusesDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { try parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) }
    }
}
