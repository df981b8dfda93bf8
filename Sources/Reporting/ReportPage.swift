import NumberFormatting
import Drawing
import Foundation
import JSON

/// The files of a benchmark report: `report.json` (the measured values) and `report.html` (one
/// self-contained page: inline SVG charts and tables, no scripts, nothing fetched from anywhere).
///
/// Every number in a table cell carries the JSON path of its value (`data-key`, such as
/// `stab[3].fixes_per_second`) and the value itself (`data-value`, as JSON writes it), so a
/// reader or a test can check the page against the JSON. The page is well-formed XML (XHTML).
public enum ReportPage {
    /// `report` as pretty-printed JSON with snake_case keys in sorted order.
    /// - Throws: `EncodingError` when a measured number is not finite.
    public static func json(_ report: BenchmarkReport) throws -> String {
        try JSONEncoding.prettyText(report, snakeCaseKeys: true) + "\n"
    }

    /// Reads a report written by ``json(_:)``.
    /// - Throws: `JSONSyntaxError` or a `DecodingError` naming the path.
    public static func report(fromJSON data: Data) throws -> BenchmarkReport {
        try JSONEncoding.decode(BenchmarkReport.self, from: [UInt8](data), snakeCaseKeys: true)
    }

    /// Human names of the indexes, by their `--index` names.
    public static let indexNames = [
        "grid": "LatLngGridIndex", "packed": "PackedRTree", "dynamic": "DynamicRTree",
        "brute": "BruteForceIndex"
    ]
    /// Human names of the peers of `scripts/compare-peers`.
    public static let peerNames = [
        "latlng_grid": "lat/lng grid (C++)", "s2_cover": "S2 cover index (C++)",
        "boost_packed": "Boost packed R* (C++)", "boost_inserted": "Boost inserted R* (C++)"
    ]
    /// One color per index and peer on every chart (Okabe-Ito, as ``Chart/palette``).
    static let colors = [
        "grid": "#0072b2", "packed": "#d55e00", "dynamic": "#009e73", "brute": "#cc79a7",
        "latlng_grid": "#e69f00", "s2_cover": "#56b4e9", "boost_packed": "#000000",
        "boost_inserted": "#999999"
    ]

    /// A series colored by the index or peer it shows.
    static func series(_ key: String, _ label: String, _ points: [(x: Double, y: Double)], dashed: Bool = false) -> ChartSeries {
        var s = ChartSeries(label, points: points, dashed: dashed)
        s.color = colors[key]
        return s
    }

    /// Human names of the planner policies.
    public static let policyNames = [
        "planner": "MonitorPlanner defaults", "nearest-15min": "nearest centers, every 15 min",
        "nearest-once": "nearest centers, planned once"
    ]

    /// The HTML page.
    public static func html(_ report: BenchmarkReport) -> String { render(report).html }

    /// The charts of the page, in page order, each as its own SVG document (900 x 420 pixels,
    /// caption included); `Chart/id` names them.
    public static func charts(_ report: BenchmarkReport) -> [Chart] { render(report).charts }

