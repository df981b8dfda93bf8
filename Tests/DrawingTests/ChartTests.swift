import Testing
@testable import Drawing

@Suite struct ChartTests {
    func throughputChart() -> Chart {
        var chart = Chart(
            title: "Stabbing throughput", x: ChartAxis("fences", scale: .logarithmic),
            y: ChartAxis("fixes per second", scale: .logarithmic))
        chart.series = [
            ChartSeries("LatLngGridIndex", points: [(3_000, 2.79e7), (30_000, 8.4e6), (300_000, 1.25e6)]),
            ChartSeries("Boost packed R* (C++)", points: [(3_000, 6.42e6), (30_000, 1.05e6), (300_000, 1.23e5)], dashed: true)
        ]
        chart.highlights = [ChartHighlight(x: 30_000, y: 8.4e6, label: "README figure")]
        chart.caption = "one thread, medians of 3 runs"
        return chart
    }

    @Test func everyChartHasItsAxesSeriesAndLegend() throws {
        let xml = ParsedXML(throughputChart().render().fileText)
        #expect(xml.isWellFormed, "\(xml.error ?? "")")
        #expect(xml.withClass("x-axis").count == 1)
        #expect(xml.withClass("y-axis").count == 1)
        let labels = xml.withClass("axis-label").map(\.text)
        #expect(labels == ["fences (log scale)", "fixes per second (log scale)"])
        #expect(xml.withClass("series").compactMap { $0.attributes["data-name"] } == ["LatLngGridIndex", "Boost packed R* (C++)"])
        #expect(xml.withClass("legend").count == 1)
        #expect(xml.withClass("highlight").count == 1)
        #expect(xml.withClass("caption").map(\.text) == ["one thread, medians of 3 runs"])
        #expect(xml.withClass("unplotted").isEmpty && xml.withClass("no-data").isEmpty)
    }

    /// Data over three decades of fences gets decade ticks 1k, 10k, 100k, 1M on the log axis.
    @Test func logAxesTickAtDecades() {
        let xml = ParsedXML(throughputChart().render().fileText)
        let xAxisIndex = xml.elements.firstIndex { $0.classes.contains("x-axis") }!
        let yAxisIndex = xml.elements.firstIndex { $0.classes.contains("y-axis") }!
        let xTicks = xml.elements[xAxisIndex..<yAxisIndex].filter { $0.classes.contains("tick") }.map(\.text)
        #expect(xTicks == ["1k", "10k", "100k", "1M"])
        let axis = ChartAxis("v", scale: .logarithmic)
        #expect(axis.resolvedRange(dataLow: 3, dataHigh: 40) == 2...50)
        #expect(axis.ticks(in: 2...50) == [2, 5, 10, 20, 50])
        #expect(ChartAxis("v").ticks(in: 0...1) == [0, 0.2, 0.4, 0.6000000000000001, 0.8, 1])
        #expect(ChartAxis("v").resolvedRange(dataLow: 0.3, dataHigh: 9.2) == 0...10)
        // A linear axis over positive data starts at 0; negative data keep their own low end.
        #expect(ChartAxis("v").resolvedRange(dataLow: 97.8, dataHigh: 99.6) == 0...100)
        #expect(ChartAxis("v").resolvedRange(dataLow: -30, dataHigh: 90) == -50...100)
    }

    /// With fixed ranges 0...10 the point (5, 5) lands in the middle of the plot, and (10, 0) on
    /// its bottom-right corner.
    @Test func aKnownPointLandsWhereItShould() throws {
        var chart = Chart(title: "t", x: ChartAxis("x (m)", range: 0...10), y: ChartAxis("y (s)", range: 0...10))
        chart.series = [ChartSeries("s", points: [(5, 5), (10, 0)], style: .scatter)]
        let xml = ParsedXML(chart.render().fileText)
        let background = try #require(xml.withClass("plot-background").first)
        let x0 = Double(background.attributes["x"]!)!, y0 = Double(background.attributes["y"]!)!
        let w = Double(background.attributes["width"]!)!, h = Double(background.attributes["height"]!)!
        let dots = xml.all("circle").filter { $0.attributes["r"] == "3.5" }
        #expect(abs(Double(dots[0].attributes["cx"]!)! - (x0 + w / 2)) < 0.01)
        #expect(abs(Double(dots[0].attributes["cy"]!)! - (y0 + h / 2)) < 0.01)
        #expect(abs(Double(dots[1].attributes["cx"]!)! - (x0 + w)) < 0.01)
        #expect(abs(Double(dots[1].attributes["cy"]!)! - (y0 + h)) < 0.01)
    }

