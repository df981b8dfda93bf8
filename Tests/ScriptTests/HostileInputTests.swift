import Foundation
import Geodesy
import Testing

/// Both executables (`geofence`, `geofence-bench`) against malformed files and hostile option
/// values, drawn from a seeded generator and run until a time budget is spent: every case must
/// end by itself (status < 128, within its time limit), fail (status 1 or 2) since every case is
/// invalid, leave its input files byte-identical, and name its place on standard error (the
/// file with its line, or the option). `scripts/fuzz-cli` is the exhaustive version.
@Suite(.serialized) struct HostileInputTests {
    /// Seconds one case may take before it counts as a hang.
    static let caseLimit = 15.0
    /// Seconds of cases in all (cases keep being drawn until it is spent).
    static let budget = 25.0

    /// One run: the words, the file on standard input, the inputs that must stay as they are, and
    /// the texts one of which standard error must contain.
    struct Case: CustomStringConvertible {
        var tool: String
        var words: [String]
        var stdin: String?
        var inputs: [String]
        var places: [String]
        var description: String { ([tool] + words).joined(separator: " ") + (stdin.map { " < \($0)" } ?? "") }
    }

    struct Outcome {
        var status: Int32
        var signalled: Bool
        var seconds: Double
        var stderr: String
    }

    /// A random rule-breaking value for each kind of column.
    static let badValues: [String: [String]] = [
        "lat": ["91", "-90.5", "nan", "inf", "x", ""], "lon": ["181", "-180.1", "nan", "-inf"],
        "radius_m": ["0", "-0", "-1", "1e308", "20015200", "nan"], "id": ["-1", "2147483648", "1.5", "x"],
        "poi_id": ["-1", "2147483648"], "tier": ["-1", "99999999999"], "device": ["-1", "2147483648", "x"],
        "t": ["nan", "inf", "x", ""], "accuracy_m": ["-1", "inf", "nan"], "true_lat": ["91", "nan"], "true_lon": ["-181", "x"],
        "time_zone": ["Mars/Olympus", ""], "daily_cap": ["-1", "x"], "spacing_s": ["-1", "nan"], "quiet_start": ["25:00"],
        "kind": [""], "lat1": ["91", "x"], "lon1": ["nan"], "lat2": ["-91"], "lon2": ["181", ""]
    ]

