import CommandSupport
import Drawing
import Maps

/// `geofence draw`: an SVG map of the CSVs the other commands read (the layout is
/// ``MapRequest`` in the Maps module; this only parses and writes).
struct DrawCommand: Subcommand {
    static let name = "draw"
    static let abstract = "An SVG map of fences, polygons, S2 covers, POIs and a trajectory with its events."
    static let help = """
        USAGE: geofence draw [--fences F] [--polygons G] [--pois P] [--fixes X] [--device D] [--dwell S] [--cover N]
                             [--projection mercator|equirectangular] [--width W] [--height H]
                             [--title T] [--out FILE.svg]

        Draws a map as SVG (standard output, or --out FILE) from the files the other commands
        and geofence-bench read and write:
          --fences F      fences.csv (id,lat,lon,radius_m[,poi_id,tier]), as written by
                          'geofence poi fences' or 'geofence-bench generate': each fence is its
                          true great-circle outline.
          --polygons G    a GeoJSON file of Polygon and MultiPolygon features (as 'geofence contains'
                          reads): each polygon filled (holes empty) with its minimum enclosing
                          circle dashed: the circle the OS watches for a polygon fence.
          --pois P        a POI CSV (see Data/README.md): a dot per POI, named when there are
                          at most 40.
          --fixes X       fixes.csv (device,t,lat,lon,accuracy_m): the trajectory of one device,
                          with the transition detector's enter (green triangle), exit (red
                          triangle) and dwell (purple square) events over the drawn fences (each
                          device's fixes must be in time order). Only
                          fences within 1 km of the trajectory are drawn (the map says how many).
          --device D      the device to draw (default: the device of the first fix).
          --dwell S       give every drawn fence a dwell time of S seconds, so the detector also
                          reports dwells (fences.csv carries no dwell times; default: none).
          --cover N       also draw each fence's and polygon's S2 covering of at most N cells (1...64).
          --projection P  mercator (Web Mercator, the default) or equirectangular.
          --width W, --height H
                          canvas size in pixels (default 1000 x 720; 200...8000).
          --title T       the heading (default: the file names).
          --out FILE      write the SVG to FILE instead of standard output (never one of
                          the input files).
        F, P or X may be '-' for standard input (one of them). The view fits the content, across
        the antimeridian when the content is there, with a latitude/longitude graticule and a
        scale bar. A bad row ends the run with status 1 and FILE:LINE:COLUMN: message.
          -h, --help      Show this help.

        """

    static let options: [Arguments.Option] = [
        .value("fences"), .value("polygons"), .value("pois"), .value("fixes"), .value("device"), .value("dwell"), .value("cover"),
        .value("projection"),
        .value("width"), .value("height"), .value("title"), .value("out")
    ]

    let request: MapRequest
    let outputPath: String?

    init(arguments: Arguments) throws(UsageError) {
        var request = MapRequest()
        func path(_ name: String) -> String? { arguments.string(name).map { $0 == "-" ? "/dev/stdin" : $0 } }
        request.fencesPath = path("fences")
        request.polygonsPath = path("polygons")
        request.poisPath = path("pois")
        request.fixesPath = path("fixes")
        if let device = try arguments.int("device", in: 0...Int(Int32.max)) { request.device = Int32(device) }
        request.dwellSeconds = try arguments.double("dwell", in: 0...86_400)
        request.coverMaxCells = try arguments.int("cover", in: 1...64)
        request.projection = try arguments.choice("projection", default: MapProjection.webMercator)
        request.width = try arguments.double("width", default: 1000, in: 200...8000)
        request.height = try arguments.double("height", default: 720, in: 200...8000)
        request.title = arguments.string("title")
        self.request = request
        outputPath = arguments.string("out")
    }

    func validate() throws(UsageError) {
        let paths = [request.fencesPath, request.polygonsPath, request.poisPath, request.fixesPath].compactMap { $0 }
        if paths.isEmpty { throw UsageError("nothing to draw: give --fences, --polygons, --pois or --fixes") }
        if paths.filter({ $0 == "/dev/stdin" }).count > 1 { throw UsageError("only one file can be '-' (standard input)") }
        if request.device != nil && request.fixesPath == nil { throw UsageError("--device needs --fixes") }
        if request.dwellSeconds != nil && request.fixesPath == nil { throw UsageError("--dwell needs --fixes") }
        try FileIdentity.refuseOverwriting(
            outputPath, option: "out",
            inputs: [
                ("fences", request.fencesPath), ("polygons", request.polygonsPath), ("pois", request.poisPath),
                ("fixes", request.fixesPath)
            ])
    }

    func run(_ io: ToolIO) -> Int32 {
        do {
            let svg = try request.picture().render().fileText
            if let outputPath {
                try TextFile.write(svg, to: outputPath)
            } else {
                io.output.writeRaw(svg)
            }
            io.flush()
            return ExitStatus.success
        } catch {
            io.report("geofence draw: \(error)")
            io.flush()
            return ExitStatus.failure
        }
    }
}
