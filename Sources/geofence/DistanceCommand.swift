import FastCSV
import Geodesy
import CommandSupport

/// `geofence distance`: great-circle distance and initial bearing for each pair of points.
struct DistanceCommand: Subcommand {
    static let name = "distance"
    static let abstract = "Great-circle distance and initial bearing between two points."
    static let columns = ["lat1", "lon1", "lat2", "lon2"]
    static let help = """
        USAGE: geofence distance [--skip-invalid] < pairs.csv

        Reads rows lat1,lon1,lat2,lon2 (degrees; a header line is optional) on standard input and
        writes haversine_m,initial_bearing_deg: the great-circle distance in meters on the sphere of
        radius 6371008.8 m, and the initial bearing at the first point in degrees clockwise from
        north, in [0, 360).

        OPTIONS:
          --skip-invalid  Report and skip bad rows, then print "skipped N invalid rows"; exit 0.
          -h, --help      Show this help.

        """

    let skipInvalid: Bool

    static let options: [Arguments.Option] = [.flag("skip-invalid")]

    init(arguments: Arguments) throws(UsageError) {
        skipInvalid = arguments.flag("skip-invalid")
    }

    func validate() throws(UsageError) {}

    func run(_ io: ToolIO) -> Int32 {
        io.output.writeRecord(["haversine_m", "initial_bearing_deg"])
        return RowLoop(columns: Self.columns, skipInvalid: skipInvalid).run(io) { v, out throws(RowError) in
            let a = try LatLng(row: v[0], v[1], latColumn: "lat1", lonColumn: "lon1")
            let b = try LatLng(row: v[2], v[3], latColumn: "lat2", lonColumn: "lon2")
            out.writeField(haversineDistance(a, b))
            out.writeField(initialBearing(from: a, to: b))
            out.endRecord()
        }
    }
}
