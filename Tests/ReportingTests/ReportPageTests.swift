import NumberFormatting
import Drawing
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Reporting

/// A report on tiny workloads (seconds in a debug build), rendered once for all tests.
let tinyReport: BenchmarkReport = {
    var settings = ReportSettings.quick
    settings.stabPOIs = [20, 60]
    settings.stabFixes = 2_000
    settings.devices = 20
    settings.repetitions = 1
    settings.accuracyPOIs = 40
    settings.accuracyFixes = 6_000
    settings.caps = [20, 100]
    settings.hysteresisMeters = [0, 20]
    settings.accuracyGatesMeters = [100, 1_500]
    let peers = [
        BenchmarkReport.Peer(name: "boost_packed", fences: 60, fixesPerSecond: 5e6, indexBytes: 20_000),
        BenchmarkReport.Peer(name: "boost_packed", fences: 180, fixesPerSecond: 4e6, indexBytes: 60_000)
    ]
    return try! ReportRunner.measure(settings, peers: peers, optimized: false) { _ in }
}()

@Suite struct ReportPageTests {
    @Test func theMeasurementsAreConsistent() {
        let r = tinyReport
        #expect(r.stab.count == 8)  // 4 indexes x 2 sizes (brute force runs at 60 and 180 fences)
        for fences in Set(r.stab.map(\.fences)) {
            let rows = r.stab.filter { $0.fences == fences }
            #expect(Set(rows.map(\.checksum)).count == 1, "indexes disagree at \(fences) fences")
            #expect(Set(rows.map(\.hits)).count == 1)
        }
        #expect(r.stab.allSatisfy { $0.fixesPerSecond > 0 && (0...1).contains($0.candidateFalsePositiveRate) })
        #expect(r.detector.count == 4)
        #expect(r.detector.filter(\.isDefault).count == 1)
        #expect(r.detector.first(where: \.isDefault)?.hysteresisMeters == 0)
        #expect(r.detector.first(where: \.isDefault)?.accuracyGateMeters == 100)
        #expect(r.planner.count == 6)
        #expect(r.planner.allSatisfy { (0...1).contains($0.systemRecall) && $0.systemRecall >= $0.recall - 1e-12 })
        #expect(r.defaultLatenciesSeconds == r.defaultLatenciesSeconds.sorted())
        #expect(r.requiredTransitions <= r.trueTransitions && r.requiredTransitions > 0)
    }

