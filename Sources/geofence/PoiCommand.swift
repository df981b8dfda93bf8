import FastCSV
import GeoJSON
import Geodesy
import POIData
import CommandSupport

/// `geofence poi stats|nearest|fences ... FILE`: OpenStreetMap POI CSVs (see Data/README.md).
///
/// Parsing and validation only; the work is in ``PoiCommand/run(_:)`` and its per-action
/// extensions (`PoiCommand+Stats.swift`, `+Nearest`, `+Fences`) over the POIData library.
struct PoiCommand: Subcommand {
    static let name = "poi"
    static let abstract = "OpenStreetMap POI files: stats, nearest of a category, tiered fences."
    static let help = """
        USAGE: geofence poi stats [--areas AREAS.geojson] [--skip-invalid] [--json] FILE
               geofence poi nearest --category C --lat L --lon L [--limit K] [--max-km D]
                                    [--skip-invalid] [--json] FILE
               geofence poi fences --category C --lat L --lon L [--limit K] [--max-km D]
                                   [--areas AREAS.geojson [--polygons-out P.geojson]]
                                   [--skip-invalid] FILE

        Reads a POI CSV (columns found by header name: lat, lon, name, and any of osm_type,
        osm_id, category and tag columns such as amenity, shop, brand; see Data/README.md).
        FILE may be '-' for standard input. A bad row ends the run with status 1 and
        FILE:LINE:COLUMN: message on standard error, unless --skip-invalid.

          stats    Rows loaded, POIs per category, rows skipped by reason, duplicate
                   (osm_type, osm_id) pairs, bounding box. --json: one JSON object whose
                   "rows" is the number of POIs loaded and "skipped" maps reasons to counts.
                   With --areas, also the outlines matched to POIs, how many of those POIs
                   have a task category, and how many outlines are unused.
          nearest  The K POIs of category C nearest to (L, L), within D km: CSV
                   rank,distance_m,poi_id,osm_type,osm_id,name,category,lat,lon
                   (distance in meters on the sphere of radius 6371008.8 m, to 0.1 m;
                   poi_id = 0-based position among the POIs loaded), or --json.
          fences   The tiered fences of the task "near a C" for those POIs, as fences.csv
                   id,lat,lon,radius_m,poi_id,tier: approach rings of 5, 3 and 1 miles per
                   POI (tier 0 = the 1-mile ring). With --areas, a POI with an outline also
                   gets an arrival fence that is the outline (its row: the outline's minimum
                   enclosing circle, tier 0, the rings after it), and a column outline gives
                   the outline's feature id (empty for circles).

        OPTIONS:
          --category C    fuel, pharmacy, grocery, bank, atm or post_office.
          --lat L, --lon L
                          The location, degrees.
          --limit K       Number of POIs, 1...10000 (default 5).
          --max-km D      Only POIs within D kilometers (default: no limit).
          --areas A       (stats, fences) The POI outlines written with FILE by 'scripts/osm-pois
                          --areas A': feature id = the POI's 0-based row in FILE, properties
                          osm_type, osm_id and category equal to the row's. A feature that
                          disagrees with FILE ends the run with status 1 and
                          A:LINE:COLUMN: feature N at JSON-PATH: message.
          --polygons-out P
                          (fences, with --areas) Also write the outline fences to P as GeoJSON,
                          feature id = fence id: with the CSV, the fences and polygons that
                          'geofence-bench transitions' and 'geofence draw' read.
          --skip-invalid  Skip bad rows (each reported on standard error) and count them.
          --json          JSON instead of text (stats) or CSV (nearest).
          -h, --help      Show this help.

        """

    enum Action: String, CaseIterable {
        case stats, nearest, fences
    }

    let action: Action
    let path: String
    let skipInvalid: Bool
    let json: Bool
    let category: POICategory?
    let location: LatLng?
    let limit: Int
    let maxMeters: Double
    /// `--areas`: the POI outlines GeoJSON, or nil.
    let areasPath: String?
    /// `--polygons-out`: where to write the outline fences' GeoJSON, or nil.
    let polygonsOutPath: String?

    static let options: [Arguments.Option] = [
        .flag("skip-invalid"), .flag("json"), .value("category"), .value("lat"), .value("lon"), .value("limit"),
        .value("max-km"),
        .value("areas"), .value("polygons-out")
    ]
    /// The action word and FILE.
    static let maxPositionals = 2

    /// The options each action takes (a subset of ``options``).
    static func options(of action: Action) -> Set<String> {
        switch action {
        case .stats: return ["skip-invalid", "json", "areas"]
        case .nearest: return Set(options.map(\.name)).subtracting(["areas", "polygons-out"])
        case .fences: return Set(options.map(\.name)).subtracting(["json"])
        }
    }

