import FastCSV
import Geodesy
import Responders

/// Alert regions from CSV `name,lat,lon,radius_m` (header optional): circles on the sphere.
public enum AlertRegionsFile {
    /// Reads `path`.
    /// - Throws: ``StoreError`` naming the file, line and column of the first bad field.
    public static func read(path: String) throws(StoreError) -> [AlertRegion] {
        var regions: [AlertRegion] = []
        do {
            let reader = try CSVReader(path: path)
            while let record = try reader.nextRecord() {
                if record.line == 1, record.field(0, equals: "name") { continue }
                guard record.count == 4 else { throw StoreError("--regions", "\(path):\(record.line): expected name,lat,lon,radius_m") }
                let name = try record.string(at: 0)
                guard let lat = record.double(at: 1), (-90...90).contains(lat) else { throw StoreError("--regions", "\(path):\(record.line):2: lat") }
                guard let lon = record.double(at: 2), (-180...180).contains(lon) else {
                    throw StoreError("--regions", "\(path):\(record.line):3: lon")
                }
                guard let radius = record.double(at: 3), radius > 0, radius.isFinite else {
                    throw StoreError("--regions", "\(path):\(record.line):4: radius_m must be > 0")
                }
                regions.append(AlertRegion(name: name, shape: .circle(center: LatLng(uncheckedLatitude: lat, longitude: lon), radiusMeters: radius)))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("--regions", "\(error)")
        }
        return regions
    }
}
