import IndexBenchmark
import SpatialIndex
import Workloads
import CommandSupport

/// The default suite: every index at 1k, 10k and 100k POIs (3 fences each; `--large` adds 1M)
/// against one stream of 1M fixes from the embedded generator, so cost can be read against the
/// number of fences.
struct SuiteCommand: BenchSubcommand {
    static let name = ""
    static let help = """
        geofence-bench [--json] [--large] [--quick] [--fixes N] [--seed S]
          Every index at 1k, 10k and 100k POIs (3 fences each; --large adds 1M, --quick runs 100,000 fixes
          at 1k and 10k only) against one stream of N fixes (default 1,000,000) from the embedded
          generator, seed S (default 1), one thread. Progress on stderr; a table on stdout, or one JSON
          object per measurement with --json. geofence-bench COMMAND --help describes each command.
        """

    static let options: [Arguments.Option] = [.flag("json"), .flag("large"), .flag("quick"), .value("fixes"), .value("seed")]

    let json: Bool, large: Bool, quick: Bool
    let fixCount: Int
    let seed: UInt64

    init(arguments args: Arguments) throws(UsageError) {
        json = args.flag("json")
        large = args.flag("large")
        quick = args.flag("quick")
        fixCount = try args.int("fixes", default: args.flag("quick") ? 100_000 : 1_000_000, in: 1...Int.max)
        try MemoryBudget.check(fixCount, bytesEach: GenerateCommand.bytesPerFix, option: "fixes")
        seed = UInt64(try args.int("seed", default: 1, in: 0...Int.max))
    }

    func execute() throws {

        var sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]
        if large { sizes.append(1_000_000) }
        let spec = WorkloadSpec(pois: 0, devices: 1_000, fixes: fixCount, seed: seed, noise: .gaussian)
        printError("generating \(fixCount) fixes (seed \(seed), gaussian noise) ...")
        let fixes = WorkloadGenerator.fixes(spec)
        let input = StabInput(fixes, threads: 1)
        var results: [Measurement] = []
        for pois in sizes {
            var fenceSpec = spec
            fenceSpec.pois = pois
            let fences = try makeFences(WorkloadGenerator.fences(fenceSpec))
            for kind in IndexKind.available {
                // Brute force is the reference only where it finishes quickly.
                if kind == .brute && fences.count > 3_000 { continue }
                let reps = fences.count >= 300_000 ? 1 : 3
                let stride = fences.count >= 300_000 ? 10 : 1
                let m = try measure(kind, fences: fences, input: input, threads: 1, reps: reps, statsStride: stride) {
                    printError("[\(pois / 1000)k POIs, \(kind.label)] \($0)")
                }
                if let reference = results.last(where: { $0.fences == m.fences }), reference.totals != m.totals {
                    throw BenchError("\(m.kind.label) disagrees with \(reference.kind.label) at \(m.fences) fences")
                }
                results.append(m)
                if json { print(jsonLine(m)) }
            }
        }
        if !json {
            print(
                "geofence-bench suite: \(fixCount) fixes, 1,000 devices, seed \(seed), one thread; "
                    + "query time is the median of 3 runs (1 run at >= 300k fences) after a warm-up")
            print(table(results))
            print(
                "cand FP: candidates the exact test rejected / candidates (a candidate is a fence tested "
                    + "exactly or, in LatLngGridIndex interior cells, accepted with no test); B/fence: the index's own "
                    + "bytes per fence; RSS: the process's peak so far")
        }
    }
}
