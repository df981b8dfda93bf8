import CommandSupport
import FastCSV
import GeoCells
import GeoJSON
import Geodesy

/// `geofence contains`: which polygons contain which points.
struct ContainsCommand: Subcommand {
    static let name = "contains"
    static let abstract = "Point-in-polygon with S2's exact semantics (GeoJSON polygons, CSV points)."
    static let help = """
        USAGE: geofence contains --polygons P.geojson --points X.csv

        Reads Polygon and MultiPolygon features (each with an integer or string id) from
        P.geojson and points from X.csv (columns point,lat,lon in degrees; the header line is
        optional: without it the columns are in that order), and writes CSV
        point,polygon with one row per containment: points in file order, then polygons in
        file order. Containment is Google S2's (S2Polygon::Contains): exact, and every point on
        a boundary belongs to exactly one side.

        OPTIONS:
          --polygons P    GeoJSON FeatureCollection or Feature (RFC 7946).
          --points X      CSV point,lat,lon; with a header, columns by name (others ignored).
          -h, --help      Show this help.

        """

    static let options: [Arguments.Option] = [.value("polygons"), .value("points")]

    let polygonsPath: String
    let pointsPath: String

    init(arguments: Arguments) throws(UsageError) {
        polygonsPath = try arguments.required("polygons")
        pointsPath = try arguments.required("points")
    }

    func validate() throws(UsageError) {}

    func run(_ io: ToolIO) -> Int32 {
        guard let features = PolygonInput.load(polygonsPath, io: io) else { return ExitStatus.failure }
        let caps = features.map { $0.polygon.enclosingCap }
        do throws(CSVError) {
            let reader = try CSVReader(path: pointsPath)
            guard let first = try reader.nextRecord() else {
                throw CSVError(.emptyInput, line: 1, column: 0, message: "expected a header line or a point row, found an empty input")
            }
            let hasHeader = CSVHeader.isHeader(first)
            let columns = hasHeader ? try CSVHeader(first).requireIndexes(of: ["point", "lat", "lon"]) : [0, 1, 2]
            io.output.writeRecord(["point", "polygon"])
            func write(_ record: CSVRecord) throws(CSVError) {
                let name = try record.string(at: columns[0])
                guard let lat = record.double(at: columns[1]), (-90...90).contains(lat) else {
                    throw CSVError(
                        .invalidValue, line: record.line, column: columns[1] + 1, columnName: "lat", message: "lat must be a number in [-90, 90]")
                }
                guard let lon = record.double(at: columns[2]), (-180...180).contains(lon) else {
                    throw CSVError(
                        .invalidValue, line: record.line, column: columns[2] + 1, columnName: "lon", message: "lon must be a number in [-180, 180]")
                }
                let p = UnitVector(LatLng(uncheckedLatitude: lat, longitude: lon))
                for (k, feature) in features.enumerated() where caps[k].contains(p) && feature.polygon.contains(p) {
                    io.output.writeField(name)
                    io.output.writeField(feature.id.description)
                    io.output.endRecord()
                }
            }
            if !hasHeader { try write(first) }
            while let record = try reader.nextRecord() { try write(record) }
        } catch {
            io.report(error.formatted(source: pointsPath))
            io.flush()
            return ExitStatus.failure
        }
        io.flush()
        return ExitStatus.success
    }
}
