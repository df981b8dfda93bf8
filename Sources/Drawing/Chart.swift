/// A line or scatter chart as SVG: two labeled axes (linear or logarithmic, with round ticks),
/// any number of series, highlighted points, and a legend.
///
/// Points that an axis cannot show (non-finite, or not positive on a logarithmic axis) are not
/// drawn; the chart prints how many under the plot, so nothing disappears unnoticed. A chart
/// without data draws its axes and says "no data".
///
/// The SVG marks its parts with classes that tests and style sheets can find: `x-axis` and
/// `y-axis` groups with `tick` labels and an `axis-label`, one `series` group per series (with
/// `data-name`), `highlight` groups, and a `legend` group.
///
/// ```swift
/// var chart = Chart(title: "Stabbing throughput",
///                   x: ChartAxis("fences", scale: .logarithmic),
///                   y: ChartAxis("fixes per second", scale: .logarithmic))
/// chart.series.append(ChartSeries("LatLngGridIndex", points: [(3_000, 2.7e7), (30_000, 8.4e6)]))
/// let svg = chart.render()
/// ```
public struct Chart: Sendable {
    /// The heading above the plot.
    public var title: String
    /// The horizontal axis.
    public var x: ChartAxis
    /// The vertical axis.
    public var y: ChartAxis
    /// The data, drawn in order (later series on top).
    public var series: [ChartSeries] = []
    /// Points called out with a ring and a label.
    public var highlights: [ChartHighlight] = []
    /// A line under the plot (conditions of the measurement, for example).
    public var caption: String = ""
    /// Canvas size in pixels.
    public var width = 680.0, height = 400.0
    /// A name unique within the page the chart is placed on (letters, digits, `-`): element ids
    /// inside the SVG start with it, so several charts can share one HTML document.
    public var id: String

