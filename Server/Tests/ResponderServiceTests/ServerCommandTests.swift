import Foundation
import Testing

/// responder-server's command line: `--help`, and a bad option stopping it before it listens.
@Suite struct ServerCommandTests {
    /// Runs responder-server (built beside this test bundle) to its exit: status, stdout, stderr.
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("responder-server")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, outText, errText)
    }

    @Test func helpPrintsTheUsage() throws {
        let (status, out, err) = try Self.run(["--help"])
        #expect(status == 0 && err.isEmpty)
        #expect(out.hasPrefix("usage: responder-server --listen HOST:PORT --store sqlite:FILE|postgresql://... --tokens FILE\n"))
        #expect(out.contains("--regions FILE") && out.contains("--fleets FILE") && out.hasSuffix("Runs until SIGTERM or SIGINT.\n"))
    }

    @Test(arguments: [
        (["--listen", "8080", "--store", "sqlite:x.db", "--tokens", "t.csv"], "responder-server: --listen: expected HOST:PORT, found '8080'"),
        (
            ["--listen", "127.0.0.1:99999", "--store", "sqlite:x.db", "--tokens", "t.csv"],
            "responder-server: --listen: expected HOST:PORT, found '127.0.0.1:99999'"
        ),
        (["--store", "sqlite:x.db", "--tokens", "t.csv"], "responder-server: missing required option '--listen'"),
        (["--listen", "127.0.0.1:0", "--bogus"], "responder-server: unknown option '--bogus'")
    ])
    func aBadOptionStopsItWithTheUsage(arguments: [String], message: String) throws {
        let (status, out, err) = try Self.run(arguments)
        #expect(status == 2 && out.isEmpty)
        #expect(err.hasPrefix(message + "\nusage: responder-server "), "\(err)")
    }
}