    @Test func jsonRoundTrips() throws {
        let text = try ReportPage.json(tinyReport)
        #expect(text.contains("\"fixes_per_second\""))
        #expect(try ReportPage.report(fromJSON: Data(text.utf8)) == tinyReport)
        // The layout is Foundation's JSONEncoder's (pretty, sorted, snake_case), byte for byte.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var withEmpties = tinyReport
        withEmpties.peers = []
        withEmpties.sweepSource = BenchmarkReport.SweepSource(file: "a \"b\".json", pois: 1, devices: 2, fixes: 3, seed: 1 << 40, noise: "é")
        for report in [tinyReport, withEmpties] {
            #expect(try ReportPage.json(report) == String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        }
    }

    /// The page parses as XML, holds eight charts each with both axes and at least one series,
    /// and no script or external reference.
    @Test func thePageIsWellFormedAndEveryChartHasAxesAndSeries() throws {
        let html = ReportPage.html(tinyReport)
        let xml = ParsedPage(html)
        #expect(xml.error == nil, "\(xml.error ?? "")")
        #expect(!html.contains("<script"))
        // The only URIs are namespace names (never fetched).
        #expect(html.components(separatedBy: "http").count == html.components(separatedBy: "xmlns=\"http").count)
        #expect(!html.contains("src=") && !html.contains("href="))
        let svgs = xml.elements.indices.filter { xml.elements[$0].name == "svg" }
        #expect(svgs.count == 7)
        for (n, start) in svgs.enumerated() {
            let end = n + 1 < svgs.count ? svgs[n + 1] : xml.elements.count
            let chart = xml.elements[start..<end]
            #expect(chart.filter { $0.classes.contains("x-axis") }.count == 1)
            #expect(chart.filter { $0.classes.contains("y-axis") }.count == 1)
            #expect(chart.filter { $0.classes.contains("axis-label") }.count == 2)
            #expect(chart.filter { $0.classes.contains("series") }.count >= 1)
            #expect(chart.filter { $0.classes.contains("legend") }.count == 1)
            #expect(chart.filter { $0.classes.contains("unplotted") }.isEmpty)
        }
        #expect(xml.elements.contains { $0.classes.contains("highlight") })  // the defaults on the trade-off
        #expect(xml.elements.contains { $0.attributes["data-name"] == "Boost packed R* (C++)" })
    }

    /// Every number in a table equals the JSON value at its `data-key`.
    @Test func tableNumbersEqualTheJSON() throws {
        // JSONDecoder reads numbers exactly (JSONSerialization on Linux may be off in the last digit).
        let json = try JSONDecoder().decode(DecodedJSON.self, from: Data(ReportPage.json(tinyReport).utf8))
        let xml = ParsedPage(ReportPage.html(tinyReport))
        let cells = xml.elements.filter { $0.attributes["data-key"] != nil }
        #expect(cells.count > 60)
        for cell in cells {
            let key = cell.attributes["data-key"]!
            let value = try #require(lookup(json, key), "no JSON value at \(key)")
            #expect(Double(cell.attributes["data-value"]!) == value, "\(key)")
            #expect(!cell.text.isEmpty)
        }
        let first = try #require(cells.first { $0.attributes["data-key"] == "stab[0].fixes_per_second" })
        #expect(first.text == DecimalFormatting.grouped(tinyReport.stab[0].fixesPerSecond / 1e6, 2))
        let recall = try #require(cells.first { $0.attributes["data-key"] == "planner[0].system_recall" })
        #expect(recall.text == DecimalFormatting.grouped(100 * tinyReport.planner[0].systemRecall, 2) + " %")
    }

    @Test func peersFilesAreReadAndBadOnesNameTheField() throws {
        let good = """
            {"results": [{"kind": "peer", "name": "s2_cover", "fences": 3000, "fixes_per_second": 6250000.5, "index_mb": 2.87},
                         {"kind": "ours", "name": "grid", "fences": 3000, "fixes_per_second": 1, "index_mb": 1}]}
            """
        let peers = try PeerResults.parse(Data(good.utf8))
        #expect(peers == [BenchmarkReport.Peer(name: "s2_cover", fences: 3000, fixesPerSecond: 6_250_000.5, indexBytes: 2_870_000)])
        let bad = #"{"results": [{"kind": "peer", "name": "s2_cover", "fences": 3000, "index_mb": 2}]}"#
        #expect(throws: PeerResults.FormatError.self) { try PeerResults.parse(Data(bad.utf8)) }
        do {
            _ = try PeerResults.parse(Data(bad.utf8))
        } catch let error as PeerResults.FormatError {
            #expect(error.description.hasPrefix("results[0].fixes_per_second"))
        }
        #expect(try PeerResults.parse(Data(#"{"results": []}"#.utf8)).isEmpty)
        #expect(throws: PeerResults.FormatError.self) { try PeerResults.parse(Data("[]".utf8)) }
    }

    /// The peers' workload is read from the file; the report then stabs on the same sizes, and
    /// refuses peers measured on another seed, device count or noise model.
    @Test func thePeersWorkloadSetsTheStabbingWorkloads() throws {
        let file = #"{"workload": {"pois": [1000, 10000], "fixes": 1000000, "devices": 1000, "seed": 1, "noise": "gaussian"}, "results": []}"#
        let workload = try PeerResults.workload(Data(file.utf8))
        #expect(workload == PeerResults.Workload(pois: [1000, 10000], fixes: 1_000_000, devices: 1000, seed: 1, noise: "gaussian"))
        let settings = try ReportSettings.full.stabbing(like: workload)
        #expect(settings.stabPOIs == [1000, 10000] && settings.stabFixes == 1_000_000)
        #expect(settings.accuracyFixes == ReportSettings.full.accuracyFixes)
        var other = workload
        other.noise = "realistic"
        #expect(throws: PeerResults.FormatError.self) { try ReportSettings.full.stabbing(like: other) }
        other = workload
        other.seed = 2
        #expect(throws: PeerResults.FormatError.self) { try ReportSettings.full.stabbing(like: other) }
        do {
            _ = try PeerResults.workload(Data(#"{"workload": {"pois": [1000], "devices": 1000, "seed": 1, "noise": "gaussian"}}"#.utf8))
            Issue.record("a workload without fixes was accepted")
        } catch let error as PeerResults.FormatError {
            #expect(error.description.hasPrefix("workload.fixes"))
        }
        #expect(throws: PeerResults.FormatError.self) { try PeerResults.workload(Data(#"{"results": []}"#.utf8)) }
    }

    func lookup(_ root: DecodedJSON, _ path: String) -> Double? {
        var current = root
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var index: Int?
            if let open = part.firstIndex(of: "[") {
                name = part[..<open]
                index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)])
            }
            guard case .object(let object) = current, let next = object[String(name)] else { return nil }
            current = next
            if let index {
                guard case .array(let array) = current, index < array.count else { return nil }
                current = array[index]
            }
        }
        if case .number(let value) = current { return value }
        return nil
    }
}

/// Any JSON value, decoded with JSONDecoder (exact numbers).
enum DecodedJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([DecodedJSON]), object([String: DecodedJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([DecodedJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: DecodedJSON].self))
        }
    }
}

/// The page's elements with attributes and text, from Foundation's XMLParser.
struct ParsedPage {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }
    var elements: [Element] = []
    var error: String?

    init(_ text: String) {
        let collector = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        if !parser.parse() { error = parser.parserError.map { "\($0)" } ?? "unknown" }
        elements = collector.elements
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var stack: [Int] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(Element(name: name, attributes: attributes))
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
