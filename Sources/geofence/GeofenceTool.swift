import CommandSupport

/// The `geofence` command: dispatches to a subcommand, handles help and usage errors.
enum GeofenceTool {
    static let subcommands: [any Subcommand.Type] = [DistanceCommand.self, CellCommand.self, CoverCommand.self, PoiCommand.self,
                                                      RespondersCommand.self, RemindersCommand.self, DrawCommand.self]

    static var help: String {
        var text = """
            USAGE: geofence <subcommand> [options] < input.csv > output.csv

            Geodesy and S2 cells on CSV streams: reads CSV rows on standard input (a header line
            is optional), writes CSV on standard output, and reports bad rows on standard error
            as stdin:LINE:COLUMN: message. Exit status: 0 if every row was good (or with
            --skip-invalid), 1 on bad input, 2 on a bad command line.

            SUBCOMMANDS:

            """
        let width = (subcommands.map { $0.name.count }.max() ?? 0) + 2   // one column, two spaces after the longest name
        for command in subcommands {
            text += "  " + command.name.padding(width) + command.abstract + "\n"
        }
        text += """

            OPTIONS:
              -h, --help  Show this help, or a subcommand's with 'geofence <subcommand> --help'.

            """
        return text
    }

    /// Runs the tool on `arguments` (without the program name); returns the exit status.
    static func main(_ arguments: [String], io: ToolIO) -> Int32 {
        guard let first = arguments.first else {
            io.errors.writeRaw(help)
            io.flush()
            return ExitStatus.usage
        }
        if first == "-h" || first == "--help" || first == "help" {
            if first == "help", arguments.count > 1, let command = subcommands.first(where: { $0.name == arguments[1] }) {
                io.output.writeRaw(command.help(forPositionals: Array(arguments.dropFirst(2))))
            } else {
                io.output.writeRaw(help)
            }
            io.flush()
            return ExitStatus.success
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            return usageError(first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'",
                              command: nil, io: io)
        }
        do throws(UsageError) {
            let rest = try Arguments(Array(arguments.dropFirst()), options: command.options,
                                     maxPositionals: command.maxPositionals)
            if rest.wantsHelp {   // the parser keeps no words then: hand over those that are not options
                io.output.writeRaw(command.help(forPositionals: arguments.dropFirst().filter { !$0.hasPrefix("-") }))
                io.flush()
                return ExitStatus.success
            }
            let parsed = try command.init(arguments: rest)
            try parsed.validate()
            return parsed.run(io)
        } catch {
            return usageError(error.message, command: command.name, io: io)
        }
    }

    static func usageError(_ message: String, command: String?, io: ToolIO) -> Int32 {
        let prefix = command.map { "geofence \($0)" } ?? "geofence"
        io.report("\(prefix): \(message)")
        io.report("Run '\(prefix) --help' for usage.")
        io.flush()
        return ExitStatus.usage
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
