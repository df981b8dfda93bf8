import Simulation

/// `geofence-bench generate --pois N --devices D --fixes F --seed S [--noise gaussian|realistic] --out DIR`
struct GenerateCommand {
    static let help = """
    geofence-bench generate --pois N --devices D --fixes F --seed S [--noise realistic|gaussian] --out DIR
      Writes fences.csv, fixes.csv and truth.csv (DESIGN.md's formats) for a seeded synthetic world:
      POIs clustered around US cities, 1/3/5-mile fences, devices that dwell, walk and drive.
    """

    static func run(_ args: inout Arguments) throws(BenchError) {
        let spec = WorkloadSpec(
            pois: try args.int("pois", default: 10_000),
            devices: max(1, try args.int("devices", default: 1_000)),
            fixes: try args.int("fixes", default: 1_000_000),
            seed: UInt64(try args.int("seed", default: 1)),
            noise: try noiseModel(args.string("noise")))
        guard let out = args.string("out") else { throw .usage("generate needs --out DIR") }
        try args.checkAllConsumed()
        let start = monotonicSeconds()
        let workload = WorkloadGenerator.make(spec)
        do {
            try makeDirectory(out)
            try WorkloadWriter.write(workload, toDirectory: out)
        } catch {
            throw .failed("\(error)")
        }
        printError("wrote \(workload.fences.count) fences and \(workload.fixes.count) fixes to \(out) "
            + "in \(formatFixed(monotonicSeconds() - start, 2)) s")
    }

    static func noiseModel(_ s: String?) throws(BenchError) -> NoiseModel {
        guard let s else { return .realistic }
        guard let m = NoiseModel(rawValue: s) else { throw .usage("--noise must be realistic or gaussian, got '\(s)'") }
        return m
    }
}
