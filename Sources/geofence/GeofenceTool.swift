import CommandSupport

/// The `geofence` command: dispatches to a subcommand, handles help and usage errors.
enum GeofenceTool {
    static let subcommands: [any Subcommand.Type] = [
        DistanceCommand.self, CellCommand.self, CoverCommand.self, ContainsCommand.self, PoiCommand.self,
        RespondersCommand.self, RemindersCommand.self, DrawCommand.self
    ]

    static var help: String {
        var text = """
            USAGE: geofence <subcommand> [options] < input.csv > output.csv

            Geodesy and S2 cells on CSV streams: reads CSV rows on standard input (a header line
            is optional), writes CSV on standard output, and reports bad rows on standard error
            as stdin:LINE:COLUMN: message. Exit status: 0 if every row was good (or with
            --skip-invalid), 1 on bad input, 2 on a bad command line.

            SUBCOMMANDS:

            """
        let width = (subcommands.map { $0.name.count }.max() ?? 0) + 2  // one column, two spaces after the longest name
        for command in subcommands {
            text += "  " + command.name.padding(width) + command.abstract + "\n"
        }
        text += """

            OPTIONS:
              -h, --help  Show this help, or a subcommand's with 'geofence <subcommand> --help'.

            """
        return text
    }

    /// The tool: the shared dispatcher of `geofence` and `geofence-bench` over these subcommands.
    static let tool = CommandLineTool(name: "geofence", help: help, subcommands: subcommands)

    /// Runs the tool on `arguments` (without the program name); returns the exit status.
    static func main(_ arguments: [String], io: ToolIO) -> Int32 { tool.main(arguments, io: io) }

    static func usageError(_ message: String, command: String?, io: ToolIO) -> Int32 {
        tool.usageError(message, command: command, io: io)
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
