import FastCSV
import Geodesy
import Responders

/// Alert regions from CSV `name,lat,lon,radius_m` (header optional): circles on the sphere.
public enum AlertRegionsFile {
    /// Reads `path`: one region per record, in file order; a first record `name,...` is a header.
    /// Names are the metric's label values: not empty, and each once.
    /// - Throws: ``StoreError`` (operation `--regions`) naming the file, line and column of the
    ///   first bad field (`FILE:LINE:COLUMN: message`), or the file when it cannot be opened.
    public static func read(path: String) throws(StoreError) -> [AlertRegion] {
        var regions: [AlertRegion] = []
        var lineOfName: [String: Int] = [:]
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            while let record = try reader.nextRecord() {
                if record.line == 1, record.field(0, equals: "name") { continue }
                func bad(_ column: Int, _ expected: String) -> CSVError {
                    CSVError(
                        .invalidValue, line: record.line, column: column,
                        message: "\(expected), found '\(record.lossyString(at: column - 1))'")
                }
                guard record.count == 4 else {
                    throw CSVError(
                        .fieldCount, line: record.line, column: 0, message: "expected 4 fields (name,lat,lon,radius_m), found \(record.count)")
                }
                let name = try record.string(at: 0)
                guard !name.isEmpty else {
                    throw CSVError(.invalidValue, line: record.line, column: 1, message: "name: expected a region name, found ''")
                }
                if let first = lineOfName[name] {
                    throw CSVError(
                        .invalidValue, line: record.line, column: 1, message: "name: '\(name)' repeats the region of line \(first)")
                }
                lineOfName[name] = record.line
                guard let lat = record.double(at: 1), (-90...90).contains(lat) else { throw bad(2, "lat: expected degrees in -90...90") }
                guard let lon = record.double(at: 2), (-180...180).contains(lon) else { throw bad(3, "lon: expected degrees in -180...180") }
                guard let radius = record.double(at: 3), radius > 0, radius.isFinite else {
                    throw bad(4, "radius_m: expected finite meters > 0")
                }
                regions.append(AlertRegion(name: name, shape: .circle(center: LatLng(uncheckedLatitude: lat, longitude: lon), radiusMeters: radius)))
            }
        } catch {
            // An open failure has no line, and its message names the file already.
            throw StoreError("--regions", error.line == 0 ? error.message : error.formatted(source: path))
        }
        return regions
    }
}
