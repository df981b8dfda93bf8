/// A bad command line: an unknown option, a stray word, a missing or malformed value.
///
/// ``message`` names the offending option or word (`unknown option '--frob'`). Executables
/// print it with a pointer to `--help` and exit with status 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, naming the option or word.
    public let message: String

    /// A usage error with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
