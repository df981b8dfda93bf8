import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// End-to-end tests of `geofence draw`: the built binary on the POI sample in Data/ and on the
/// fences `geofence poi fences` prints; the SVG must parse as XML and hold every layer asked for.
@Suite struct DrawCommandTests {
    let cli = GeofenceCLITests()
    static let pois = PoiCommandTests.packageRoot.appendingPathComponent("Data/pois_osm.csv").path

    /// Element names with their `class` attributes, or nil when the text is not well-formed XML.
    final class Classes: NSObject, XMLParserDelegate {
        var classes: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            classes += (attributes["class"] ?? "").split(separator: " ").map(String.init)
        }
        static func of(_ text: String) -> [String]? {
            let collector = Classes()
            let parser = XMLParser(data: Data(text.utf8))
            parser.delegate = collector
            return parser.parse() ? collector.classes : nil
        }
    }

    @Test func fencesFromPoiFencesWithCoversAndPOIs() throws {
        let fences = try cli.run([
            "poi", "fences", "--category", "pharmacy", "--lat", "60.1699", "--lon", "24.9384",
            "--limit", "3", "--max-km", "1", Self.pois
        ])
        #expect(fences.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("draw-fences-\(UUID().uuidString).csv").path
        try fences.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try cli.run(["draw", "--fences", file, "--pois", Self.pois, "--cover", "8", "--title", "Pharmacies & <friends>"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        let classes = try #require(Classes.of(result.stdout), "not well-formed XML")
        for layer in ["fences", "cells", "pois", "graticule", "scale-bar", "legend"] {
            #expect(classes.contains(layer), "\(layer)")
        }
        #expect(result.stdout.contains("<title>Pharmacies &amp; &lt;friends&gt;</title>"))
        // The same fences from standard input, equirectangular, to a file.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("draw-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let piped = try cli.run(["draw", "--fences", "-", "--projection", "equirectangular", "--out", out], input: fences.stdout)
        #expect(piped.status == 0 && piped.stdout.isEmpty)
        #expect(Classes.of(try String(contentsOfFile: out, encoding: .utf8))?.contains("fences") == true)
    }

    @Test func usageAndInputErrors() throws {
        #expect(try cli.run(["draw"]).status == 2)  // nothing to draw
        #expect(try cli.run(["draw", "--pois", Self.pois, "--device", "3"]).status == 2)  // --device needs --fixes
        #expect(try cli.run(["draw", "--pois", Self.pois, "--dwell", "300"]).status == 2)  // --dwell needs --fixes
        #expect(try cli.run(["draw", "--pois", Self.pois, "--projection", "robinson"]).status == 2)
        #expect(try cli.run(["draw", "--pois", Self.pois, "--cover", "0"]).status == 2)
        #expect(try cli.run(["draw", "--fences", "-", "--pois", "-"]).status == 2)
        let bad = try cli.run(["draw", "--fences", "-"], input: "id,lat,lon,radius_m\n0,60.1,24.9,100\n1,60.2,x,100\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains(":3:"))  // the line of the bad row
        #expect(try cli.run(["draw", "--help"]).status == 0)
    }

    /// Valid rows at the edge of the projection or with the largest radius draw a map: a fence
    /// at 89°S (beyond Web Mercator's limit) and a radius of half the Earth's circumference (the
    /// whole sphere). A radius past it is a bad row, as in every command that reads fences.
    @Test func extremeButValidFencesDraw() throws {
        for (row, projection) in [("0,-89,10,100", "mercator"), ("0,0,10,20015114", "mercator"), ("0,0,10,20015114", "equirectangular")] {
            let result = try cli.run(["draw", "--fences", "-", "--projection", projection], input: "id,lat,lon,radius_m\n\(row)\n")
            #expect(result.status == 0, "\(row) \(projection): \(result.stderr)")
            #expect(Classes.of(result.stdout)?.contains("fences") == true, "\(row) \(projection)")
        }
        let tooLarge = try cli.run(["draw", "--fences", "-"], input: "id,lat,lon,radius_m\n0,0,10,1e300\n")
        #expect(tooLarge.status == 1 && tooLarge.stderr.contains(":2:radius_m: "), "\(tooLarge.stderr)")
    }
}

/// `geofence poi ACTION --help` and `geofence help poi ACTION` through the built tool.
@Suite struct PoiActionHelpCLITests {
    let cli = GeofenceCLITests()

    @Test func actionHelpThroughTheTool() throws {
        for words in [["poi", "stats", "--help"], ["help", "poi", "stats"], ["poi", "--json", "stats", "-h"]] {
            let result = try cli.run(words)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("USAGE: geofence poi stats "), "\(words)")
            #expect(!result.stdout.contains("--category"))
        }
        let nearest = try cli.run(["poi", "nearest", "--category", "atm", "--help"])
        #expect(nearest.stdout.hasPrefix("USAGE: geofence poi nearest "))
        #expect(
            try cli.run(["poi", "--help"]).stdout.hasPrefix(
                "USAGE: geofence poi stats [--areas AREAS.geojson] [--skip-invalid] [--json] FILE\n       geofence poi nearest"))
    }
}
