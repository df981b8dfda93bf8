import Testing
@testable import FastCSV

@Suite struct CSVHeaderTests {
    @Test func mapsNamesToIndexes() throws {
        let reader = CSVReader(string: "\u{FEFF}name,lon,lat\nx,2,1\n")
        let header = try CSVHeader(reading: reader)
        #expect(header.names == ["name", "lon", "lat"])
        #expect(header.index(of: "lat") == 2)
        #expect(header.index(of: "Lat") == nil)
        #expect(try header.requireIndexes(of: ["lat", "lon"]) == [2, 1])
    }

    /// One BOM is stripped; a second one (files joined, or saved twice) is in the first name,
    /// which would then match no column: an error at its column, not a silently lost column.
    @Test func aSecondByteOrderMarkIsAnError() {
        #expect {
            try CSVHeader(reading: CSVReader(string: "\u{FEFF}\u{FEFF}osm_type,lat,lon\nnode,1,2\n"))
        } throws: { error in
            guard let e = error as? CSVError else { return false }
            return e.kind == .invalidValue && e.line == 1 && e.column == 1 && e.message.contains("U+FEFF")
        }
        #expect(throws: CSVError.self) { try CSVHeader(reading: CSVReader(string: "lat,\u{FEFF}lon\n")) }
    }

    @Test func missingColumnIsNamed() throws {
        let header = try CSVHeader(reading: CSVReader(bytes: try fixtureBytes("bad_header_missing_lon.csv")))
        do {
            _ = try header.requireIndexes(of: ["lat", "lon"])
            Issue.record("expected a missing column")
        } catch {
            #expect(error.kind == .missingColumn)
            #expect(error.columnName == "lon")
            #expect(error.line == 1)
            #expect(error.formatted(source: "f.csv").hasPrefix("f.csv:1:lon: expected a column named \"lon\""))
        }
    }

    @Test func emptyInputHasNoHeader() {
        #expect(throws: CSVError.self) { try CSVHeader(reading: CSVReader(string: "")) }
    }
}
