import CommandSupport
import JSON
import Workloads

/// `geofence-bench generate --pois N --devices D --fixes F --seed S [--noise gaussian|realistic] [--polygons P] --out DIR [--json]`
struct GenerateCommand: BenchSubcommand {
    static let name = "generate"
    static let help = """
        geofence-bench generate [--pois N] [--devices D] [--fixes F] [--seed S] [--noise realistic|gaussian]
                                [--polygons P] --out DIR [--json]
          Writes three files into DIR (created if missing) for a seeded synthetic world: POIs clustered
          around US cities, 1/3/5-mile fences, devices that dwell, walk and drive:
            fences.csv   id,lat,lon,radius_m,poi_id,tier   (three fences per POI)
            fixes.csv    device,t,lat,lon,accuracy_m       (exactly F fixes, sorted by t: F / D per device,
                                                            one more for the first F mod D devices)
            truth.csv    true_lat,true_lon                 (row k: the noise-free position of fix k)
          Defaults: --pois 10000 --devices 1000 --fixes 1000000 --seed 1 --noise realistic.
          realistic noise: correlated error, 6 % coarse fixes, 1.5 % multipath outliers; gaussian:
          independent error with sigma = accuracy / 2. The same options give the same files, byte for
          byte. The formats are described in docs/WORKLOADS.md.
          --polygons P adds P polygon fences (concave star shapes the size of buildings, campuses and
          parks, a quarter with a hole) after the circles, and the devices travel from polygon to
          polygon and stay inside each for 5-45 minutes:
            polygons.geojson  one Polygon feature per polygon fence, integer id = fence id
          Each polygon's row in fences.csv is its enclosing circle; truth.csv decides inside and outside
          of the polygon exactly (docs/POLYGONS.md).
          --json prints one JSON object on stdout once the files are written: out, fences (rows of
          fences.csv), polygons, fixes, devices, seed, noise, seconds.
        """

    static let options: [Arguments.Option] = [
        .value("pois"), .value("devices"), .value("fixes"), .value("seed"), .value("noise"), .value("polygons"), .value("out"), .flag("json")
    ]

    /// Bytes the generator holds per fix (seven columns, twice while sorting by time).
    static let bytesPerFix = 128
    /// Bytes per POI (three fences of about 40 bytes).
    static let bytesPerPOI = 3 * 48
    /// Bytes per polygon fence (its rings, its GeoCells polygon with index while checked, a row).
    static let bytesPerPolygon = 4_096

    let spec: WorkloadSpec
    let out: String
    let json: Bool

    init(arguments args: Arguments) throws(UsageError) {
        let pois = try args.int("pois", default: 10_000, in: 0...Int.max)
        let fixes = try args.int("fixes", default: 1_000_000, in: 0...Int.max)
        try MemoryBudget.check(pois, bytesEach: Self.bytesPerPOI, option: "pois")
        try MemoryBudget.check(fixes, bytesEach: Self.bytesPerFix, option: "fixes")
        let polygons = try args.int("polygons", default: 0, in: 0...Int(Int32.max))
        try MemoryBudget.check(polygons, bytesEach: Self.bytesPerPolygon, option: "polygons")
        spec = WorkloadSpec(
            pois: pois,
            devices: try args.int("devices", default: 1_000, in: 1...BenchLimits.maxDevices),
            fixes: fixes,
            seed: UInt64(try args.int("seed", default: 1, in: 0...Int.max)),
            noise: try args.choice("noise", default: NoiseModel.realistic),
            polygons: polygons)
        out = try args.required("out")
        json = args.flag("json")
    }

    func execute() throws {
        let start = monotonicSeconds()
        let workload = WorkloadGenerator.make(spec)
        do {
            try makeDirectory(out)
            try WorkloadWriter.write(workload, toDirectory: out)
        } catch {
            throw BenchError("\(error)")
        }
        let seconds = monotonicSeconds() - start
        printError(
            "wrote \(workload.fences.count) fences (\(workload.polygons.count) polygons) and \(workload.fixes.count) fixes to \(out) "
                + "in \(formatFixed(seconds, 2)) s")
        if json {
            var o = JSONObject()
            o.set("out", out)
            o.set("fences", workload.fences.count)
            o.set("polygons", workload.polygons.count)
            o.set("fixes", workload.fixes.count)
            o.set("devices", spec.devices)
            o.set("seed", Int(spec.seed))
            o.set("noise", spec.noise.rawValue)
            o.set("seconds", seconds, decimals: 3)
            print(o.text)
        }
    }
}
