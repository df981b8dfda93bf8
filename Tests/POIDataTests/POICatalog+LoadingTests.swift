import FastCSV
import Foundation
import Geodesy
@testable import POIData
import Testing

/// Every malformed file of `poi_bad/` against its row of `EXPECTED.csv`, plus the loader's rules.
@Suite struct POICatalogLoadingTests {
    static let expected: [[String: String]] = (try? Fixture.expectedBad()) ?? []

    @Test func everyFixtureFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixture.path("poi_bad"))
            .filter { $0.hasSuffix(".csv") && $0 != "EXPECTED.csv" }
        #expect(files.count == 24)  // 8 ok_ + 16 bad_ (the README table says 23)
        #expect(Set(files) == Set(Self.expected.map { $0["file"]! }))
    }

    @Test(arguments: expected)
    func strictMode(row: [String: String]) throws {
        let file = row["file"]!
        let result = load("poi_bad/" + file)
        if row["strict_result"] == "ok" {
            let catalog = try result.get()
            #expect(catalog.count == Int(row["lenient_rows_loaded"]!)!, "\(file)")
            return
        }
        guard case .failure(let error) = result else {
            Issue.record("\(file): loaded, expected an error")
            return
        }
        #expect(error.line == Int(row["strict_error_line"]!)!, "\(file): \(error)")
        let column = row["strict_error_column"]!
        switch file {
        case "bad_semicolon_delimiter.csv":
            // Any missing required column on line 1 is acceptable (EXPECTED's note).
            #expect(error.reason == .missingColumn)
            #expect(["osm_type", "osm_id", "lat", "lon", "name"].contains(error.columnName ?? ""), "\(error)")
        case "bad_extra_field.csv":
            // "column may be reported as 10 / unnamed".
            #expect(error.columnName == nil && error.column == 10, "\(error)")
        default:
            #expect(error.columnName == (column.isEmpty ? nil : column), "\(file): \(error)")
        }
        #expect(!error.message.isEmpty)
        let where_ = error.column == 0 && error.columnName == nil ? "\(error.line)" : "\(error.line):\(error.columnLabel)"
        #expect(error.formatted(source: file).hasPrefix("\(file):\(where_): "), "\(file)")
    }

    @Test(arguments: expected)
    func lenientMode(row: [String: String]) throws {
        let file = row["file"]!
        let result = load("poi_bad/" + file, skipInvalid: true)
        if row["lenient_rows_loaded"] == "error" {
            guard case .failure(let error) = result else {
                Issue.record("\(file): loaded in skip mode, expected a file-level error")
                return
            }
            #expect(!error.reason.isRowLevel, "\(file): \(error)")
            #expect(error.line == Int(row["strict_error_line"]!)!, "\(file): \(error)")
            return
        }
        let catalog = try result.get()
        let skipped = Int(row["lenient_rows_skipped"]!)!
        #expect(catalog.count == Int(row["lenient_rows_loaded"]!)!, "\(file)")
        #expect(catalog.report.skippedCount == skipped, "\(file)")
        #expect(catalog.report.skippedErrors.count == skipped, "\(file)")
        #expect(catalog.report.rowsRead == catalog.count + skipped, "\(file)")
        if skipped > 0 {
            // The first skipped row is the strict mode's error.
            let first = try #require(catalog.report.skippedErrors.first)
            #expect(first.line == Int(row["strict_error_line"]!)!, "\(file)")
        }
    }

    /// The reason each bad file is counted under.
    @Test func skipReasons() throws {
        let cases: [(String, [POIError.Reason: Int])] = [
            ("bad_short_row.csv", [.fieldCount: 1]),
            ("bad_extra_field.csv", [.fieldCount: 1]),
            ("bad_number_lat.csv", [.invalidNumber: 1]),
            ("bad_empty_lon.csv", [.missingCoordinate: 1]),
            ("bad_decimal_comma.csv", [.invalidNumber: 1]),
            ("bad_lat_out_of_range.csv", [.latitudeOutOfRange: 2]),
            ("bad_lon_out_of_range.csv", [.longitudeOutOfRange: 1]),
            ("bad_nan_inf.csv", [.nonFiniteCoordinate: 2]),
            ("bad_osm_id.csv", [.invalidOSMID: 1]),
            ("bad_osm_type.csv", [.invalidOSMType: 1]),
            ("bad_category.csv", [.invalidCategory: 1])
        ]
        for (file, reasons) in cases {
            let catalog = try load("poi_bad/" + file, skipInvalid: true).get()
            #expect(catalog.report.skipped == reasons, "\(file)")
        }
        let fileLevel: [(String, POIError.Reason)] = [
            ("bad_empty.csv", .emptyInput), ("bad_header_missing_lon.csv", .missingColumn),
            ("bad_semicolon_delimiter.csv", .missingColumn), ("bad_unterminated_quote.csv", .malformedCSV),
            ("bad_invalid_utf8.csv", .invalidUTF8)
        ]
        for (file, reason) in fileLevel {
            guard case .failure(let error) = load("poi_bad/" + file, skipInvalid: true) else {
                Issue.record("\(file) loaded")
                continue
            }
            #expect(error.reason == reason, "\(file): \(error)")
        }
    }

    /// Every ok_ variant loads the same 8 POIs as ok_base (the quoted-newline one differs only in
    /// the name with a line break and in the lines after it), whatever the chunk size.
    @Test func okVariantsLoadIdenticalValues() throws {
        let base = try load("poi_bad/ok_base.csv").get()
        #expect(base.count == 8)
        #expect(base.name(at: 2) == "Salon Violettiina, parturi-kampaamo")
        #expect(base.name(at: 6) == "Freddy\"s International")
        #expect(base.category(at: 0) == .atm && base.osmID(at: 0) == 6049453000 && base.osmType(at: 0) == .node)
        for file in [
            "ok_bom.csv", "ok_crlf.csv", "ok_bom_crlf.csv", "ok_no_final_newline.csv", "ok_reordered_columns.csv",
            "ok_quoted_newline.csv"
        ] {
            for chunk in [1, 3, 7, 64, CSVReader.defaultChunkSize] {
                let other = try load("poi_bad/" + file, chunkSize: chunk).get()
                #expect(other.count == 8, "\(file) chunk \(chunk)")
                for i in 0..<min(8, other.count) {
                    let a = base[i], b = other[i]
                    #expect(
                        a.location == b.location && a.category == b.category && a.osmID == b.osmID
                            && a.osmType == b.osmType && a.tags == b.tags, "\(file) row \(i)")
                    if file == "ok_quoted_newline.csv" {
                        if b.name.contains("\n") {
                            #expect(b.name.replacingOccurrences(of: "\n", with: "") != b.name)
                        } else {
                            #expect(a.name == b.name, "\(file) row \(i)")
                        }
                    } else {
                        #expect(a.name == b.name && !b.name.hasSuffix("\r"), "\(file) row \(i)")
                        #expect(a.line == b.line, "\(file) row \(i)")
                    }
                }
            }
        }
        let newline = try load("poi_bad/ok_quoted_newline.csv").get()
        #expect((0..<8).filter { newline.name(at: $0).contains("\n") }.count == 1)
        #expect(newline.lines == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(newline.name(at: 7).contains("\n"))
        #expect(try load("poi_bad/ok_header_only.csv").get().count == 0)
    }

    @Test func columnsAreConfigurable() throws {
        let text = """
            title,longitude,latitude,healthcare,kind
            Apteekki,24.94,60.17,pharmacy,
            "Bank, Main",7.42,43.73,,bank

            """
        var columns = POIColumns(latitude: "latitude", longitude: "longitude", name: "title", category: "kind")
        let catalog = try POICatalog(csv: text, options: POILoadOptions(columns: columns))
        #expect(catalog.count == 2)
        #expect(catalog.location(at: 0) == LatLng(uncheckedLatitude: 60.17, longitude: 24.94))
        #expect(catalog.name(at: 1) == "Bank, Main")
        #expect(catalog.category(at: 0) == .pharmacy)  // healthcare=pharmacy, mapped
        #expect(catalog.category(at: 1) == .bank)  // explicit column
        #expect(catalog.tagNames == ["healthcare"])
        #expect(catalog.osmType(at: 0) == nil && catalog.osmID(at: 0) == nil)
        #expect(catalog.placeID(at: 1) == "poi/1")
        // Without the name column: an error naming it, unless the name is optional.
        let noName = "lat,lon\n1,2\n"
        #expect(throws: POIError.self) { try POICatalog(csv: noName) }
        columns = POIColumns(nameIsOptional: true)
        let unnamed = try POICatalog(csv: noName, options: POILoadOptions(columns: columns))
        #expect(unnamed.count == 1 && unnamed.name(at: 0) == "")
        // Kept tag columns can be restricted.
        columns = POIColumns(tagColumns: ["shop"])
        let few = try POICatalog(csv: "lat,lon,name,amenity,shop,brand\n1,2,x,bank,kiosk,Y\n", options: POILoadOptions(columns: columns))
        #expect(few.tagNames == ["shop"] && few.tags(at: 0) == ["shop": "kiosk"])
        #expect(few.category(at: 0) == .bank)  // the mapping still sees every column
    }

    @Test func explicitCategoryWinsAndAmenityBeatsShop() throws {
        let text = """
            lat,lon,name,amenity,shop,category
            1,1,a,bank,,atm
            1,1,b,fuel,convenience,
            1,1,c,,chemist,
            1,1,d,restaurant,,
            1,1,e,,greengrocer,

            """
        let catalog = try POICatalog(csv: text)
        #expect((0..<5).map { catalog.category(at: $0) } == [.atm, .fuel, .pharmacy, nil, .grocery])
        #expect(catalog.tags(at: 1) == ["amenity": "fuel", "shop": "convenience"])
        #expect(catalog.tag("amenity", at: 3) == "restaurant" && catalog.tag("shop", at: 3) == nil)
        #expect(catalog.countsByCategory == [.atm: 1, .fuel: 1, .pharmacy: 1, .grocery: 1])
        #expect(catalog.uncategorizedCount == 1)
    }

    @Test func duplicatesAreReported() throws {
        let text = """
            osm_type,osm_id,lat,lon,name
            node,5,1,1,a
            way,5,2,2,b
            node,5,3,3,c
            node,6,4,4,d
            node,5,5,5,e

            """
        let catalog = try POICatalog(csv: text)
        #expect(catalog.count == 3)
        #expect(
            catalog.report.duplicates == [
                POIDuplicate(osmType: .node, osmID: 5, firstLine: 2, line: 4),
                POIDuplicate(osmType: .node, osmID: 5, firstLine: 2, line: 6)
            ])
        let kept = try POICatalog(csv: text, options: POILoadOptions(keepDuplicates: true))
        #expect(kept.count == 5 && kept.report.duplicates.count == 2)
    }

    @Test func rowErrorsNameLineColumnAndValue() throws {
        let cases: [(String, String)] = [
            ("lat,lon,name\n1,2,a\n91,0,b\n", "f:3:lat: expected a latitude in [-90, 90] degrees, found \"91\""),
            ("lat,lon,name\n1,,a\n", "f:2:lon: expected a longitude in degrees, found an empty field"),
            ("lat,lon,name\n1,x,a\n", "f:2:lon: expected a longitude as a decimal number, found \"x\""),
            ("lat,lon,name\n-inf,1,a\n", "f:2:lat: expected a finite latitude in degrees, found \"-inf\""),
            ("lat,lon,name\n1e999,1,a\n", "f:2:lat: expected a finite latitude in degrees, found \"1e999\""),
            ("lat,lon,name\n1,2\n", "f:2:name: expected 3 fields (lat,lon,name), found 2"),
            ("osm_id,lat,lon,name\n-3,1,2,a\n", "f:2:osm_id: expected a non-negative integer, found \"-3\""),
            ("lat,name\n1,a\n", "f:1:lon: expected a column named \"lon\" in the header, found lat,name")
        ]
        for (text, message) in cases {
            #expect(throws: POIError.self) { try POICatalog(csv: text) }
            do {
                _ = try POICatalog(csv: text)
            } catch {
                #expect(error.formatted(source: "f") == message)
            }
        }
        // Boundaries are valid.
        let edges = try POICatalog(csv: "lat,lon,name\n90,180,a\n-90,-180,b\n0,0,c\n")
        #expect(edges.count == 3)
        // ±180 is one meridian, so the narrowest arc holding 180, -180 and 0 is 180 degrees wide.
        #expect(edges.boundingBox == LatLngBox(south: -90, north: 90, west: -180, east: 0))
        #expect(edges.locations.allSatisfy { edges.boundingBox.contains($0) })
    }
}
