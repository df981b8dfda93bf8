import JSON
import Testing

@Suite struct JSONObjectTests {
    @Test func stringsAreEscapedPerRFC8259() {
        #expect(JSONObject.string("plain") == #""plain""#)
        #expect(JSONObject.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONObject.string("\n\r\t") == #""\n\r\t""#)
        #expect(JSONObject.string("\u{08}\u{0C}") == #""\b\f""#)
        #expect(JSONObject.string("\u{00}\u{01}\u{1B}\u{1F}") == #""\u0000\u0001\u001b\u001f""#)
        #expect(JSONObject.string("\u{7F} é ✓ 🌍") == "\"\u{7F} é ✓ 🌍\"")  // only controls below U+0020 are escaped
        #expect(JSONObject.string("") == #""""#)
    }

    @Test func everyControlCharacterIsEscaped() {
        for value in UInt32(0)..<0x20 {
            let text = JSONObject.string(String(Unicode.Scalar(value)!))
            #expect(text.hasPrefix("\"\\"), "U+\(value)")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "U+\(value)")
        }
    }

    @Test func numbersAndNonFiniteValues() {
        var o = JSONObject()
        o.set("n", 42)
        o.set("neg", -7)
        o.set("fixed", 0.1234567)
        o.set("rounded", 2.5, decimals: 0)
        o.set("short", 0.1, decimals: nil)
        o.set("nan", Double.nan)
        o.set("inf", Double.infinity, decimals: 1)
        o.set("ninf", -Double.infinity, decimals: nil)
        o.set("yes", true)
        o.set("text", "x")
        o.setNull("none")
        #expect(
            o.text
                == #"{"n": 42, "neg": -7, "fixed": 0.123457, "rounded": 2, "short": 0.1, "nan": null, "inf": null, "ninf": null, "yes": true, "text": "x", "none": null}"#
        )
    }

    @Test func nestingAndOrder() {
        var inner = JSONObject()
        inner.set("b", 1)
        inner.set("a", 2)
        var o = JSONObject()
        o.set("z\"key", object: inner)
        o.set("list", array: [JSONObject.number(1.5), JSONObject.string("s"), JSONObject.number(.nan)])
        o.set("empty", array: [])
        #expect(o.text == #"{"z\"key": {"b": 1, "a": 2}, "list": [1.5, "s", null], "empty": []}"#)
        #expect(JSONObject().text == "{}")
    }
}
