import FastCSV
import Geodesy
import CommandSupport

/// `geofence cell`: the S2 cell containing each point, at a chosen level.
struct CellCommand: Subcommand {
    static let name = "cell"
    static let abstract = "S2 cell id and token of each point."
    static let columns = ["lat", "lon"]
    static let help = """
        USAGE: geofence cell [--level L] [--skip-invalid] < points.csv

        Reads rows lat,lon (degrees; a header line is optional) on standard input and writes
        id,token: the S2 cell containing the point at level L, as an unsigned decimal id and as
        its token (lower-case hex without trailing zeros).

        OPTIONS:
          --level L       Cell level, 0...30 (default 30, leaf cells of about 1 cm).
          --skip-invalid  Report and skip bad rows, then print "skipped N invalid rows"; exit 0.
          -h, --help      Show this help.

        """

    let level: Int
    let skipInvalid: Bool

    static let options: [Arguments.Option] = [.value("level"), .flag("skip-invalid")]

    init(arguments: Arguments) throws(UsageError) {
        level = try arguments.int("level", default: 30, in: 0...30)
        skipInvalid = arguments.flag("skip-invalid")
    }

    func validate() throws(UsageError) {}

    func run(_ io: ToolIO) -> Int32 {
        io.output.writeRecord(["id", "token"])
        let level = self.level
        return RowLoop(columns: Self.columns, skipInvalid: skipInvalid).run(io) { v, out throws(RowError) in
            let point = try LatLng(row: v[0], v[1], latColumn: "lat", lonColumn: "lon")
            let (id, token) = CellBackend.cell(point, level: level)
            out.writeField(id)
            out.writeField(token)
            out.endRecord()
        }
    }
}
