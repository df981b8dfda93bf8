// @preconcurrency: C's `stdout` is a mutable global; it is read once, at the end of a run.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// An executable made of ``Subcommand``s (`geofence`, `geofence-bench`): dispatches on the first
/// word, answers `help`, `-h` and `--help`, and turns usage errors into one shape of message and
/// ``ExitStatus/usage``.
///
/// - `TOOL` alone: the default subcommand when there is one, else the help on standard error
///   and status 2; `TOOL -h|--help|help`: the help on standard output, status 0;
///   `TOOL help NAME`, `TOOL NAME --help`: the subcommand's help.
/// - A first word that starts with `-` goes to the default subcommand when there is one.
/// - A usage error prints `TOOL NAME: message` and `Run 'TOOL NAME --help' for usage.` and
///   returns 2, before the subcommand reads anything.
public struct CommandLineTool: Sendable {
    /// The executable's name in messages.
    public let name: String
    /// The tool's help text.
    public let help: String
    /// Every subcommand, by ``Subcommand/name``.
    public let subcommands: [any Subcommand.Type]
    /// What runs when no subcommand is named (its ``Subcommand/name`` is not matched), or nil.
    public let defaultSubcommand: (any Subcommand.Type)?

    /// A tool of these subcommands.
    public init(name: String, help: String, subcommands: [any Subcommand.Type], defaultSubcommand: (any Subcommand.Type)? = nil) {
        self.name = name
        self.help = help
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// Runs the tool on `arguments` (without the program name); returns the exit status.
    public func main(_ arguments: [String], io: ToolIO) -> Int32 {
        let first = arguments.first
        if first == "-h" || first == "--help" || first == "help" {
            if first == "help", arguments.count > 1 {
                guard let command = subcommand(named: arguments[1]) else {
                    return usageError("unknown subcommand '\(arguments[1])'", command: nil, io: io)
                }
                guard arguments.count - 2 <= command.maxPositionals else {
                    return usageError(
                        "unexpected argument '\(arguments[2 + command.maxPositionals])' after 'help \(arguments[1])'",
                        command: nil, io: io)
                }
                io.output.writeRaw(command.help(forPositionals: Array(arguments.dropFirst(2))))
            } else {
                io.output.writeRaw(help)
            }
            io.flush()
            return ExitStatus.success
        }
        let command: any Subcommand.Type
        var rest = arguments
        if let first, !first.hasPrefix("-") {
            guard let named = subcommand(named: first) else {
                return usageError("unknown subcommand '\(first)'", command: nil, io: io)
            }
            command = named
            rest.removeFirst()
        } else if let defaultSubcommand {
            command = defaultSubcommand
        } else if let first {
            return usageError("unknown option '\(first)'", command: nil, io: io)
        } else {
            io.errors.writeRaw(help)
            io.flush()
            return ExitStatus.usage
        }
        let label = command.name.isEmpty ? nil : command.name
        do throws(UsageError) {
            let parsed = try Arguments(rest, options: command.options, maxPositionals: command.maxPositionals)
            if parsed.wantsHelp {  // the parser keeps no words then: hand over those that are not options
                io.output.writeRaw(label == nil ? help : command.help(forPositionals: rest.filter { !$0.hasPrefix("-") }))
                io.flush()
                return ExitStatus.success
            }
            let subcommand = try command.init(arguments: parsed)
            try subcommand.validate()
            return outputChecked(subcommand.run(io), command: label, io: io)
        } catch {
            return usageError(error.message, command: label, io: io)
        }
    }

    /// `status`, or 1 when standard output could not be written (a full disk, `/dev/full`, a
    /// closed descriptor): both `io.output` and C's `stdout` (`print`) are flushed and checked, so a run
    /// whose results were lost never exits 0.
    func outputChecked(_ status: Int32, command: String?, io: ToolIO) -> Int32 {
        io.flush()
        var reason = io.output.writeError
        errno = 0
        if fflush(stdout) != 0 || ferror(stdout) != 0, reason == nil {
            reason = errno == 0 ? "write error" : String(cString: strerror(errno))
        }
        guard let reason else { return status }
        let prefix = command.map { "\(name) \($0)" } ?? name
        io.report("\(prefix): cannot write standard output: \(reason)")
        io.flush()
        return status == ExitStatus.success ? ExitStatus.failure : status
    }

    /// The subcommand called `word`, if any (the default one has no name to call it by).
    func subcommand(named word: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.name == word && !$0.name.isEmpty }
    }

    /// Reports a usage error of `command` (nil: of the tool) on the error stream; returns 2.
    public func usageError(_ message: String, command: String?, io: ToolIO) -> Int32 {
        let prefix = command.map { "\(name) \($0)" } ?? name
        io.report("\(prefix): \(message)")
        io.report("Run '\(prefix) --help' for usage.")
        io.flush()
        return ExitStatus.usage
    }

    /// Reports a failed run of `command` (`TOOL NAME: message`) on the error stream; returns 1.
    public func failure(_ message: String, command: String, io: ToolIO) -> Int32 {
        io.report(command.isEmpty ? "\(name): \(message)" : "\(name) \(command): \(message)")
        io.flush()
        return ExitStatus.failure
    }
}
