import FastCSV
import Foundation
@testable import POIData

/// Fixture paths, located from this file (no SwiftPM resources): `poi_bad/...` is the package's
/// malformed-CSV set in `Tests/Fixtures/`, any other name a POI file of `Data/`.
enum Fixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ name: String) -> String {
        let folder = name == "poi_bad" || name.hasPrefix("poi_bad/") ? "Tests/Fixtures" : "Data"
        return packageRoot.appendingPathComponent(folder).appendingPathComponent(name).path
    }

    /// `poi_bad/EXPECTED.csv` as rows of name -> value.
    static func expectedBad() throws -> [[String: String]] {
        let reader = try CSVReader(path: path("poi_bad/EXPECTED.csv"))
        let header = try CSVHeader(reading: reader)
        var rows: [[String: String]] = []
        while let record = try reader.nextRecord() {
            var row: [String: String] = [:]
            for (i, name) in header.names.enumerated() { row[name] = try record.string(at: i) }
            rows.append(row)
        }
        return rows
    }
}

/// Loads a fixture, returning the catalog or the error.
func load(_ name: String, skipInvalid: Bool = false, chunkSize: Int = CSVReader.defaultChunkSize) -> Result<POICatalog, POIError> {
    do throws(POIError) {
        let reader: CSVReader
        do { reader = try CSVReader(path: Fixture.path(name), chunkSize: chunkSize) } catch { throw POIError(error) }
        return .success(try POICatalog(reader: reader, options: POILoadOptions(skipInvalid: skipInvalid)))
    } catch {
        return .failure(error)
    }
}
