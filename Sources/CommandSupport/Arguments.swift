/// The command line of one subcommand, parsed strictly against the options it declares.
///
/// Options are `--name value`, `--name=value` or flags (`--json`). Parsing fails with a
/// ``UsageError`` that names the culprit when an option is not declared, a word is left over, a
/// value is missing, a flag is given a value, or an option is repeated. A value never starts
/// with `--`, so a flag can't swallow the next option (`--truth --out D` is "option '--truth'
/// needs a value"); it may start with a single `-` (`--lat -33.9`). `-h` or `--help` anywhere
/// sets ``wantsHelp`` and nothing else is checked. Words after a lone `--` are positional.
///
/// Declaring the options is what keeps a subcommand's help and parser in agreement: tests
/// compare ``Option/name``s with ``optionNames(mentionedIn:)`` of the help text.
///
/// ```swift
/// static let options: [Arguments.Option] = [.value("fences"), .value("reps"), .flag("json")]
///
/// let args = try Arguments(["--fences", "f.csv", "--reps=5", "--json"], options: options)
/// let path = try args.required("fences")                      // "f.csv"
/// let reps = try args.int("reps", default: 3, in: 1...1_000)  // 5
/// let json = args.flag("json")                                // true
/// ```
///
/// Parsing is linear in the number of arguments; lookups are dictionary reads.
public struct Arguments: Sendable {
    /// One declared option: its name without the leading `--`, and whether it takes a value.
    public struct Option: Hashable, Sendable {
        /// The name without `--` (`fences` for `--fences`).
        public let name: String
        /// Whether the option takes a value (`--name value` or `--name=value`) or is a flag.
        public let takesValue: Bool

        /// An option that takes a value.
        public static func value(_ name: String) -> Option { Option(name: name, takesValue: true) }
        /// A flag: present or absent, never given a value.
        public static func flag(_ name: String) -> Option { Option(name: name, takesValue: false) }
    }

    /// The words that are not options, in order (at most `maxPositionals` of them).
    public let positionals: [String]
    /// Whether `-h` or `--help` was given; when true nothing else was parsed.
    public let wantsHelp: Bool
    private let values: [String: String]
    private let flags: Set<String>
    private let declared: Set<String>

    /// Parses `arguments` (the words after the subcommand's name) against `options`.
    ///
    /// - Parameters:
    ///   - arguments: the words after the subcommand's name, in order.
    ///   - options: the options the subcommand declares (values and flags).
    ///   - maxPositionals: how many non-option words are allowed (default none); the first one
    ///     beyond is "unexpected argument". Whether enough were given is the caller's check,
    ///     since only it can name what is missing.
    /// - Throws: ``UsageError`` naming the unknown option, stray word or missing value.
    public init(_ arguments: [String], options: [Option], maxPositionals: Int = 0) throws(UsageError) {
        declared = Set(options.map(\.name))
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
            positionals = []
            wantsHelp = true
            values = [:]
            flags = []
            return
        }
        wantsHelp = false
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var k = 0
        var optionsEnded = false
        while k < arguments.count {
            let word = arguments[k]
            k += 1
            if optionsEnded || !Self.looksLikeOption(word) {
                guard positionals.count < maxPositionals else { throw UsageError("unexpected argument '\(word)'") }
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            guard word.hasPrefix("--") else { throw UsageError("unknown option '\(word)'") }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = byName[name] else { throw UsageError("unknown option '--\(name)'") }
            guard values[name] == nil && !flags.contains(name) else {
                throw UsageError("option '--\(name)' given more than once")
            }
            if !option.takesValue {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
            } else if let inlineValue {
                values[name] = inlineValue
            } else {
                guard k < arguments.count, !arguments[k].hasPrefix("--") else {
                    throw UsageError("option '--\(name)' needs a value")
                }
                values[name] = arguments[k]
                k += 1
            }
        }
        self.values = values
        self.flags = flags
        self.positionals = positionals
    }

