import NumberFormatting
import Testing
@testable import Drawing

@Suite struct SVGDocumentTests {
    @Test func escapesTheFiveSpecialCharactersAndForbiddenControls() {
        #expect(XMLText.escaped("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(XMLText.escaped("tab\there\nline") == "tab\there\nline")
        #expect(XMLText.escaped("nul\u{0}bell\u{7}") == "nul\u{FFFD}bell\u{FFFD}")
        #expect(XMLText.escaped("Kärkkäinen 北京") == "Kärkkäinen 北京")
        #expect(XMLText.escaped("") == "")
    }

    @Test func numbersAreShortAndNeverNegativeZero() {
        #expect(SVGNumber.format(2.5) == "2.5")
        #expect(SVGNumber.format(3) == "3")
        #expect(SVGNumber.format(-0.001) == "0")
        #expect(SVGNumber.format(-0.0) == "0")
        #expect(SVGNumber.format(-12.25) == "-12.25")
        #expect(SVGNumber.format(1.23456, decimals: 3) == "1.235")
        #expect(SVGNumber.format(1e20) == "100000000000000000000")
        #expect(SVGNumber.format(0.125) == "0.12")  // an exact binary tie: to even, as printf
        #expect(SVGNumber.format(0.375) == "0.38")
    }

    @Test func hostileTextStillGivesWellFormedXML() throws {
        var svg = SVGDocument(width: 100, height: 50, title: "fences <&> \"quoted\" \u{1}")
        svg.open("g", ["class": "a&b", "data-name": "x\"y<z"])
        svg.element("text", ["x": "1", "y": "2"], text: "</svg><script>alert(1)</script>")
        svg.path([(0, 0), (10, 10), (20, 0)], closed: true, ["fill": "none"])
        svg.path([(0, 0)], closed: false)  // one point: nothing
        #expect(svg.openCount == 1)
        let xml = ParsedXML(svg.fileText)
        #expect(xml.isWellFormed, "\(xml.error ?? "")")
        #expect(xml.all("title").first?.text == "fences <&> \"quoted\" \u{FFFD}")
        #expect(xml.all("text").first?.text == "</svg><script>alert(1)</script>")
        #expect(xml.all("script").isEmpty)
        #expect(xml.all("path").count == 1)
        #expect(xml.all("path").first?.attributes["d"] == "M0 0 L10 10 L20 0 Z")
        #expect(xml.all("g").first?.attributes["data-name"] == "x\"y<z")
        #expect(xml.all("svg").first?.attributes["viewBox"] == "0 0 100 50")
    }

    @Test func anEmptyDocumentIsWellFormed() {
        let svg = SVGDocument(width: 1, height: 1, title: "")
        let xml = ParsedXML(svg.fileText)
        #expect(xml.isWellFormed)
        #expect(xml.elements.map(\.name) == ["svg", "title"])
    }

    @Test func labelNumbers() {
        #expect(DecimalFormatting.grouped(1_234_567.891, 1) == "1,234,567.9")
        #expect(DecimalFormatting.grouped(-0.004, 2) == "-0.00")
        #expect(DecimalFormatting.grouped(-1.5, 0) == "-2")
        #expect(DecimalFormatting.grouped(-2.5, 0) == "-2")
        #expect(DecimalFormatting.grouped(999.5, 0) == "1,000")
        #expect(DecimalFormatting.grouped(.nan, 1) == "nan")
        #expect(DecimalFormatting.grouped(-.infinity, 1) == "-inf")
        #expect(NumberText.short(3000) == "3k")
        #expect(NumberText.short(1_500_000) == "1.5M")
        #expect(NumberText.short(0.25) == "0.25")
        #expect(NumberText.short(0.001) == "0.001")
        #expect(NumberText.short(0) == "0")
        #expect(NumberText.short(27_900_000) == "27.9M")
        #expect(NumberText.meters(500) == "500 m")
        #expect(NumberText.meters(2000) == "2 km")
    }
}