    /// The page's HTML and its charts (as ``charts(_:)`` gives them).
    public static func render(_ report: BenchmarkReport) -> (html: String, charts: [Chart]) {
        var page = Page()
        let s = report.settings
        page.raw("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
        page.raw("<title>Geofence benchmark report</title>\n<style>\n" + style + "</style>\n</head>\n<body>\n")
        page.element("h1", "Geofence benchmark report")
        let preset = s.isQuick ? "quick preset (small workloads: a first look, not the README's figures)" : "full preset"
        let build = report.optimized ? "release build" : "DEBUG BUILD: speeds are meaningless, accuracy figures hold"
        page.element(
            "p",
            "\(preset); \(build); one thread; measured in \(DecimalFormatting.grouped(report.elapsedSeconds, 1)) s. "
                + "Workloads from the package's seeded generator (seed \(s.seed)), the same as "
                + "geofence-bench generate --seed \(s.seed): stabbing with Gaussian GPS noise, \(DecimalFormatting.grouped(Double(s.stabFixes), 0)) fixes "
                + "from \(s.devices) devices per size; accuracy with realistic noise, \(DecimalFormatting.grouped(Double(s.accuracyPOIs), 0)) POIs, "
                + "\(DecimalFormatting.grouped(Double(s.accuracyFixes), 0)) fixes. Terms are explained in docs/WORKLOADS.md.",
            class: "conditions")

        if let source = report.sweepSource {
            page.element(
                "p",
                "The detector's trade-off (with the naive detector) and the planner figures come from "
                    + sweepDescription(source) + ", not from this report's accuracy workload; the latency distribution "
                    + "and the transition counts are this report's own.", class: "conditions")
        }

        stabSection(report, &page)
        detectorSection(report, &page)
        plannerSection(report, &page)
        page.raw("</body>\n</html>\n")
        return (page.text, page.charts)
    }

    static let style = """
        body { font-family: Helvetica, Arial, sans-serif; max-width: 1000px; margin: 24px auto; color: #111; line-height: 1.4; }
        h1 { font-size: 24px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 1px solid #ccc; }
        p.conditions, p.note { color: #444; font-size: 14px; }
        table { border-collapse: collapse; font-size: 13px; margin: 10px 0 20px; }
        th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
        th { background: #f0f0f0; } td.name { text-align: left; }
        tr.default td { font-weight: bold; background: #fff8e0; }
        figure { margin: 12px 0 28px; } figure svg { max-width: 100%; height: auto; }
        figcaption { color: #444; font-size: 13px; margin: 2px 0 0 78px; max-width: 760px; }

        """

    // MARK: - Sections

    static func stabSection(_ report: BenchmarkReport, _ page: inout Page) {
        page.element("h2", "Stabbing: every fence that contains each fix")
        let indexes = ["grid", "packed", "dynamic", "brute"].filter { i in report.stab.contains { $0.index == i } }
        var speed = Chart(
            title: "Stabbing throughput against fence count",
            x: ChartAxis("fences", scale: .logarithmic),
            y: ChartAxis("fixes per second, one thread", scale: .logarithmic))
        var memory = Chart(
            title: "Index memory per fence",
            x: ChartAxis("fences", scale: .logarithmic),
            y: ChartAxis("bytes per fence", scale: .logarithmic))
        var falsePositives = Chart(
            title: "Candidates rejected by the exact test",
            x: ChartAxis("fences", scale: .logarithmic),
            y: ChartAxis(
                "candidate false-positive rate (%)", range: 0...100,
                tickLabel: { NumberText.short($0) }))
        for name in indexes {
            let rows = report.stab.filter { $0.index == name }
            let label = indexNames[name] ?? name
            speed.series.append(series(name, label, rows.map { (Double($0.fences), $0.fixesPerSecond) }))
            if rows.contains(where: { $0.indexBytes != nil }) {
                memory.series.append(
                    series(
                        name, label,
                        rows.compactMap { r in
                            r.indexBytes.map { (Double(r.fences), Double($0) / Double(max(r.fences, 1))) }
                        }))
            }
            falsePositives.series.append(series(name, label, rows.map { (Double($0.fences), 100 * $0.candidateFalsePositiveRate) }))
        }
        for peer in ["latlng_grid", "s2_cover", "boost_packed", "boost_inserted"] {
            let rows = report.peers.filter { $0.name == peer }
            guard !rows.isEmpty else { continue }
            let label = peerNames[peer] ?? peer
            speed.series.append(series(peer, label, rows.map { (Double($0.fences), $0.fixesPerSecond) }, dashed: true))
            memory.series.append(
                series(
                    peer, label, rows.map { (Double($0.fences), Double($0.indexBytes) / Double(max($0.fences, 1))) },
                    dashed: true))
        }
        speed.caption =
            "Logarithmic axes: the speeds span three decades. Median of \(report.settings.repetitions) runs after a warm-up; query phase only; "
            + "\(DecimalFormatting.grouped(Double(report.settings.stabFixes), 0)) fixes per workload (Gaussian noise, seed \(report.settings.seed))."
            + (report.peers.isEmpty ? "" : " Dashed: the C++ peers of scripts/compare-peers, run separately on the same files.")
        memory.caption = "Logarithmic axes. Bytes of the index's own storage (the brute-force index keeps only the fence array)."
        falsePositives.caption = "Share of candidates (fences in the fix's box or cell) that the squared-chord test rejects."
        page.figure(speed)
        page.figure(memory)
        page.figure(falsePositives)

        page.raw(
            "<table class=\"stab\">\n<tr><th>index</th><th>fences</th><th>M fixes/s</th><th>bytes per fence</th>"
                + "<th>cand FP</th><th>hits</th><th>checksum</th><th>build s</th></tr>\n")
        for (k, r) in report.stab.enumerated() {
            page.raw("<tr>")
            page.cell(indexNames[r.index] ?? r.index, class: "name")
            page.number("stab[\(k)].fences", Double(r.fences), DecimalFormatting.grouped(Double(r.fences), 0))
            page.number("stab[\(k)].fixes_per_second", r.fixesPerSecond, DecimalFormatting.grouped(r.fixesPerSecond / 1e6, 2))
            if let bytes = r.indexBytes {
                page.number("stab[\(k)].index_bytes", Double(bytes), DecimalFormatting.grouped(Double(bytes) / Double(max(r.fences, 1)), 1))
            } else {
                page.cell("-")
            }
            page.number(
                "stab[\(k)].candidate_false_positive_rate", r.candidateFalsePositiveRate,
                DecimalFormatting.grouped(100 * r.candidateFalsePositiveRate, 1) + " %")
            page.number("stab[\(k)].hits", Double(r.hits), DecimalFormatting.grouped(Double(r.hits), 0))
            page.cell(r.checksum)
            page.number("stab[\(k)].build_seconds", r.buildSeconds, DecimalFormatting.grouped(r.buildSeconds, 3))
            page.raw("</tr>\n")
        }
        page.raw("</table>\n")
        let agreed = Set(report.stab.map(\.fences)).allSatisfy { n in Set(report.stab.filter { $0.fences == n }.map(\.checksum)).count == 1 }
        page.element(
            "p",
            agreed
                ? "Every index reported the same hits and checksum on each workload."
                : "CHECKSUMS DIFFER between indexes: a bug; the figures above are not comparable.",
            class: "note")
    }

    static func detectorSection(_ report: BenchmarkReport, _ page: inout Page) {
        page.element("h2", "Transition detector: enter/exit under GPS noise")
        var tradeOff = Chart(
            title: "False positives against false negatives",
            x: ChartAxis("false positives (% of detections)"),
            y: ChartAxis("false negatives (% of required true transitions)"))
        for hysteresis in report.settings.hysteresisMeters {
            let points = report.detector.filter { $0.hysteresisMeters == hysteresis }
                .map { (100 * $0.falsePositiveRate, 100 * $0.falseNegativeRate) }
            tradeOff.series.append(ChartSeries("hysteresis \(DecimalFormatting.grouped(hysteresis, 0)) m", points: points))
        }
        // Each gate's point on the first line, labelled (the other lines pass through the gates in the same order).
        if let first = report.settings.hysteresisMeters.first {
            for d in report.detector where d.hysteresisMeters == first && !d.isDefault {
                tradeOff.highlights.append(
                    ChartHighlight(
                        x: 100 * d.falsePositiveRate, y: 100 * d.falseNegativeRate,
                        label: "gate " + DecimalFormatting.grouped(d.accuracyGateMeters ?? 0, 0) + " m"))
            }
        }
        if let d = report.detector.first(where: \.isDefault) {
            tradeOff.highlights.append(
                ChartHighlight(
                    x: 100 * d.falsePositiveRate, y: 100 * d.falseNegativeRate,
                    label: "defaults (gate " + DecimalFormatting.grouped(d.accuracyGateMeters ?? 0, 0) + " m)"))
        }
        tradeOff.caption =
            "Each line: one hysteresis, through accuracy gates "
            + report.settings.accuracyGatesMeters.map { DecimalFormatting.grouped($0, 0) }.joined(separator: ", ") + " m. "
            + "The naive detector (distance ≤ radius), off the chart: "
            + DecimalFormatting.grouped(100 * report.naiveDetector.falsePositiveRate, 1) + " % FP, "
            + DecimalFormatting.grouped(100 * report.naiveDetector.falseNegativeRate, 2) + " % FN."
        if let source = report.sweepSource { tradeOff.caption += " From " + sweepDescription(source) + "." }
        page.figure(tradeOff)

        var latency = Chart(
            title: "Detection latency, default detector",
            x: ChartAxis("latency: detection time minus true transition time (s)"),
            y: ChartAxis("share of matched detections (%)", range: 0...100))
        var cdf = ChartSeries.cdf("default detector", values: report.defaultLatenciesSeconds)
        cdf.points = cdf.points.map { ($0.x, 100 * $0.y) }
        latency.series.append(cdf)
        latency.caption =
            "Cumulative distribution over \(DecimalFormatting.grouped(Double(report.defaultLatenciesSeconds.count), 0)) matched detections; "
            + "a detection matches up to 120 s early or 600 s late."
        page.figure(latency)

        page.raw(
            "<table class=\"detector\">\n<tr><th>hysteresis m</th><th>accuracy gate m</th><th>false positives</th>"
                + "<th>false negatives</th><th>latency p50 s</th><th>latency p95 s</th></tr>\n")
        for (k, d) in report.detector.enumerated() {
            page.raw(d.isDefault ? "<tr class=\"default\">" : "<tr>")
            page.number(
                "detector[\(k)].hysteresis_meters", d.hysteresisMeters,
                DecimalFormatting.grouped(d.hysteresisMeters, 0) + (d.isDefault ? " (defaults)" : ""))
            page.number(
                "detector[\(k)].accuracy_gate_meters", d.accuracyGateMeters ?? 0,
                DecimalFormatting.grouped(d.accuracyGateMeters ?? 0, 0))
            detectorCells(d, key: "detector[\(k)]", &page)
            page.raw("</tr>\n")
        }
        page.raw("<tr>")
        page.cell("naive: distance ≤ radius", class: "name")
        page.cell("-")
        detectorCells(report.naiveDetector, key: "naive_detector", &page)
        page.raw("</tr>\n</table>\n")
        if let source = report.sweepSource {
            page.element("p", "Table and trade-off chart: " + sweepDescription(source) + ".", class: "note")
        }
        page.element(
            "p",
            "\(DecimalFormatting.grouped(Double(report.trueTransitions), 0)) true transitions, "
                + "\(DecimalFormatting.grouped(Double(report.requiredTransitions), 0)) required (the rest are brushes: reversed within 60 s).",
            class: "note")
    }

    static func detectorCells(_ d: BenchmarkReport.Detector, key: String, _ page: inout Page) {
        page.number(key + ".false_positive_rate", d.falsePositiveRate, DecimalFormatting.grouped(100 * d.falsePositiveRate, 2) + " %")
        page.number(key + ".false_negative_rate", d.falseNegativeRate, DecimalFormatting.grouped(100 * d.falseNegativeRate, 2) + " %")
        if let p50 = d.latencyP50Seconds {
            page.number(key + ".latency_p50_seconds", p50, DecimalFormatting.grouped(p50, 0))
        } else {
            page.cell("-")
        }
        if let p95 = d.latencyP95Seconds {
            page.number(key + ".latency_p95_seconds", p95, DecimalFormatting.grouped(p95, 0))
        } else {
            page.cell("-")
        }
    }

    static func plannerSection(_ report: BenchmarkReport, _ page: inout Page) {
        page.element("h2", "Monitor planner: regions under the OS cap")
        var recall = Chart(
            title: "Entries missed against the OS cap",
            x: ChartAxis("OS cap (regions monitored at once)"),
            y: ChartAxis("missed entries (% of required true entries)"))
        var replans = Chart(
            title: "Replans against the OS cap",
            x: ChartAxis("OS cap (regions monitored at once)"),
            y: ChartAxis("replans per device-hour"))
        for policy in ["planner", "nearest-15min", "nearest-once"] {
            let rows = report.planner.filter { $0.policy == policy }
            if policy != "nearest-once" {  // it misses tens of times more: in the caption, not on the axis
                recall.series.append(ChartSeries(policyNames[policy] ?? policy, points: rows.map { (Double($0.cap), 100 * (1 - $0.systemRecall)) }))
            }
            replans.series.append(ChartSeries(policyNames[policy] ?? policy, points: rows.map { (Double($0.cap), $0.replansPerDeviceHour) }))
        }
        let once = report.planner.filter { $0.policy == "nearest-once" }
            .map { "\(DecimalFormatting.grouped(100 * (1 - $0.systemRecall), 1)) % at cap \($0.cap)" }
        recall.caption =
            "Missed = 100 % minus the system recall: entries caught neither by an OS event nor by the app's "
            + "own check when the OS wakes it. The nearest centers planned once miss " + once.joined(separator: ", ") + "."
        replans.caption = "A replan is every plan after a device's first; the planned-once baseline never replans."
        if let source = report.sweepSource {
            recall.caption += " From " + sweepDescription(source) + "."
            replans.caption += " From " + sweepDescription(source) + "."
        }
        page.figure(recall)
        page.figure(replans)
        page.raw(
            "<table class=\"planner\">\n<tr><th>OS cap</th><th>policy</th><th>OS recall</th><th>system recall</th>"
                + "<th>replans per device-hour</th><th>wake-ups per device-hour</th><th>guaranteed plans</th></tr>\n")
        for (k, p) in report.planner.enumerated() {
            page.raw(p.policy == "planner" ? "<tr class=\"default\">" : "<tr>")
            page.number("planner[\(k)].cap", Double(p.cap), String(p.cap))
            page.cell(policyNames[p.policy] ?? p.policy, class: "name")
            page.number("planner[\(k)].recall", p.recall, DecimalFormatting.grouped(100 * p.recall, 1) + " %")
            page.number("planner[\(k)].system_recall", p.systemRecall, DecimalFormatting.grouped(100 * p.systemRecall, 2) + " %")
            page.number("planner[\(k)].replans_per_device_hour", p.replansPerDeviceHour, DecimalFormatting.grouped(p.replansPerDeviceHour, 2))
            page.number("planner[\(k)].wakes_per_device_hour", p.wakesPerDeviceHour, DecimalFormatting.grouped(p.wakesPerDeviceHour, 1))
            page.number(
                "planner[\(k)].guaranteed_plan_share", p.guaranteedPlanShare, DecimalFormatting.grouped(100 * p.guaranteedPlanShare, 0) + " %")
            page.raw("</tr>\n")
        }
        page.raw("</table>\n")
        if let source = report.sweepSource {
            page.element("p", "Charts and table: " + sweepDescription(source) + ".", class: "note")
        }
    }

    /// Where figures read from a sweep file came from: the file and its workload.
    static func sweepDescription(_ source: BenchmarkReport.SweepSource) -> String {
        "the scripts/sweep file \(source.file) (workload: geofence-bench generate --pois \(source.pois) --devices \(source.devices) "
            + "--fixes \(source.fixes) --seed \(source.seed), \(source.noise) noise)"
    }

    /// The page under construction: escaped text, table cells that carry their JSON values.
    struct Page {
        var text = ""
        var charts: [Chart] = []
        mutating func raw(_ s: String) { text += s }
        mutating func element(_ name: String, _ content: String, class c: String? = nil) {
            text += "<\(name)" + (c.map { " class=\"\($0)\"" } ?? "") + ">" + XMLText.escaped(content) + "</\(name)>\n"
        }
        mutating func cell(_ content: String, class c: String? = nil) {
            text += "<td" + (c.map { " class=\"\($0)\"" } ?? "") + ">" + XMLText.escaped(content) + "</td>"
        }
        /// A cell showing `shown` for the JSON value `value` at path `key`.
        mutating func number(_ key: String, _ value: Double, _ shown: String) {
            text += "<td data-key=\"\(XMLText.escaped(key))\" data-value=\"\(JSONObject.number(value))\">" + XMLText.escaped(shown) + "</td>"
        }
        /// The chart as inline SVG, 900 x 420 pixels, with its caption as an HTML `figcaption` (which
        /// wraps, unlike SVG text).
        mutating func figure(_ chart: Chart) {
            var sized = chart
            sized.width = 900
            sized.height = 420
            charts.append(sized)
            sized.caption = ""
            text += "<figure>\n" + sized.render().rendered
            if !chart.caption.isEmpty { text += "<figcaption>" + XMLText.escaped(chart.caption) + "</figcaption>\n" }
            text += "</figure>\n"
        }
    }
}