    @Test func malformedFilesAndOptionsAreRefusedWithTheirPlace() throws {
        guard let geofence = ScriptSupport.builtProduct("geofence")?.path,
            let bench = ScriptSupport.builtProduct("geofence-bench")?.path
        else {
            Issue.record("the executables are not built")
            return
        }
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        let setup = try Self.run(bench, ["generate", "--pois", "4", "--devices", "2", "--fixes", "40", "--seed", "5", "--out", dir + "/good"])
        try #require(setup.status == 0, "\(setup.stderr)")
        let good = dir + "/good"
        let devices = Set(
            try String(contentsOfFile: good + "/fixes.csv", encoding: .utf8).split(separator: "\n").dropFirst()
                .map { $0.split(separator: ",")[0] }
        ).sorted()
        try
            ("device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n"
            + devices.map { "\($0),Europe/Paris,22:00,07:00,2,3600,7200,fr_FR\n" }.joined())
            .write(toFile: dir + "/prefs.csv", atomically: true, encoding: .utf8)
        try ("device,kind\n" + devices.map { "\($0),car\n" }.joined()).write(toFile: dir + "/kinds.csv", atomically: true, encoding: .utf8)
        try "lat1,lon1,lat2,lon2\n1,2,3,4\n5,6,7,8\n".write(toFile: dir + "/pairs.csv", atomically: true, encoding: .utf8)
        let files = [
            "fences": good + "/fences.csv", "fixes": good + "/fixes.csv", "truth": good + "/truth.csv",
            "prefs": dir + "/prefs.csv", "kinds": dir + "/kinds.csv", "pairs": dir + "/pairs.csv"
        ]

        // The commands that read each kind of file: tool, words before, the option naming the file.
        let readers: [String: [(String, [String], String)]] = [
            "fences": [
                (bench, ["stab", "--reps", "1", "--fixes", files["fixes"]!], "--fences"),
                (bench, ["transitions", "--reps", "1", "--fixes", files["fixes"]!, "--truth", files["truth"]!], "--fences"),
                (bench, ["plan", "--fixes", files["fixes"]!, "--truth", files["truth"]!], "--fences"),
                (geofence, ["draw", "--out", dir + "/map.svg"], "--fences")
            ],
            "fixes": [
                (bench, ["stab", "--reps", "1", "--fences", files["fences"]!], "--fixes"),
                (bench, ["nudges", "--reps", "1", "--fences", files["fences"]!], "--fixes"),
                (bench, ["traces", "--assume-accuracy", "10"], "--traces"),
                (geofence, ["draw", "--fences", files["fences"]!, "--out", dir + "/map.svg"], "--fixes")
            ],
            "truth": [(bench, ["transitions", "--reps", "1", "--fences", files["fences"]!, "--fixes", files["fixes"]!], "--truth")],
            "prefs": [(bench, ["nudges", "--reps", "1", "--fences", files["fences"]!, "--fixes", files["fixes"]!], "--preferences")],
            "kinds": [(bench, ["traces", "--assume-accuracy", "10", "--traces", files["fixes"]!], "--devices")],
            "pairs": [(geofence, ["distance"], "<")]
        ]
        // Hostile option values: (tool, words, option, value); every one is out of its range.
        let options: [(String, [String], String, String)] = [
            (bench, ["stab", "--fences", files["fences"]!, "--fixes", files["fixes"]!], "reps", "9223372036854775807"),
            (bench, ["stab", "--fences", files["fences"]!, "--fixes", files["fixes"]!], "threads", "0"),
            (bench, ["poi", "--queries", "10"], "rows", "9223372036854775807"),
            (bench, ["poi", "--rows", "10"], "k", "9223372036854775807"),
            (bench, ["generate", "--out", dir + "/gen"], "fixes", "9223372036854775807"),
            (bench, ["generate", "--out", dir + "/gen"], "pois", "9223372036854775807"),
            (bench, ["generate", "--out", dir + "/gen"], "devices", "3000000000"),
            (bench, ["transitions", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "hysteresis", "-1"),
            (bench, ["transitions", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "slack", "0"),
            (bench, ["transitions", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "max-speed", "0"),
            (bench, ["transitions", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "enter-confirm", "0"),
            (bench, ["transitions", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "radius-fraction", "nan"),
            (bench, ["plan", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "cap", "9223372036854775807"),
            (bench, ["plan", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "min-refresh", "1e20"),
            (bench, ["plan", "--fences", files["fences"]!, "--fixes", files["fixes"]!, "--truth", files["truth"]!], "slack", "1"),
            (bench, ["state"], "devices", "-1"),
            (bench, ["responders"], "minutes", "9223372036854775807"),
            (bench, ["responders"], "responders", "abc"),
            (bench, ["nudges", "--fences", files["fences"]!, "--fixes", files["fixes"]!], "epoch", "1066-10-14T09:00:00Z"),
            (bench, ["--quick"], "fixes", "9223372036854775807"),
            (geofence, ["draw", "--fences", files["fences"]!], "width", "1e308"),
            (geofence, ["cover", "--max-cells", "8"], "max-level", "31"),
            (geofence, ["responders", "metrics", "--db", files["fences"]!], "now", "nan")
        ]
        let originals = try files.mapValues { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        var rng = SplitMix64(seed: 28)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        var ran = 0
        let start = Date()
        while Date().timeIntervalSince(start) < Self.budget {
            let c: Case
            if rng.next() % 3 == 0 {
                let (tool, words, option, value) = pick(options)
                c = Case(
                    tool: tool, words: words + ["--\(option)=\(value)"], stdin: nil, inputs: Array(files.values),
                    places: ["--\(option)"])
            } else {
                let kind = pick(Array(readers.keys).sorted())
                let (path, place) = try Self.mutate(files[kind]!, in: dir, case: ran, rng: &rng)
                let (tool, words, option) = pick(readers[kind]!)
                let place1 = option == "<" ? place.replacingOccurrences(of: path, with: "stdin") : place
                c = Case(
                    tool: tool, words: option == "<" ? words : words + [option, path], stdin: option == "<" ? path : nil,
                    inputs: Array(files.values) + [path], places: [place1])
            }
            let before = try c.inputs.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            let outcome = try Self.run(c.tool, c.words, stdin: c.stdin)
            ran += 1
            #expect(!outcome.signalled && outcome.status < 128, "crash (status \(outcome.status)): \(c)")
            #expect(outcome.seconds < Self.caseLimit, "hang (\(outcome.seconds) s): \(c)")
            #expect(outcome.status == 1 || outcome.status == 2, "accepted (status \(outcome.status)): \(c)\n\(outcome.stderr)")
            #expect(c.places.contains { outcome.stderr.contains($0) }, "no place \(c.places) in: \(outcome.stderr.prefix(400)) (\(c))")
            let after = try c.inputs.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            #expect(before == after, "an input changed: \(c)")
        }
        #expect(ran >= 10, "only \(ran) cases in \(Self.budget) s")
        #expect(try files.mapValues { try Data(contentsOf: URL(fileURLWithPath: $0)) } == originals)
    }

    /// A copy of the CSV file at `path` with one rule broken: a bad value in a random row and
    /// column, a field too many or too few, a line of 2 MiB, NUL bytes or invalid UTF-8.
    /// - Returns: the copy's path and what its error must contain (`PATH:LINE` for a bad row).
    static func mutate(_ path: String, in directory: String, case k: Int, rng: inout SplitMix64) throws -> (String, String) {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let row = 1 + Int(rng.next() % UInt64(lines.count - 1))
        let out = directory + "/case-\(k).csv"
        var bytes: [UInt8]
        switch rng.next() % 6 {
        case 0, 1, 2:  // a value that breaks its column's rule
            let candidates = header.indices.filter { badValues[header[$0]] != nil }
            let column = candidates[Int(rng.next() % UInt64(candidates.count))]
            let values = badValues[header[column]]!
            var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[column] = values[Int(rng.next() % UInt64(values.count))]
            lines[row] = fields.joined(separator: ",")
            bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        case 3:  // a field too many
            lines[row] += ",7"
            bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        case 4:  // a line past the reader's limit
            lines.insert("1," + String(repeating: "9", count: 2 << 20), at: row)
            bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        default:  // binary junk in place of a row
            lines[row] = "\u{0}\u{0}\u{0}"
            bytes = Array((lines.joined(separator: "\n") + "\n").utf8) + [0xFF, 0xFE, 0x2C, 0x31, 0x0A]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: out))
        return (out, "\(out):\(row + 1)")
    }

    /// An output that cannot be written (its directory missing) stops the command with status 1
    /// and one line naming the file once: no `line 0, column 0:` of a reader's place, no path
    /// said twice.
    @Test func anOutputThatCannotBeWrittenIsNamedOnce() throws {
        guard let bench = ScriptSupport.builtProduct("geofence-bench")?.path else {
            Issue.record("the executables are not built")
            return
        }
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.path + "/good"
        let setup = try Self.run(bench, ["generate", "--pois", "4", "--devices", "2", "--fixes", "40", "--seed", "5", "--out", good])
        try #require(setup.status == 0, "\(setup.stderr)")
        let missing = directory.path + "/no-such-directory/out.csv"
        let workload = ["--fences", good + "/fences.csv", "--fixes", good + "/fixes.csv"]
        for (command, words) in [
            ("transitions", ["transitions", "--reps", "1", "--truth", good + "/truth.csv", "--events-out", missing] + workload),
            ("nudges", ["nudges", "--reps", "1", "--out", missing] + workload),
            ("poi", ["poi", "--rows", "100", "--queries", "10", "--reps", "1", "--out", missing])
        ] {
            let outcome = try Self.run(bench, words)
            #expect(outcome.status == 1, "\(command): \(outcome.stderr)")
            // (A debug build says so on its first line: the error is the last.)
            let error = outcome.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(error.hasPrefix("geofence-bench \(command): "), "\(outcome.stderr)")
            #expect(outcome.stderr.components(separatedBy: missing).count == 2, "\(command) names it once: \(outcome.stderr)")
            #expect(!outcome.stderr.contains("line 0"), "\(outcome.stderr)")
        }
    }

    /// Runs `tool words` (standard input from `stdin`, or empty), killing it after
    /// ``caseLimit`` seconds.
    static func run(_ tool: String, _ words: [String], stdin: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = words
        let errPipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errPipe
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        let start = Date()
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        reader.start()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + caseLimit, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        done.wait()
        return Outcome(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            seconds: Date().timeIntervalSince(start), stderr: String(decoding: errData, as: UTF8.self))
    }
}