    /// An empty chart; ``id`` is made from the title's letters and digits.
    public init(title: String, x: ChartAxis, y: ChartAxis) {
        self.title = title
        self.x = x
        self.y = y
        var slug = ""
        for ch in title.lowercased().unicodeScalars {
            if ("a"..."z").contains(ch) || ("0"..."9").contains(ch) {
                slug.unicodeScalars.append(ch)
            } else if !slug.hasSuffix("-") && !slug.isEmpty {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        id = slug.isEmpty ? "chart" : slug
    }

    /// Line colors (Okabe-Ito, readable with the common color-vision deficiencies).
    public static let palette = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999999"]

    /// Points of all series and highlights that cannot be placed on the axes, plus values the
    /// series themselves could not turn into points.
    public var unplottableCount: Int {
        var n = 0
        for s in series {
            n += s.omittedCount
            for p in s.points where !(x.canShow(p.x) && y.canShow(p.y)) { n += 1 }
        }
        for h in highlights where !(x.canShow(h.x) && y.canShow(h.y)) { n += 1 }
        return n
    }

    /// Draws the chart.
    /// - Complexity: O(p) in the number of points.
    public func render() -> SVGDocument {
        var svg = SVGDocument(width: width, height: height, title: title)
        // Room for the longest legend name (about 6.6 pixels per character at 12 px).
        let longestName = series.map(\.name.count).max() ?? 0
        let legendWidth = series.isEmpty ? 0.0 : max(120, 44 + 6.6 * Double(longestName))
        let plotX = 78.0, plotY = 36.0
        // About 5.7 pixels per character of the 11 px caption: wrap it to the canvas.
        let captionLines = Self.wrap(caption, maxCharacters: max(20, Int((width - plotX - 10) / 5.7)))
        let bottomSpace = 52.0 + 14 * Double(captionLines.count) + (captionLines.isEmpty ? 0 : 4)
        let plotWidth = max(40, width - plotX - 16 - legendWidth)
        let plotHeight = max(40, height - plotY - bottomSpace - (unplottableCount > 0 ? 14 : 0))

        var xs: [Double] = [], ys: [Double] = []
        for s in series { for p in s.points where x.canShow(p.x) && y.canShow(p.y) { xs.append(p.x); ys.append(p.y) } }
        for h in highlights where x.canShow(h.x) && y.canShow(h.y) { xs.append(h.x); ys.append(h.y) }
        let xRange = x.resolvedRange(dataLow: xs.min(), dataHigh: xs.max())
        let yRange = y.resolvedRange(dataLow: ys.min(), dataHigh: ys.max())
        let tx0 = x.transformed(xRange.lowerBound), tx1 = x.transformed(xRange.upperBound)
        let ty0 = y.transformed(yRange.lowerBound), ty1 = y.transformed(yRange.upperBound)
        func px(_ v: Double) -> Double { plotX + (x.transformed(v) - tx0) / (tx1 - tx0) * plotWidth }
        func py(_ v: Double) -> Double { plotY + plotHeight - (y.transformed(v) - ty0) / (ty1 - ty0) * plotHeight }

        svg.element("rect", ["width": SVGNumber.format(width), "height": SVGNumber.format(height), "fill": "#ffffff"])
        svg.element(
            "text",
            [
                "class": "chart-title", "x": SVGNumber.format(plotX), "y": "22", "font-size": "15",
                "font-weight": "bold", "fill": "#111"
            ], text: title)
        svg.element(
            "rect",
            [
                "class": "plot-background", "x": SVGNumber.format(plotX), "y": SVGNumber.format(plotY),
                "width": SVGNumber.format(plotWidth), "height": SVGNumber.format(plotHeight),
                "fill": "#fbfbfb", "stroke": "#888"
            ])
        let clipID = id + "-plot-area"
        svg.open("defs")
        svg.open("clipPath", ["id": clipID])
        svg.element(
            "rect",
            [
                "x": SVGNumber.format(plotX - 4), "y": SVGNumber.format(plotY - 4),
                "width": SVGNumber.format(plotWidth + 8), "height": SVGNumber.format(plotHeight + 8)
            ])
        svg.close()
        svg.close()

        // Axes: grid lines, ticks, tick labels, titles.
        svg.open("g", ["class": "axis x-axis", "font-size": "11", "fill": "#333"])
        for t in x.ticks(in: xRange) {
            let p = px(t)
            svg.path([(p, plotY), (p, plotY + plotHeight)], closed: false, ["stroke": "#e2e2e2", "stroke-width": "1"])
            svg.path([(p, plotY + plotHeight), (p, plotY + plotHeight + 5)], closed: false, ["stroke": "#555"])
            svg.element(
                "text",
                [
                    "class": "tick", "x": SVGNumber.format(p), "y": SVGNumber.format(plotY + plotHeight + 18),
                    "text-anchor": "middle"
                ], text: x.tickLabel(t))
        }
        svg.element(
            "text",
            [
                "class": "axis-label", "x": SVGNumber.format(plotX + plotWidth / 2),
                "y": SVGNumber.format(plotY + plotHeight + 38), "text-anchor": "middle", "font-size": "12.5"
            ],
            text: x.label + (x.scale == .logarithmic ? " (log scale)" : ""))
        svg.close()
        svg.open("g", ["class": "axis y-axis", "font-size": "11", "fill": "#333"])
        for t in y.ticks(in: yRange) {
            let p = py(t)
            svg.path([(plotX, p), (plotX + plotWidth, p)], closed: false, ["stroke": "#e2e2e2", "stroke-width": "1"])
            svg.path([(plotX - 5, p), (plotX, p)], closed: false, ["stroke": "#555"])
            svg.element(
                "text",
                [
                    "class": "tick", "x": SVGNumber.format(plotX - 8), "y": SVGNumber.format(p + 4),
                    "text-anchor": "end"
                ], text: y.tickLabel(t))
        }
        let yLabelX = SVGNumber.format(18), yLabelY = SVGNumber.format(plotY + plotHeight / 2)
        svg.element(
            "text",
            [
                "class": "axis-label", "x": yLabelX, "y": yLabelY, "text-anchor": "middle", "font-size": "12.5",
                "transform": "rotate(-90 \(yLabelX) \(yLabelY))"
            ],
            text: y.label + (y.scale == .logarithmic ? " (log scale)" : ""))
        svg.close()

        // Series.
        svg.open("g", ["clip-path": "url(#\(clipID))"])
        for (i, s) in series.enumerated() {
            let color = s.color ?? Self.palette[i % Self.palette.count]
            svg.open("g", ["class": "series", "data-name": s.name])
            let placed = s.points.filter { x.canShow($0.x) && y.canShow($0.y) }.map { (x: px($0.x), y: py($0.y)) }
            var linePoints = placed
            if s.style == .steps {
                linePoints = []
                for (k, p) in placed.enumerated() {
                    if k > 0 { linePoints.append((p.x, placed[k - 1].y)) }
                    linePoints.append(p)
                }
            }
            if s.style != .scatter {
                var attributes: KeyValuePairs<String, String> = ["fill": "none", "stroke": color, "stroke-width": "2", "stroke-linejoin": "round"]
                if s.dashed {
                    attributes = ["fill": "none", "stroke": color, "stroke-width": "2", "stroke-linejoin": "round", "stroke-dasharray": "6 4"]
                }
                svg.path(linePoints, closed: false, attributes)
            }
            if s.style == .scatter || s.style == .lineWithMarkers {
                for p in placed {
                    svg.element(
                        "circle",
                        [
                            "cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": "3.5",
                            "fill": s.dashed ? "#ffffff" : color, "stroke": color, "stroke-width": "1.5"
                        ])
                }
            }
            svg.close()
        }
        for h in highlights where x.canShow(h.x) && y.canShow(h.y) {
            let p = (x: px(h.x), y: py(h.y))
            svg.open("g", ["class": "highlight"])
            svg.element(
                "circle",
                [
                    "cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": "8",
                    "fill": "none", "stroke": "#111", "stroke-width": "2"
                ])
            let leftSide = p.x > plotX + plotWidth * 0.7
            svg.element(
                "text",
                [
                    "x": SVGNumber.format(leftSide ? p.x - 12 : p.x + 12), "y": SVGNumber.format(p.y - 10),
                    "font-size": "12", "font-weight": "bold", "fill": "#111",
                    "text-anchor": leftSide ? "end" : "start"
                ], text: h.label)
            svg.close()
        }
        svg.close()

        if xs.isEmpty {
            svg.element(
                "text",
                [
                    "class": "no-data", "x": SVGNumber.format(plotX + plotWidth / 2),
                    "y": SVGNumber.format(plotY + plotHeight / 2), "text-anchor": "middle",
                    "font-size": "14", "fill": "#777"
                ], text: "no data")
        }
        var noteY = plotY + plotHeight + 56
        if unplottableCount > 0 {
            svg.element(
                "text",
                [
                    "class": "unplotted", "x": SVGNumber.format(plotX), "y": SVGNumber.format(noteY),
                    "font-size": "11", "fill": "#a00"
                ],
                text: "\(unplottableCount) point(s) not drawn: not finite, or not positive on a log axis")
            noteY += 14
        }
        for (k, line) in captionLines.enumerated() {
            svg.element(
                "text",
                [
                    "class": "caption", "x": SVGNumber.format(plotX), "y": SVGNumber.format(noteY + 14 * Double(k)),
                    "font-size": "11", "fill": "#555"
                ], text: line)
        }

        if !series.isEmpty {
            let lx = plotX + plotWidth + 14
            svg.open("g", ["class": "legend", "font-size": "12"])
            for (i, s) in series.enumerated() {
                let color = s.color ?? Self.palette[i % Self.palette.count]
                let ly = plotY + 10 + 20 * Double(i)
                if s.dashed {
                    svg.path([(lx, ly), (lx + 22, ly)], closed: false, ["stroke": color, "stroke-width": "2", "stroke-dasharray": "6 4"])
                } else {
                    svg.path([(lx, ly), (lx + 22, ly)], closed: false, ["stroke": color, "stroke-width": "2"])
                }
                if s.style == .scatter || s.style == .lineWithMarkers {
                    svg.element(
                        "circle",
                        [
                            "cx": SVGNumber.format(lx + 11), "cy": SVGNumber.format(ly), "r": "3.5",
                            "fill": s.dashed ? "#ffffff" : color, "stroke": color
                        ])
                }
                svg.element("text", ["x": SVGNumber.format(lx + 28), "y": SVGNumber.format(ly + 4), "fill": "#222"], text: s.name)
            }
            svg.close()
        }
        return svg
    }

    /// `text` broken at spaces into lines of at most `maxCharacters` (a longer word gets a line
    /// of its own); no lines for empty text.
    static func wrap(_ text: String, maxCharacters: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > maxCharacters {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
