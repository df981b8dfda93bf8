import Foundation
import Testing

/// `geofence poi stats` reports every repeated OSM element with both lines, in text and JSON,
/// and an empty file's bounding box as none.
@Suite struct PoiStatsDuplicatesTests {
    let cli = GeofenceCLITests()

    /// ok_base.csv with its first data row repeated at the end (line 10).
    func fileWithADuplicate() throws -> String {
        let base = try String(contentsOf: PoiCommandTests.badFolder.appendingPathComponent("ok_base.csv"), encoding: .utf8)
        let lines = base.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rows = lines.filter { !$0.isEmpty }
        #expect(rows.count == 9)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("poi-duplicate-\(UUID().uuidString).csv").path
        try (rows + [rows[1]]).joined(separator: "\n").appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRepeatedElementIsReportedWithBothLines() throws {
        let path = try fileWithADuplicate()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try cli.run(["poi", "stats", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nduplicates: 1\n  node/6049453000: line 10 repeats line 2\n"), "\(text.stdout)")
        let json = try cli.run(["poi", "stats", "--json", path])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["duplicates"] as? Int == 1)
        let rows = try #require(object["duplicate_rows"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["osm_type"] as? String == "node")
        #expect(rows.first?["osm_id"] as? Int == 6_049_453_000)
        #expect(rows.first?["first_line"] as? Int == 2 && rows.first?["line"] as? Int == 10)
    }

    @Test func aFileWithoutRowsHasNoBoundingBox() throws {
        let path = PoiCommandTests.badFolder.appendingPathComponent("ok_header_only.csv").path
        let text = try cli.run(["poi", "stats", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("rows: 0 loaded of 0 read"))
        #expect(text.stdout.hasSuffix("bounding box: none\n"), "\(text.stdout)")
    }
}
