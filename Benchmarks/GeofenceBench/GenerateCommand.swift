import CommandSupport
import Workloads

/// `geofence-bench generate --pois N --devices D --fixes F --seed S [--noise gaussian|realistic] --out DIR`
struct GenerateCommand: BenchSubcommand {
    static let name = "generate"
    static let help = """
        geofence-bench generate [--pois N] [--devices D] [--fixes F] [--seed S] [--noise realistic|gaussian] --out DIR
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
        """

    static let options: [Arguments.Option] = [
        .value("pois"), .value("devices"), .value("fixes"), .value("seed"), .value("noise"), .value("out")
    ]

    /// Bytes the generator holds per fix (seven columns, twice while sorting by time).
    static let bytesPerFix = 128
    /// Bytes per POI (three fences of about 40 bytes).
    static let bytesPerPOI = 3 * 48

    let spec: WorkloadSpec
    let out: String

    init(arguments args: Arguments) throws(UsageError) {
        let pois = try args.int("pois", default: 10_000, in: 0...Int.max)
        let fixes = try args.int("fixes", default: 1_000_000, in: 0...Int.max)
        try MemoryBudget.check(pois, bytesEach: Self.bytesPerPOI, option: "pois")
        try MemoryBudget.check(fixes, bytesEach: Self.bytesPerFix, option: "fixes")
        spec = WorkloadSpec(
            pois: pois,
            devices: try args.int("devices", default: 1_000, in: 1...BenchLimits.maxDevices),
            fixes: fixes,
            seed: UInt64(try args.int("seed", default: 1, in: 0...Int.max)),
            noise: try args.choice("noise", default: NoiseModel.realistic))
        out = try args.required("out")
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
        printError(
            "wrote \(workload.fences.count) fences and \(workload.fixes.count) fixes to \(out) "
                + "in \(formatFixed(monotonicSeconds() - start, 2)) s")
    }
}
