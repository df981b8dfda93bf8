#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import FastCSV

/// One `geofence-bench` subcommand: its name, declared options, help text and body.
/// The options and the help text mention the same `--names` (a test checks it).
struct BenchCommand: Sendable {
    /// The word after `geofence-bench`; nil for the default suite.
    let name: String?
    /// Every option the command takes.
    let options: [Arguments.Option]
    /// The command's `--help` text.
    let help: String
    /// Runs the command on its parsed options; throws ``UsageError`` or ``BenchError``.
    let run: @Sendable (Arguments) throws -> Void
}

/// The `geofence-bench` executable: dispatches to a subcommand; exit status 0 on success,
/// 1 on a failed run, 2 on a bad command line.
enum BenchTool {
    static let usage = """
    geofence-bench — throughput, memory and accuracy of the geofencing indexes

    USAGE
      geofence-bench [--json] [--large] [--quick] [--fixes N] [--seed S]   the default suite on the embedded synthetic workload
      geofence-bench stab --fences F --fixes X [--index packed|dynamic|grid|brute] [--threads N] [--json]
      geofence-bench poi [--pois FILE] [--rows N] [--queries Q] [--k K] [--seed S] [--reps R] [--json]
      geofence-bench transitions --fences F --fixes X --truth T [--events-out E.csv] [--json] [--sweep]
      geofence-bench state [--devices N] [--json]   detector memory for a fleet (default 10,000,000 devices)
      geofence-bench traces [--assume-accuracy M] [--preset default|evidence|both] [--json]   flaps over real GPS traces
      geofence-bench plan --fences F --fixes X --truth T [--cap N] [--json]   region selection under an OS cap
      geofence-bench nudges --fences F --fixes X [--truth T] [--preferences P] [--epoch ISO8601] [--out N.csv] [--json]
      geofence-bench generate [--pois N] [--devices D] [--fixes F] [--seed S] [--noise realistic|gaussian] --out DIR
      geofence-bench responders [--responders N] [--minutes M] [--seed S] [--json]   responder liveness and assignment
      geofence-bench report --out DIR [--quick] [--peers FILE]   report.html (charts) and report.json
      geofence-bench [COMMAND] --help      or: geofence-bench help [COMMAND]

    Build with `swift build -c release` (or `swift run -c release geofence-bench`): numbers from a
    debug build are meaningless, and the tool says so on stderr.
    """

    /// Every command, the suite first.
    static let commands: [BenchCommand] = [
        SuiteCommand.command, StabCommand.command, PoiCommand.command, TransitionsCommand.command, StateCommand.command,
        TracesCommand.command,
        PlanCommand.command, NudgesCommand.command, GenerateCommand.command, RespondersCommand.command, ReportCommand.command,
    ]

    /// Runs the tool on `arguments` (without the program name); returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        var rest = arguments
        if rest.first == "help" {   // `geofence-bench help [COMMAND]`, as `geofence help`
            guard rest.count <= 2 else { return usageError("help takes at most one command name") }
            guard rest.count == 2 else {
                print(usage + "\n\n" + SuiteCommand.help)
                return 0
            }
            guard let command = commands.first(where: { $0.name == rest[1] }) else {
                return usageError("unknown command '\(rest[1])'")
            }
            print(command.help)
            return 0
        }
        let name = rest.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
        if name != nil { rest.removeFirst() }
        guard let command = commands.first(where: { $0.name == name }) else {
            return usageError("unknown command '\(name ?? "")'")
        }
        do {
            let args = try Arguments(rest, options: command.options)
            if args.wantsHelp {
                print(command.name == nil ? usage + "\n\n" + command.help : command.help)
                return 0
            }
            if isDebugBuild {
                ProcessStats.printError("*** geofence-bench was built without optimization: build with -c release for real numbers ***")
            }
            try command.run(args)
            return 0
        } catch let error as UsageError {
            return usageError(error.message)
        } catch {
            ProcessStats.printError("geofence-bench: \(error)")
            return 1
        }
    }

    /// Reports a usage error on stderr; returns exit status 2.
    static func usageError(_ message: String) -> Int32 {
        ProcessStats.printError("geofence-bench: usage error: \(message) (see geofence-bench --help)")
        return 2
    }

    /// True when this binary was built without optimization (numbers from it are meaningless).
    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }
}

/// Writes a line to standard error.
func printError(_ line: String) { ProcessStats.printError(line) }

/// Monotonic wall-clock seconds.
func monotonicSeconds() -> Double { ProcessStats.monotonicSeconds() }

/// `value` with `decimals` digits after the point.
func formatFixed(_ value: Double, _ decimals: Int) -> String { DecimalFormatting.fixed(value, decimals) }
