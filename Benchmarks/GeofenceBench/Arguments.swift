/// A minimal command-line parser: `--name value`, `--name=value` and bare `--flag`s.
/// Unknown options are errors so a typo never silently runs the default.
struct Arguments {
    var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// `valued` names the options that take a value; every other `--x` is a flag.
    init(_ args: [String], valued: Set<String>) throws(BenchError) {
        var k = 0
        while k < args.count {
            let a = args[k]
            if a.hasPrefix("--") {
                let body = String(a.dropFirst(2))
                if let eq = body.firstIndex(of: "=") {
                    options[String(body[..<eq])] = String(body[body.index(after: eq)...])
                } else if valued.contains(body) {
                    guard k + 1 < args.count else { throw .usage("option --\(body) needs a value") }
                    options[body] = args[k + 1]
                    k += 1
                } else {
                    flags.insert(body)
                }
            } else if a == "-h" {
                flags.insert("help")
            } else {
                positional.append(a)
            }
            k += 1
        }
    }

    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    mutating func string(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    mutating func int(_ name: String, default value: Int) throws(BenchError) -> Int {
        guard let s = string(name) else { return value }
        guard let v = Int(s.replacingUnderscores()), v >= 0 else { throw .usage("--\(name) needs a whole number >= 0, got '\(s)'") }
        return v
    }

    /// Fails on any option or flag that no one asked for.
    func checkAllConsumed() throws(BenchError) {
        let unknown = Set(options.keys).union(flags).subtracting(consumed)
        if let first = unknown.sorted().first { throw .usage("unknown option --\(first)") }
    }
}

extension String {
    /// Allows `1_000_000` and `1,000,000`-free numbers like `1000000` alike.
    func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let m): return "usage error: \(m) (see geofence-bench --help)"
        case .failed(let m): return m
        }
    }
}