    /// A word is an option unless it is `-` alone (standard input) or a number (`-1.5`).
    private static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-" else { return false }
        return Double(word) == nil
    }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool {
        assert(declared.contains(name), "undeclared option --\(name)")
        return flags.contains(name)
    }

    /// The value of option `name`, or nil when absent.
    public func string(_ name: String) -> String? {
        assert(declared.contains(name), "undeclared option --\(name)")
        return values[name]
    }

    /// The value of option `name`; a usage error when absent.
    public func required(_ name: String) throws(UsageError) -> String {
        guard let value = string(name) else { throw UsageError("missing required option '--\(name)'") }
        return value
    }

    /// The whole number of option `name` (underscores allowed: `1_000_000`), or nil when absent.
    /// - Throws: ``UsageError`` when the value is not a whole number in `range`.
    public func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(String(text.filter { $0 != "_" })), range.contains(value) else {
            throw UsageError("option '--\(name)' expects an integer\(Self.describe(range)), got '\(text)'")
        }
        return value
    }

    /// The whole number of option `name`, or `value` when absent (see ``int(_:in:)``).
    public func int(_ name: String, default value: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        try int(name, in: range) ?? value
    }

    /// The finite number of option `name` (underscores allowed), or nil when absent.
    /// - Throws: ``UsageError`` when the value is not a finite number in `range`.
    public func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(String(text.filter { $0 != "_" })), value.isFinite, range.contains(value) else {
            throw UsageError("option '--\(name)' expects a finite number\(Self.describe(range)), got '\(text)'")
        }
        return value
    }

    /// The finite number of option `name`, or `value` when absent (see ``double(_:in:)``).
    public func double(_ name: String, default value: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        try double(name, in: range) ?? value
    }

    /// The value of option `name` as one of `T`'s cases (by raw value), or `value` when absent.
    /// - Throws: ``UsageError`` listing the allowed values.
    public func choice<T: RawRepresentable & CaseIterable>(_ name: String, default value: T) throws(UsageError) -> T
    where T.RawValue == String {
        guard let text = string(name) else { return value }
        guard let choice = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("option '--\(name)' must be one of \(allowed); got '\(text)'")
        }
        return choice
    }

    /// Every `--name` a help text mentions (names without `--`), for checking that a
    /// subcommand's help and its declared options agree. `--help` itself is left out.
    public static func optionNames(mentionedIn help: String) -> Set<String> {
        var names: Set<String> = []
        let scalars = Array(help.unicodeScalars)
        var k = 0
        while k + 2 < scalars.count {
            let startsName = scalars[k] == "-" && scalars[k + 1] == "-" && (k == 0 || !isNameScalar(scalars[k - 1]))
            guard startsName else { k += 1; continue }
            var end = k + 2
            while end < scalars.count && isNameScalar(scalars[end]) { end += 1 }
            if end > k + 2 {
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[(k + 2)..<end])
                names.insert(String(name))
            }
            k = end
        }
        names.remove("help")
        return names
    }

    private static func isNameScalar(_ s: Unicode.Scalar) -> Bool {
        (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_"
    }

    /// The range as words after "expects an integer" (with a leading space), or "".
    private static func describe(_ range: ClosedRange<Int>) -> String {
        if range.upperBound == .max { return range.lowerBound == .min ? "" : " >= \(range.lowerBound)" }
        return " in \(range.lowerBound)...\(range.upperBound)"
    }

    /// The range as words after "expects a finite number" (with a leading space), or "".
    private static func describe(_ range: ClosedRange<Double>) -> String {
        func text(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : x.description }
        switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
        case (false, false): return ""
        case (true, false): return " >= \(text(range.lowerBound))"
        case (false, true): return " <= \(text(range.upperBound))"
        case (true, true): return " in \(text(range.lowerBound))...\(text(range.upperBound))"
        }
    }
}
