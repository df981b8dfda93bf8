/// One `geofence` subcommand: parsed from its arguments, validated, then run over the IO.
protocol Subcommand: Sendable {
    /// The word after `geofence`.
    static var name: String { get }
    /// One line for the tool's help.
    static var abstract: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Takes the subcommand's options out of `arguments` (without checking their combination).
    init(arguments: inout ArgumentList) throws(UsageError)
    /// Checks the options together.
    func validate() throws(UsageError)
    /// Processes the input; returns the exit status.
    func run(_ io: ToolIO) -> Int32
}
