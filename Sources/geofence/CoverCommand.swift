#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FastCSV
import GeoCells
import GeoJSON
import Geodesy
import CommandSupport

/// `geofence cover`: S2 cell coverings of circular caps, or of GeoJSON polygons.
struct CoverCommand: Subcommand {
    static let name = "cover"
    static let abstract = "S2 cell covering of circular caps or GeoJSON polygons."
    static let columns = ["lat", "lon", "radius_m"]
    static let help = """
        USAGE: geofence cover --max-cells N [--min-level A] [--max-level B] [--level-mod M]
                              [--interior] [--skip-invalid] < caps.csv
               geofence cover --polygons P.geojson --max-cells N [--min-level A] [--max-level B]
                              [--level-mod M] [--interior]

        Reads rows lat,lon,radius_m (degrees, meters; a header line is optional) on standard input
        and writes, for each cap, one line: the tokens of its covering cells, space-separated, in
        increasing cell-id order (no header line). With --polygons it covers each Polygon or
        MultiPolygon feature of P.geojson instead and writes CSV polygon,tokens (the feature's id,
        then its tokens as above), identical to Google S2's S2RegionCoverer.

        OPTIONS:
          --max-cells N   Maximum number of cells per covering (required, N >= 1; a covering may
                          exceed it only when min-level forces more cells).
          --min-level A   Smallest cell level used, 0...30 (default 0). A row whose cap would
                          need more than 1,000,000 cells of level A is a bad row; such a
                          polygon stops the run (status 1, naming its feature).
          --max-level B   Largest cell level used, 0...30 (default 30), B >= A.
          --level-mod M   Use only levels A + k*M, M in 1...3 (default 1).
          --interior      Cover only with cells inside the cap (an interior covering).
          --polygons P    Cover the features of this GeoJSON file (RFC 7946) instead of caps.
          --skip-invalid  Report and skip bad rows, then print "skipped N invalid rows"; exit 0.
          -h, --help      Show this help.

        """

    /// The most cells `--min-level` may force into one covering (one output line).
    static let maxForcedCells = 1_000_000

    /// About how many cells of `minLevel` a cap of `meters` meets: its share of the sphere's
    /// 6 × 4^level cells (the boundary adds a few; the estimate is for refusing, not sizing).
    static func forcedCells(meters: Double, minLevel: Int) -> Double {
        let angle = min(meters / Earth.meanRadius, Double.pi)
        return 6 * pow(4, Double(minLevel)) * (1 - cos(angle)) / 2
    }

    /// About how many cells of `minLevel` a polygon's covering holds at least: its area's share
    /// of the level's 6 × 4^level cells, plus two cells per cell width of boundary (a boundary
    /// meets the cells on both of its sides), plus four per loop. For refusing, as above.
    static func forcedCells(polygon: Polygon, minLevel: Int) -> Double {
        var perimeter = 0.0  // radians
        for e in 0..<polygon.edgeCount {
            let (a, b) = polygon.edge(e)
            perimeter += 2 * asin(min(1, a.chord2(to: b).squareRoot() / 2))
        }
        return 6 * pow(4, Double(minLevel)) * polygon.area / (4 * Double.pi)
            + 2 * perimeter / CellMetric.minWidth.value(level: minLevel) + 4 * Double(polygon.loopCount)
    }

    let maxCells: Int?
    let minLevel: Int
    let maxLevel: Int
    let levelMod: Int
    let interior: Bool
    let skipInvalid: Bool
    let polygonsPath: String?

    static let options: [Arguments.Option] = [
        .value("max-cells"), .value("min-level"), .value("max-level"), .value("level-mod"), .flag("interior"),
        .flag("skip-invalid"), .value("polygons")
    ]

    init(arguments: Arguments) throws(UsageError) {
        maxCells = try arguments.int("max-cells", in: 1...1_000_000)  // a generous sanity cap
        minLevel = try arguments.int("min-level", default: 0, in: 0...30)
        maxLevel = try arguments.int("max-level", default: 30, in: 0...30)
        levelMod = try arguments.int("level-mod", default: 1, in: 1...3)
        interior = arguments.flag("interior")
        skipInvalid = arguments.flag("skip-invalid")
        polygonsPath = arguments.string("polygons")
    }

    func validate() throws(UsageError) {
        guard maxCells != nil else { throw UsageError("missing required option '--max-cells N'") }
        if polygonsPath != nil && skipInvalid {
            throw UsageError("--skip-invalid applies to CSV caps, not to --polygons (a bad polygon stops the run)")
        }
        guard minLevel <= maxLevel else {
            throw UsageError("--min-level \(minLevel) must not exceed --max-level \(maxLevel)")
        }
    }

    func run(_ io: ToolIO) -> Int32 {
        let coverer: CoverBackend
        do {
            coverer = try CoverBackend(
                maxCells: maxCells ?? 8, minLevel: minLevel, maxLevel: maxLevel,
                levelMod: levelMod, interior: interior)
        } catch {
            return GeofenceTool.usageError(error.message, command: Self.name, io: io)
        }
        if let polygonsPath {
            guard let features = PolygonInput.load(polygonsPath, io: io) else { return ExitStatus.failure }
            // --min-level forces every cell of that level the polygon meets: refuse what cannot be listed.
            for feature in features {
                let forced = Self.forcedCells(polygon: feature.polygon, minLevel: minLevel)
                guard forced <= Double(Self.maxForcedCells) else {
                    io.report(
                        "\(polygonsPath):\(feature.line):\(feature.column): feature \(feature.index) at \(feature.path): a covering at "
                            + "--min-level \(minLevel) of this polygon needs about \(Int(forced.rounded())) cells, more than the "
                            + "\(Self.maxForcedCells) one row may list")
                    io.flush()
                    return ExitStatus.failure
                }
            }
            io.output.writeRecord(["polygon", "tokens"])
            for feature in features {
                let cells =
                    interior
                    ? coverer.coverer.interiorCovering(of: feature.polygon)
                    : coverer.coverer.covering(of: feature.polygon)
                io.output.writeField(feature.id.description)
                io.output.writeField(cells.map(\.token).joined(separator: " "))
                io.output.endRecord()
            }
            io.flush()
            return ExitStatus.success
        }
        return RowLoop(columns: Self.columns, skipInvalid: skipInvalid).run(io) { v, out throws(RowError) in
            let center = try LatLng(row: v[0], v[1], latColumn: "lat", lonColumn: "lon")
            let radius = v[2]
            guard radius.isFinite && radius >= 0 else {
                throw RowError(column: "radius_m", message: "radius must be a finite number of meters >= 0, got \(radius)")
            }
            // --min-level forces every cell of that level the cap meets: refuse what cannot be listed.
            let forced = Self.forcedCells(meters: radius, minLevel: minLevel)
            guard forced <= Double(Self.maxForcedCells) else {
                throw RowError(
                    column: "radius_m",
                    message: "a covering at --min-level \(minLevel) of a cap of \(radius) m needs about "
                        + "\(Int(forced.rounded())) cells, more than the \(Self.maxForcedCells) one row may list")
            }
            let tokens = coverer.tokens(center: center, meters: radius)
            out.writeRaw(tokens.joined(separator: " "))
            out.endRecord()
        }
    }
}