    @Test func pointsThatCannotBeDrawnAreCountedNotHidden() {
        var chart = Chart(title: "log", x: ChartAxis("x"), y: ChartAxis("y", scale: .logarithmic))
        chart.series = [ChartSeries("s", points: [(1, 10), (2, 0), (3, .nan), (.infinity, 5), (4, 100)])]
        #expect(chart.unplottableCount == 3)
        let xml = ParsedXML(chart.render().fileText)
        #expect(xml.isWellFormed)
        #expect(xml.withClass("unplotted").first?.text.hasPrefix("3 point(s) not drawn") == true)
    }

    @Test func anEmptyChartSaysNoData() {
        let chart = Chart(title: "empty", x: ChartAxis("x"), y: ChartAxis("y", scale: .logarithmic))
        let xml = ParsedXML(chart.render().fileText)
        #expect(xml.isWellFormed)
        #expect(xml.withClass("no-data").count == 1)
        #expect(xml.withClass("x-axis").count == 1 && xml.withClass("y-axis").count == 1)
        #expect(xml.withClass("legend").isEmpty)
    }

    @Test func cdfStepsThroughTheSortedValues() {
        let series = ChartSeries.cdf("latency", values: [3, 1, 2, 2, .nan])
        #expect(series.points.map(\.x) == [1, 2, 3])
        #expect(series.points.map(\.y) == [0.25, 0.75, 1])
        #expect(series.omittedCount == 1)
        #expect(ChartSeries.cdf("none", values: []).points.isEmpty)
        var chart = Chart(title: "Latency", x: ChartAxis("latency (s)"), y: ChartAxis("fraction", range: 0...1))
        chart.series = [series]
        #expect(chart.unplottableCount == 1)
    }

    @Test func chartIDsAreSlugsOfTheTitle() {
        #expect(Chart(title: "Stabbing throughput (M fixes/s)", x: ChartAxis("x"), y: ChartAxis("y")).id == "stabbing-throughput-m-fixes-s")
        #expect(Chart(title: "§§", x: ChartAxis("x"), y: ChartAxis("y")).id == "chart")
    }

    @Test func longCaptionsWrapAtSpaces() {
        #expect(Chart.wrap("aa bb cc dd", maxCharacters: 5) == ["aa bb", "cc dd"])
        #expect(Chart.wrap("a verylongword b", maxCharacters: 4) == ["a", "verylongword", "b"])
        #expect(Chart.wrap("", maxCharacters: 10).isEmpty)
        var chart = throughputChart()
        chart.caption = String(repeating: "word ", count: 60)
        let xml = ParsedXML(chart.render().fileText)
        let lines = xml.withClass("caption")
        #expect(lines.count >= 2)
        #expect(lines.map(\.text).joined(separator: " ") == String(repeating: "word ", count: 60).trimmingCharacters(in: .whitespaces))
    }
}

@Suite struct ChartColorTests {
    @Test func aSeriesColorOverridesThePalette() {
        var chart = Chart(title: "c", x: ChartAxis("x"), y: ChartAxis("y"))
        var fixed = ChartSeries("fixed", points: [(0, 0), (1, 1)])
        fixed.color = "#123456"
        chart.series = [ChartSeries("first", points: [(0, 1), (1, 0)]), fixed]
        let xml = ParsedXML(chart.render().fileText)
        let strokes = xml.all("path").compactMap { $0.attributes["stroke"] }
        #expect(strokes.contains("#123456"))
        #expect(strokes.contains(Chart.palette[0]))
        #expect(!strokes.contains(Chart.palette[1]))  // the second series took its own color
    }
}
