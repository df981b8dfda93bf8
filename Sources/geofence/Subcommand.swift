import CommandSupport

/// One `geofence` subcommand: parsed from its arguments, validated, then run over the IO.
/// Its ``options`` and its ``help`` mention the same `--names` (a test checks it).
protocol Subcommand: Sendable {
    /// The word after `geofence`.
    static var name: String { get }
    /// One line for the tool's help.
    static var abstract: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// The help for the given positional words (see the extension's default).
    static func help(forPositionals words: [String]) -> String
    /// Every option the subcommand takes (names without `--`).
    static var options: [Arguments.Option] { get }
    /// How many non-option words it takes (an action, a file).
    static var maxPositionals: Int { get }
    /// Reads the options from the parsed `arguments` (without checking their combination).
    init(arguments: Arguments) throws(UsageError)
    /// Checks the options together.
    func validate() throws(UsageError)
    /// Processes the input; returns the exit status.
    func run(_ io: ToolIO) -> Int32
}

extension Subcommand {
    /// No positional words unless a subcommand says otherwise.
    static var maxPositionals: Int { 0 }

    /// The help for `geofence NAME WORDS --help`: ``help`` unless a subcommand has a narrower
    /// text for its positional words (an action such as `poi stats`).
    static func help(forPositionals words: [String]) -> String { help }
}
