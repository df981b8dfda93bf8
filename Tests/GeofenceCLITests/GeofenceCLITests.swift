import Foundation
import Testing

/// End-to-end tests of the `geofence` executable: run it as a subprocess, feed stdin,
/// compare stdout with golden files, check exit statuses and stderr.
@Suite struct GeofenceCLITests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The built `geofence` binary: next to the test bundle (SwiftPM puts every product of a
    /// configuration in one directory), else in the package's `.build/debug`.
    static let executable: URL? = {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("geofence")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `geofence arguments` with `input` on stdin.
    func run(_ arguments: [String], input: String = "") throws -> Result {
        let executable = try #require(Self.executable, "geofence binary not found; build it with `swift build`")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        // Write stdin and read both outputs concurrently so no pipe can fill up and block.
        let writer = Thread {
            stdinPipe.fileHandleForWriting.write(Data(input.utf8))
            try? stdinPipe.fileHandleForWriting.close()
        }
        writer.start()
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        let errReader = Thread {
            errData = stderrPipe.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }
        errReader.start()
        let outData = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    func golden(_ name: String) throws -> String {
        try String(contentsOf: Self.testsFolder.appendingPathComponent("Golden/\(name)"), encoding: .utf8)
    }

    // MARK: distance

    @Test(arguments: ["distance_input.csv", "distance_input_noheader.csv"])
    func distanceGolden(input: String) throws {
        let result = try run(["distance"], input: try golden(input))
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == (try golden("distance_expected.csv")))
    }

    /// 200 pairs against mpmath's correctly rounded haversine and bearing.
    @Test func distanceAgreesWithTheOracle() throws {
        let text = try String(contentsOf: Self.testsFolder.appendingPathComponent("Fixtures/distances_sample.csv"), encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",").map(String.init) }
        let input = rows.map { $0[0..<4].joined(separator: ",") }.joined(separator: "\n") + "\n"
        let result = try run(["distance"], input: input)
        #expect(result.status == 0)
        let out = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
        #expect(out.count == rows.count)
        for (row, got) in zip(rows, out) {
            let distance = Double(row[4])!, bearing = Double(row[5])!
            // 1e-6 m: Geodesy's formula is accurate to nanometers on these inputs.
            #expect(abs(got[0] - distance) <= 1e-6, "\(row)")
            if row[6] == "1" {
                var diff = abs(got[1] - bearing)
                diff = min(diff, 360 - diff)
                // 1e-6 degrees (about 10 cm at 6000 km); short pairs are the sensitive ones.
                #expect(diff <= 1e-6 || distance < 1, "\(row): bearing \(got[1])")
            }
        }
    }

    @Test func badRowsStopTheRunWithLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("lat1,lon1,lat2,lon2\n1,2,3,4\nNaN,1,2,3\n", "stdin:3:lat1: expected a finite decimal number, found \"NaN\"\n"),
            ("1,2,3,4\n0,0,91,0\n", "stdin:2:lat2: latitude 91.0 is outside [-90, 90] degrees\n"),
            ("1,2,3,4\n0,181,0,0\n", "stdin:2:lon1: longitude 181.0 is outside [-180, 180] degrees\n"),
            ("1,2,3\n", "stdin:1:lon2: expected 4 fields (lat1,lon1,lat2,lon2), found 3\n"),
            ("1,2,3,4,5\n", "stdin:1:5: expected 4 fields (lat1,lon1,lat2,lon2), found 5\n"),
            ("1,2,3,4\n\n1,2,x,4\n", "stdin:3:lat2: expected a decimal number, found \"x\"\n"),
            ("1,2,3,4\n1,2,1e999,4\n", "stdin:2:lat2: latitude must be a finite number, got inf\n"),
            ("1,2,\"3\n", "stdin:1:3: expected a closing '\"' for the quote opened on line 1, found the end of the input\n")
        ]
        for (input, message) in cases {
            let result = try run(["distance"], input: input)
            #expect(result.status == 1, "\(input.debugDescription)")
            #expect(result.stderr == message, "\(input.debugDescription)")
            // Rows before the bad one are written; nothing after it.
            let good = input.contains("1,2,3,4\n") ? 1 : 0
            #expect(result.stdout.split(separator: "\n").count == 1 + good, "\(input.debugDescription)")
        }
    }

    @Test func skipInvalidCountsAndSucceeds() throws {
        let input = "lat1,lon1,lat2,lon2\n0,179.5,0,-179.5\nNaN,1,2,3\n91,0,0,0\n1,2,3\n1,2,3,4,5\nx,1,2,3\n0,0,0,0\n"
        let result = try run(["distance", "--skip-invalid"], input: input)
        #expect(result.status == 0)
        #expect(result.stdout == "haversine_m,initial_bearing_deg\n111195.0802335329,90.0\n0.0,0.0\n")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix(13) } == ["stdin:3:lat1:", "stdin:4:lat1:", "stdin:5:lon2:", "stdin:6:5: ex", "stdin:7:lat1:", "skipped 5 inv"])
        #expect(lines.last == "skipped 5 invalid rows")
        let clean = try run(["distance", "--skip-invalid"], input: "0,0,0,0\n")
        #expect(clean.status == 0 && clean.stderr == "skipped 0 invalid rows\n")
    }

    @Test func emptyInputWritesOnlyTheHeader() throws {
        let result = try run(["distance"], input: "")
        #expect(result.status == 0)
        #expect(result.stdout == "haversine_m,initial_bearing_deg\n")
    }

    // MARK: cell

    @Test(arguments: [
        ([], "cell_expected_l30.csv"), (["--level", "13"], "cell_expected_l13.csv"),
        (["--level=0"], "cell_expected_l0.csv")
    ])
    func cellGolden(arguments: [String], expected: String) throws {
        for input in ["cell_input.csv", "cell_input_noheader.csv"] {
            let result = try run(["cell"] + arguments, input: try golden(input))
            #expect(result.status == 0, "\(input)")
            #expect(result.stderr == "")
            #expect(result.stdout == (try golden(expected)), "\(input) \(arguments)")
        }
    }

    @Test func cellBadRowsNameTheColumn() throws {
        let result = try run(["cell", "--skip-invalid"], input: "lat,lon\n91,0\n0,-180.5\n0,0\n")
        #expect(result.status == 0)
        #expect(result.stdout == "id,token\n1152921504606846977,1000000000000001\n")
        #expect(
            result.stderr == """
                stdin:2:lat: latitude 91.0 is outside [-90, 90] degrees
                stdin:3:lon: longitude -180.5 is outside [-180, 180] degrees
                skipped 2 invalid rows

                """)
    }

    @Test func cellOptionsAreValidated() throws {
        for bad in [["--level", "31"], ["--level", "-1"], ["--level", "x"], ["--level"], ["--frob"], ["extra"]] {
            let result = try run(["cell"] + bad)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.hasPrefix("geofence cell: "), "\(bad)")
        }
    }

    // MARK: cover

    @Test(arguments: [
        (["--max-cells", "8"], "cover_expected_A_cover_max8.txt"),
        (["--max-cells", "16", "--min-level", "10", "--max-level", "16"], "cover_expected_B_cover_max16_L10_16.txt"),
        (["--max-cells", "8", "--interior"], "cover_expected_C_interior_max8.txt"),
        (["--max-cells=16", "--min-level=10", "--max-level=16", "--interior"], "cover_expected_D_interior_max16_L10_16.txt")
    ])
    func coverGolden(arguments: [String], expected: String) throws {
        let result = try run(["cover"] + arguments, input: try golden("cover_input.csv"))
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == (try golden(expected)), "\(arguments)")
    }

    @Test func coverRejectsBadRadius() throws {
        for (radius, shown) in [("-1", "-1.0"), ("1e999", "inf")] {
            let result = try run(["cover", "--max-cells", "8"], input: "0,0,\(radius)\n")
            #expect(result.status == 1)
            #expect(result.stderr == "stdin:1:radius_m: radius must be a finite number of meters >= 0, got \(shown)\n")
        }
        let nan = try run(["cover", "--max-cells", "8"], input: "0,0,nan\n")
        #expect(nan.stderr.hasPrefix("stdin:1:radius_m: "))
    }

    @Test func coverOptionsAreValidated() throws {
        let cases: [([String], String)] = [
            ([], "missing required option '--max-cells N'"),
            (["--max-cells", "0"], "option '--max-cells' expects an integer"),
            (["--max-cells", "8", "--min-level", "12", "--max-level", "10"], "--min-level 12 must not exceed --max-level 10"),
            (["--max-cells", "8", "--level-mod", "4"], "option '--level-mod' expects an integer in 1...3"),
            (["--max-cells", "8", "--interior=yes"], "option '--interior' takes no value"),
            (["--max-cells", "8", "--max-cells", "9"], "option '--max-cells' given more than once")
        ]
        for (arguments, message) in cases {
            let result = try run(["cover"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("geofence cover: \(message)"), "\(arguments): \(result.stderr)")
        }
    }

    // MARK: tool

    @Test func helpForTheToolAndEachSubcommand() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("USAGE: geofence <subcommand>"))
            for name in ["distance", "cell", "cover"] { #expect(result.stdout.contains("\n  \(name) ")) }
        }
        for name in ["distance", "cell", "cover"] {
            for flag in ["--help", "-h"] {
                let result = try run([name, flag])
                #expect(result.status == 0)
                #expect(result.stdout.hasPrefix("USAGE: geofence \(name)"), "\(name) \(flag)")
                #expect(result.stderr == "")
            }
            #expect(try run(["help", name]).stdout.hasPrefix("USAGE: geofence \(name)"))
        }
        let distanceHelp = try run(["distance", "--help"]).stdout
        #expect(distanceHelp.contains("--skip-invalid"))
        #expect(distanceHelp.contains("haversine_m,initial_bearing_deg"))
    }

    @Test func usageErrors() throws {
        let none = try run([])
        #expect(none.status == 2 && none.stderr.hasPrefix("USAGE: geofence"))
        let unknown = try run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "geofence: unknown subcommand 'frobnicate'\nRun 'geofence --help' for usage.\n")
        let unknownOption = try run(["distance", "--fast"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.stderr.hasPrefix("geofence distance: unknown option '--fast'"))
        #expect(try run(["--version"]).status == 2)
    }

    /// A larger input (20,000 rows, several output buffers) comes out complete and in order.
    @Test func manyRowsStream() throws {
        var input = ""
        for i in 0..<20_000 { input += "\(Double(i % 180) - 89.5),\(i % 360 - 180),0,0\n" }
        let result = try run(["distance"], input: input)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 20_001)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 2 })
        #expect(lines[1] == "10063154.761134729,180.0", "row 1: (-89.5, -180) to (0, 0): 90.5 degrees via the pole")
    }
}