    init(arguments: Arguments) throws(UsageError) {
        let words = Action.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = arguments.positionals.first else { throw UsageError("expected an action: \(words)") }
        guard let action = Action(rawValue: first) else { throw UsageError("unknown action '\(first)' (expected \(words))") }
        self.action = action
        for option in Self.options where !Self.options(of: action).contains(option.name) {
            let given = option.takesValue ? arguments.string(option.name) != nil : arguments.flag(option.name)
            if given { throw UsageError("unknown option '--\(option.name)' for 'poi \(action.rawValue)'") }
        }
        guard arguments.positionals.count == 2 else {
            throw UsageError("missing FILE (a POI CSV, or '-' for standard input)")
        }
        path = arguments.positionals[1]
        skipInvalid = arguments.flag("skip-invalid")
        json = arguments.flag("json")
        let categoryText = arguments.string("category")
        let latText = arguments.string("lat")
        let lonText = arguments.string("lon")
        limit = action == .stats ? 0 : try arguments.int("limit", default: 5, in: 1...10_000)  // 5: a screenful
        let maxText = arguments.string("max-km")
        areasPath = arguments.string("areas")
        polygonsOutPath = arguments.string("polygons-out")

        if action == .stats {
            category = nil
            location = nil
            maxMeters = .infinity
            return
        }
        guard let categoryText else { throw UsageError("missing required option '--category C'") }
        guard let c = POICategory(name: categoryText) else {
            let names = POICategory.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("option '--category': unknown category '\(categoryText)' (expected one of \(names))")
        }
        category = c
        guard latText != nil, lonText != nil else { throw UsageError("missing required options '--lat L --lon L'") }
        // Each option named with its range: "option '--lat' expects a finite number in -90...90, got 'nan'".
        let lat = try arguments.double("lat", default: 0, in: -90...90)
        let lon = try arguments.double("lon", default: 0, in: -180...180)
        location = LatLng(uncheckedLatitude: lat, longitude: lon)
        if let maxText {
            guard let km = Double(maxText), km.isFinite, km >= 0 else {
                throw UsageError("--max-km expects a number of kilometers >= 0, got '\(maxText)'")
            }
            maxMeters = km * 1000
        } else {
            maxMeters = .infinity
        }
    }

    func validate() throws(UsageError) {
        guard let polygonsOutPath else { return }
        guard areasPath != nil else { throw UsageError("--polygons-out needs --areas (the outlines to write)") }
        try FileIdentity.refuseOverwriting(
            polygonsOutPath, option: "polygons-out", inputs: [("areas", areasPath), ("FILE", path == "-" ? nil : path)])
    }

    func run(_ io: ToolIO) -> Int32 {
        let catalog: POICatalog
        do throws(POIError) {
            let reader: CSVReader
            if path == "-" {
                reader = io.input
            } else {
                do { reader = try CSVReader(path: path) } catch { throw POIError(.io, line: 0, column: 0, message: error.message) }
            }
            catalog = try POICatalog(reader: reader, options: POILoadOptions(skipInvalid: skipInvalid))
        } catch {
            io.report(error.reason == .io ? "geofence poi: \(error.message)" : error.formatted(source: sourceName))
            io.flush()
            return ExitStatus.failure
        }
        for error in catalog.report.skippedErrors { io.report(error.formatted(source: sourceName)) }
        var outlines: POIOutlines?
        if let areasPath {
            do throws(GeoJSONError) {
                outlines = try POIOutlines(path: areasPath, catalog: catalog)
            } catch {
                io.report(error.line == 0 ? "geofence poi: \(error.message)" : error.formatted(source: areasPath))
                io.flush()
                return ExitStatus.failure
            }
            for notice in outlines!.unused { io.report(notice.formatted(source: areasPath)) }
        }
        switch action {
        case .stats: writeStats(catalog, outlines: outlines, io)
        case .nearest: writeNearest(catalog, io)
        case .fences:
            if let status = writeFences(catalog, outlines: outlines, io) { return status }
        }
        io.flush()
        if let reason = io.output.writeError {
            io.report("geofence: cannot write output: \(reason)")
            io.flush()
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// The input's name in messages.
    var sourceName: String { path == "-" ? "stdin" : path }

    /// A distance in meters rounded to 0.1 m (written in its shortest form, `1234.5`).
    static func roundedToDecimeter(_ meters: Double) -> Double { (meters * 10).rounded() / 10 }
}
