import Testing
@testable import JSON

@Suite struct JSONValueTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8), nonFiniteWords: true) }

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

    @Test func refusesDeepNesting() throws {
        let deep = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep, maximumDepth: 64) }
        _ = try JSONValue.parse(deep)
        let deeper = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deeper) }
        var tokenizer = JSONTokenizer(deeper)
        #expect(throws: JSONTokenizer.Failure.self) { try tokenizer.skipValue() }
    }

    @Test func nonFiniteWordsOnlyWhenAsked() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array("NaN".utf8)) }
        #expect(try parse("[Infinity]") == .array([.number(.infinity, integral: false)]))
    }

    /// With the words, a number past the doubles is infinity of its sign (a reader then names
    /// its field); without them it stays a syntax error.
    @Test func numbersPastTheDoublesAreInfinityOnlyWhenAsked() throws {
        let huge = "1" + String(repeating: "0", count: 400)
        #expect(
            try parse("[1e400, -1e999, \(huge)]")
                == .array([
                    .number(.infinity, integral: false), .number(-.infinity, integral: false), .number(.infinity, integral: true)
                ]))
        #expect(try parse("1e-400") == .number(0, integral: false))
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array("1e400".utf8)) }
    }

    /// Syntax errors name the line and column of the offending byte.
    @Test func syntaxErrorsNameLineAndColumn() {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        do {
            _ = try JSONValue.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == 3 && error.column == 8, "\(error)")
            #expect(error.description == "not valid JSON at line 3, column 8: expected a value, found 't'")
        }
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }  // not UTF-8
    }

    /// Field errors name the path, and the line and column where the value starts.
    @Test func readerErrorsNamePathLineAndColumn() throws {
        let text = "{\"events\": [\n  {\"at\": 1},\n  {\"at\": \"x\"}\n], \"n\": 2.5}"
        let root = try JSONReader(parsing: Array(text.utf8)).object()
        let events = try root.array("events")
        #expect(try events[0].object().number("at") == 1)
        #expect(throws: JSONPathError(path: "events[1].at", message: "expected a number, found a string", line: 3, column: 10)) {
            try events[1].object().number("at")
        }
        #expect(throws: JSONPathError(path: "missing", message: "missing (a string)")) { try root.string("missing") }
        #expect(throws: JSONPathError(path: "n", message: "expected an integer, found a number", line: 4, column: 9)) {
            try root.integer("n")
        }
        #expect(throws: JSONPathError(path: "n", message: "unknown key (expected one of events)", line: 4, column: 9)) {
            try root.only(["events"])
        }
        let described = JSONPathError(path: "events[1].at", message: "expected a number, found a string", line: 3, column: 10)
        #expect(described.description == "events[1].at: expected a number, found a string (line 3, column 10)")
    }
}
