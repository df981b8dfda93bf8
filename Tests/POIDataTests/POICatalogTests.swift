import FastCSV
import Foundation
import Geodesy
@testable import POIData
import Testing

/// The real OpenStreetMap extract (Helsinki + Monaco), against the counts of its README and
/// against a plain independent reading of the file.
@Suite struct POICatalogTests {
    @Test func taskExtractCountsMatchItsReadme() throws {
        let catalog = try load("pois_osm.csv").get()
        #expect(catalog.count == 126)
        #expect(catalog.countsByCategory == [.bank: 35, .atm: 32, .grocery: 30, .pharmacy: 18, .postOffice: 8, .fuel: 3])
        let types = (0..<catalog.count).map { catalog.osmType(at: $0)! }
        #expect(types.filter { $0 == .node }.count == 122)
        #expect(types.filter { $0 == .way }.count == 3)
        #expect(types.filter { $0 == .relation }.count == 1)
        #expect(catalog.report.duplicates.isEmpty && catalog.report.skippedCount == 0)
    }

    @Test func fullExtractLoadsEveryRow() throws {
        let catalog = try load("pois_osm_all.csv").get()
        #expect(catalog.count == 2649)
        #expect(catalog.report.rowsRead == 2649)
        #expect(catalog.report.duplicates.isEmpty)
        #expect(catalog.tagNames == ["amenity", "shop", "brand"])
        #expect((0..<catalog.count).filter { catalog.name(at: $0).isEmpty }.count == 1099)
        #expect(catalog.countsByCategory.values.reduce(0, +) == 126)
        let first = catalog[0]
        #expect(first.osmType == .node && first.osmID == 56418307 && first.name == "Ravintolalaiva M/S Maria")
        #expect(first.location == LatLng(uncheckedLatitude: 60.1780028, longitude: 24.9528524))
        #expect(first.tags == ["amenity": "restaurant"] && first.category == nil && first.line == 2)
        let names = Set((0..<catalog.count).map { catalog.name(at: $0) })
        #expect(names.contains("Salon Violettiina, parturi-kampaamo"))
        #expect(names.contains("Freddy\"s International"))
        #expect(names.contains { $0.contains("ä") })
        let box = catalog.boundingBox
        #expect(box.south >= 43.5 && box.north <= 60.2 && box.west >= 7.4 && box.east <= 24.96)
    }

    /// Every row against Foundation's own splitting of the file (this file has no quoted
    /// newlines, so one line is one record): coordinates bit-identical to `Double(String)`,
    /// texts identical, the category column identical to the tag mapping's answer.
    @Test func fullExtractAgreesWithAnIndependentReading() throws {
        let catalog = try load("pois_osm_all.csv").get()
        let text = try String(contentsOfFile: Fixture.path("pois_osm_all.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n").dropFirst()
        #expect(lines.count == catalog.count)
        for (i, line) in lines.enumerated() {
            let fields = splitQuoted(String(line))
            #expect(fields.count == 9, "line \(i + 2)")
            guard fields.count == 9 else { continue }
            #expect(catalog.osmType(at: i)?.rawValue == fields[0])
            #expect(catalog.osmID(at: i) == Int64(fields[1]))
            #expect(catalog.location(at: i).latitude == Double(fields[2])!, "line \(i + 2)")
            #expect(catalog.location(at: i).longitude == Double(fields[3])!, "line \(i + 2)")
            #expect(catalog.name(at: i) == fields[4], "line \(i + 2)")
            #expect(catalog.tag("amenity", at: i) ?? "" == fields[5])
            #expect(catalog.tag("shop", at: i) ?? "" == fields[6])
            #expect(catalog.tag("brand", at: i) ?? "" == fields[7])
            #expect(catalog.category(at: i)?.rawValue ?? "" == fields[8], "line \(i + 2)")
            // The explicit column and the standard mapping agree on every real row.
            #expect(OSMCategoryMapping.standard.category(of: catalog.tags(at: i)) == catalog.category(at: i), "line \(i + 2)")
        }
    }

    /// Ignoring the category column (a name the file lacks) gives the same categories by mapping.
    @Test func mappingAloneReproducesTheCategoryColumn() throws {
        let options = POILoadOptions(columns: POIColumns(category: "no_such_column"))
        let mapped = try POICatalog(path: Fixture.path("pois_osm_all.csv"), options: options)
        let explicit = try load("pois_osm_all.csv").get()
        #expect(mapped.tagNames == ["amenity", "shop", "brand", "category"])
        #expect((0..<mapped.count).allSatisfy { mapped.category(at: $0) == explicit.category(at: $0) })
    }

    @Test func missingFileIsAnIOError() {
        #expect(throws: POIError.self) { try POICatalog(path: "/nonexistent/pois.csv") }
        do {
            _ = try POICatalog(path: "/nonexistent/pois.csv")
        } catch {
            #expect(error.reason == .io)
        }
    }
}

/// A minimal RFC 4180 line splitter (no embedded newlines), independent of FastCSV.
func splitQuoted(_ line: String) -> [String] {
    var fields: [String] = []
    var current = ""
    var inQuotes = false
    var chars = Array(line)
    if chars.last == "\r" { chars.removeLast() }
    var i = 0
    while i < chars.count {
        let c = chars[i]
        if inQuotes {
            if c == "\"" {
                if i + 1 < chars.count && chars[i + 1] == "\"" { current.append("\""); i += 1 } else { inQuotes = false }
            } else {
                current.append(c)
            }
        } else if c == "\"" {
            inQuotes = true
        } else if c == "," {
            fields.append(current)
            current = ""
        } else {
            current.append(c)
        }
        i += 1
    }
    fields.append(current)
    return fields
}
