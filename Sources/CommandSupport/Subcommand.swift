/// One subcommand of `geofence` or `geofence-bench`: parsed from its arguments (every option
/// read and range-checked there, before any input is opened), validated as a whole, then run
/// over the IO. Its ``options`` and its ``help`` mention the same `--names` (tests check it).
public protocol Subcommand: Sendable {
    /// The word after the tool's name (empty for a tool's default subcommand).
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
    /// Reads the options from the parsed `arguments`.
    /// - Throws: ``UsageError`` naming the option for a missing, malformed or out-of-range value.
    init(arguments: Arguments) throws(UsageError)
    /// Checks the options together (and against each other's files: an output that is an input).
    func validate() throws(UsageError)
    /// Processes the input; returns an ``ExitStatus``.
    func run(_ io: ToolIO) -> Int32
}

extension Subcommand {
    /// No positional words unless a subcommand says otherwise.
    public static var maxPositionals: Int { 0 }

    /// The help for `TOOL NAME WORDS --help`: ``help`` unless a subcommand has a narrower
    /// text for its positional words (an action such as `poi stats`).
    public static func help(forPositionals words: [String]) -> String { help }

    /// Nothing to check together unless a subcommand says otherwise.
    public func validate() throws(UsageError) {}
}
