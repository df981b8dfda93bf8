/// An SVG document under construction: a canvas of `width` x `height` user units (pixels),
/// origin top left, y down.
///
/// Elements are appended in painting order. Every attribute value and text passes through
/// ``XMLText/escaped(_:)``, and groups opened with ``open(_:_:)`` are closed in order, so the
/// output is always well-formed XML. Attribute names are the caller's literals (SVG names such as
/// `stroke-width`); they are not checked.
///
/// ```swift
/// var svg = SVGDocument(width: 200, height: 100, title: "A dot")
/// svg.element("circle", ["cx": "100", "cy": "50", "r": "4", "fill": "#1f77b4"])
/// let text = svg.rendered   // "<svg xmlns=... viewBox="0 0 200 100">...</svg>"
/// ```
public struct SVGDocument: Sendable {
    /// Canvas width in user units (pixels at 100 % zoom).
    public let width: Double
    /// Canvas height in user units.
    public let height: Double
    /// The document title (the `<title>` element, read by screen readers and shown as a tooltip).
    public let title: String
    private var body: String = ""
    private var openElements: [String] = []

    /// An empty canvas.
    /// - Precondition: `width` and `height` are positive and finite.
    public init(width: Double, height: Double, title: String) {
        precondition(
            width > 0 && width.isFinite && height > 0 && height.isFinite,
            "SVGDocument: width and height must be positive and finite")
        self.width = width
        self.height = height
        self.title = title
    }

    /// Appends a childless element such as `<circle cx="1" .../>`, or `<text ...>text</text>`
    /// when `text` is given. Attributes are written in the order given.
    public mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil) {
        body += "<" + name + Self.attributeText(attributes)
        if let text {
            body += ">" + XMLText.escaped(text) + "</" + name + ">\n"
        } else {
            body += "/>\n"
        }
    }

    /// Opens a container element (`g`, `clipPath`, `defs`, ...); close it with ``close()``.
    public mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        body += "<" + name + Self.attributeText(attributes) + ">\n"
        openElements.append(name)
    }

    /// Closes the innermost element opened with ``open(_:_:)``.
    /// - Precondition: an element is open.
    public mutating func close() {
        guard let name = openElements.popLast() else { preconditionFailure("SVGDocument.close: nothing is open") }
        body += "</" + name + ">\n"
    }

    /// Appends a path through `points` (user units): `M x y L x y ...`, closed with `Z` when
    /// `closed`. Fewer than two points append nothing (a path needs a segment).
    public mutating func path(
        _ points: [(x: Double, y: Double)], closed: Bool,
        _ attributes: KeyValuePairs<String, String> = [:]
    ) {
        guard points.count >= 2 else { return }
        var d = ""
        d.reserveCapacity(points.count * 16)
        for (i, p) in points.enumerated() {
            d += (i == 0 ? "M" : " L") + SVGNumber.format(p.x) + " " + SVGNumber.format(p.y)
        }
        if closed { d += " Z" }
        body += "<path d=\"" + d + "\"" + Self.attributeText(attributes) + "/>\n"
    }

    /// Number of elements opened and not yet closed.
    public var openCount: Int { openElements.count }

    /// The `<svg>` element (every open group closed), for a standalone `.svg` file after an XML
    /// declaration, or inline in HTML.
    public var rendered: String {
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + SVGNumber.format(width)
            + "\" height=\"" + SVGNumber.format(height) + "\" viewBox=\"0 0 " + SVGNumber.format(width) + " "
            + SVGNumber.format(height) + "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out += "<title>" + XMLText.escaped(title) + "</title>\n"
        out += body
        for name in openElements.reversed() { out += "</" + name + ">\n" }
        out += "</svg>\n"
        return out
    }

    /// A standalone SVG file: the XML declaration followed by ``rendered``.
    public var fileText: String { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + rendered }

    private static func attributeText(_ attributes: KeyValuePairs<String, String>) -> String {
        var s = ""
        for (name, value) in attributes { s += " " + name + "=\"" + XMLText.escaped(value) + "\"" }
        return s
    }
}
