#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Simulation

/// geofence-bench: streams GPS fixes through the package's indexes and reports throughput,
/// memory and candidate false-positive rates. Thin over Simulation and the libraries.
let usage = """
geofence-bench — throughput, memory and accuracy of the geofencing indexes

USAGE
  geofence-bench [--json] [--large] [--quick]   the default suite on the embedded synthetic workload
  geofence-bench stab --fences F --fixes X [--index packed|dynamic|cells|brute] [--threads N] [--json]
  geofence-bench poi [--pois FILE] [--rows N] [--queries Q] [--k K] [--seed S] [--reps R] [--json]
  geofence-bench transitions --fences F --fixes X --truth T [--events-out E.csv] [--json] [--sweep]
  geofence-bench plan --fences F --fixes X --truth T [--cap N] [--json]   region selection under an OS cap
  geofence-bench nudges --fences F --fixes X [--truth T] [--preferences P] [--epoch ISO8601] [--out N.csv] [--json]
  geofence-bench generate --pois N --devices D --fixes F --seed S [--noise realistic|gaussian] --out DIR
  geofence-bench --help

Build with `swift build -c release` (or `swift run -c release geofence-bench`): numbers from a
debug build are meaningless, and the tool says so on stderr.
"""

func runMain() -> Int32 {
    var raw = Array(CommandLine.arguments.dropFirst())
    let command = raw.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
    if command != nil { raw.removeFirst() }
    do throws(BenchError) {
        var args = try Arguments(raw, valued: [
            "fences", "fixes", "index", "threads", "pois", "devices", "seed", "noise", "out", "reps",
            "rows", "queries", "k",
            "truth", "events-out", "hysteresis", "radius-fraction", "accuracy-factor", "max-accuracy",
            "enter-confirm", "exit-confirm", "min-dwell", "max-speed", "slack",
            "cap", "margin", "pass", "delay", "significant-change", "min-refresh", "min-refresh-seconds", "crowded", "catch-up",
            "lead-seconds", "lead-min-speed", "max-unguarded", "wake-gate", "wake-exit-gate", "wake-confirm",
            "motion-max-accuracy", "preferences", "epoch",
        ])
        if args.flag("help") {
            switch command {
            case "generate": print(GenerateCommand.help)
            case "stab": print(StabCommand.help)
            case "transitions": print(TransitionsCommand.help)
            case "plan": print(PlanCommand.help)
            case "poi": print(PoiCommand.help)
            case "nudges": print(NudgesCommand.help)
            default: print(usage)
            }
            return 0
        }
        if isDebugBuild {
            printError("*** geofence-bench was built without optimisation: build with -c release for real numbers ***")
        }
        switch command {
        case nil: try SuiteCommand.run(&args)
        case "stab": try StabCommand.run(&args)
        case "generate": try GenerateCommand.run(&args)
        case "poi": try PoiCommand.run(&args)
        case "transitions": try TransitionsCommand.run(&args)
        case "plan": try PlanCommand.run(&args)
        case "nudges": try NudgesCommand.run(&args)
        default: throw .usage("unknown command '\(command!)'")
        }
        return 0
    } catch {
        printError("geofence-bench: \(error)")
        if case .usage = error { return 2 }
        return 1
    }
}

exit(runMain())
