/// A bad command line: the message is shown with a hint to `--help`, and the tool exits 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Hand-rolled option parsing over the arguments after the subcommand name.
///
/// Options are `--name value`, `--name=value` or flags (`--interior`); `-h`/`--help` anywhere
/// asks for help. Each subcommand takes what it knows, then ``finish()`` rejects anything left.
struct ArgumentList {
    private(set) var remaining: [String]

    init(_ arguments: [String]) { remaining = arguments }

    /// Whether `-h` or `--help` appears (removed if so).
    mutating func takeHelp() -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == "-h" || $0 == "--help" }
        return remaining.count != before
    }

    /// Removes a flag; true if it was present.
    mutating func takeFlag(_ name: String) throws(UsageError) -> Bool {
        var found = false
        var kept: [String] = []
        for argument in remaining {
            if argument == name {
                found = true
            } else if argument.hasPrefix(name + "=") {
                throw UsageError("option '\(name)' takes no value")
            } else {
                kept.append(argument)
            }
        }
        remaining = kept
        return found
    }

    /// Removes `name value` or `name=value`; the value, or nil when absent.
    mutating func takeValue(_ name: String) throws(UsageError) -> String? {
        var value: String?
        var kept: [String] = []
        var i = 0
        while i < remaining.count {
            let argument = remaining[i]
            if argument == name {
                guard i + 1 < remaining.count else { throw UsageError("option '\(name)' needs a value") }
                guard value == nil else { throw UsageError("option '\(name)' given more than once") }
                value = remaining[i + 1]
                i += 2
                continue
            }
            if argument.hasPrefix(name + "=") {
                guard value == nil else { throw UsageError("option '\(name)' given more than once") }
                value = String(argument.dropFirst(name.count + 1))
            } else {
                kept.append(argument)
            }
            i += 1
        }
        remaining = kept
        return value
    }

    /// Removes an integer option and checks its range.
    mutating func takeInt(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try takeValue(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("option '\(name)' expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// Fails on any argument not taken.
    func finish() throws(UsageError) {
        guard let first = remaining.first else { return }
        if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
        throw UsageError("unexpected argument '\(first)'")
    }
}
