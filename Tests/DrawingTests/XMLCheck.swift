import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses XML text with Foundation's `XMLParser` (allowed in tests) and keeps every element with
/// its attributes, so tests can check that a drawing is well-formed and find its parts.
struct ParsedXML {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
        var depth: Int
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }

    var elements: [Element] = []
    var error: String?

    init(_ text: String) {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        if !parser.parse() {
            error = parser.parserError.map { "\($0)" } ?? "unknown XML error"
        }
        elements = delegate.elements
    }

    var isWellFormed: Bool { error == nil }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
    func withClass(_ c: String) -> [Element] { elements.filter { $0.classes.contains(c) } }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var stack: [Int] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(Element(name: name, attributes: attributes, text: "", depth: stack.count))
            stack.append(elements.count - 1)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let i = stack.last { elements[i].text += string }
        }
    }
}

/// The points of an SVG path's `d` attribute written by `SVGDocument` (`M x y L x y ... Z`), one
/// list per subpath.
func subpaths(_ d: String) -> [[(x: Double, y: Double)]] {
    var out: [[(x: Double, y: Double)]] = []
    let tokens = d.replacingOccurrences(of: "M", with: " M ").replacingOccurrences(of: "L", with: " L ")
        .replacingOccurrences(of: "Z", with: " ").split(separator: " ")
    var i = 0
    while i < tokens.count {
        if tokens[i] == "M" { out.append([]); i += 1; continue }
        if tokens[i] == "L" { i += 1; continue }
        let x = Double(tokens[i])!, y = Double(tokens[i + 1])!
        out[out.count - 1].append((x, y))
        i += 2
    }
    return out
}
