import NumberFormatting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import FastCSV

/// One `geofence-bench` subcommand: a ``Subcommand`` whose work prints its results and throws
/// ``BenchError`` (exit status 1) or ``UsageError`` (2). Options are read in `init(arguments:)`,
/// so a bad value is refused before any file is read.
protocol BenchSubcommand: Subcommand {
    /// Runs the measurement, printing to standard output and progress to standard error.
    func execute() throws
}

extension BenchSubcommand {
    static var abstract: String { "" }
    static func help(forPositionals words: [String]) -> String { help + "\n" }

    func run(_ io: ToolIO) -> Int32 {
        if BenchTool.isDebugBuild {
            printError("*** geofence-bench was built without optimization: build with -c release for real numbers ***")
        }
        do {
            try execute()
            return ExitStatus.success
        } catch let error as UsageError {
            return BenchTool.tool.usageError(error.message, command: Self.name.isEmpty ? nil : Self.name, io: io)
        } catch {
            return BenchTool.tool.failure("\(error)", command: Self.name, io: io)
        }
    }
}

/// The `geofence-bench` executable: the shared dispatcher of both tools over the bench's
/// subcommands; exit status 0 on success, 1 on a failed run, 2 on a bad command line.
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
          geofence-bench generate [--pois N] [--devices D] [--fixes F] [--seed S] [--noise realistic|gaussian] --out DIR [--json]
          geofence-bench responders [--responders N] [--minutes M] [--seed S] [--json]   responder liveness and assignment
          geofence-bench report --out DIR [--quick] [--peers FILE]   report.html (charts) and report.json
          geofence-bench peers-chart --peers FILE --out CHART.svg   the stabbing chart of a scripts/compare-peers run
          geofence-bench [COMMAND] --help      or: geofence-bench help [COMMAND]
          --json may also come before COMMAND.

        Build with `swift build -c release` (or `swift run -c release geofence-bench`): numbers from a
        debug build are meaningless, and the tool says so on stderr.
        Exit status: 0 on success, 1 on bad input or a failed run (the message names the file, line and
        column, or what failed), 2 on a bad command line (the message names the option).
        """

    /// Every command, the suite (no name) first.
    static let commands: [any BenchSubcommand.Type] = [
        SuiteCommand.self, StabCommand.self, PoiCommand.self, TransitionsCommand.self, StateCommand.self, TracesCommand.self,
        PlanCommand.self, NudgesCommand.self, GenerateCommand.self, RespondersCommand.self, ReportCommand.self,
        PeersChartCommand.self
    ]

    /// The tool: the dispatcher shared with `geofence`; the suite runs when no command is named.
    static let tool = CommandLineTool(
        name: "geofence-bench", help: usage + "\n\n" + SuiteCommand.help + "\n",
        subcommands: commands, defaultSubcommand: SuiteCommand.self)

    /// Runs the tool on `arguments` (without the program name); returns the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        let io = ToolIO.standard()
        let status = tool.main(jsonAnywhere(arguments), io: io)
        io.flush()
        return status
    }

    /// DESIGN.md's "`--json` anywhere": `--json` words before a command's name move after it
    /// (`--json stab --fences F ...` is `stab --fences F ... --json`); the command then takes or
    /// refuses the option as its own. Other words are left where they are.
    static func jsonAnywhere(_ arguments: [String]) -> [String] {
        let leading = arguments.prefix { $0 == "--json" }.count
        guard leading > 0, leading < arguments.count, commands.contains(where: { !$0.name.isEmpty && $0.name == arguments[leading] }) else {
            return arguments
        }
        return Array(arguments[leading...]) + ["--json"]
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
