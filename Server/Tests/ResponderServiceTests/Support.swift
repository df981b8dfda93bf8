import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Responders
@testable import ResponderService

/// The package's directory (Server/).
let serverPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A scratch directory under the system's temporary directory, removed by `cleanup()`.
struct ScratchDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "responder-service-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

/// A PostgreSQL server for the tests: the URL in `RESPONDER_TEST_POSTGRES` (what .ci/run
/// starts), or a throw-away cluster started by scripts/scratch-postgres on first use and
/// stopped when the test process exits; nil when neither is possible (the tests that need it
/// then record why and pass nothing off as tested).
enum TestPostgres {
    nonisolated(unsafe) private static var started: (url: String, dir: String)?
    private static let lock = NSLock()

    static let baseURL: String? = {
        if let url = ProcessInfo.processInfo.environment["RESPONDER_TEST_POSTGRES"], !url.isEmpty { return url }
        let script = serverPackage.appendingPathComponent("scripts/scratch-postgres").path
        guard FileManager.default.isExecutableFile(atPath: script) else { return nil }
        let out = NSTemporaryDirectory() + "scratch-postgres-" + UUID().uuidString
        defer { unlink(out + ".url"); unlink(out + ".dir") }
        guard system("'\(script)' > '\(out).url' 2> '\(out).dir' < /dev/null") == 0,
            let url = try? String(contentsOfFile: out + ".url", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            let dir = try? String(contentsOfFile: out + ".dir", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !url.isEmpty
        else { return nil }
        started = (url, dir)
        atexit {
            guard let s = TestPostgres.started else { return }
            let script = serverPackage.appendingPathComponent("scripts/scratch-postgres").path
            _ = system("'\(script)' stop '\(s.dir)' > /dev/null 2>&1")
        }
        return url
    }()

    /// A new empty database on the test server; its URL.
    static func freshDatabase() throws -> String? {
        guard let base = baseURL else { return nil }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let db = try PostgresDatabase(url: base)
        try db.execute("CREATE DATABASE \(name)")
        guard let slash = base.range(of: "/", options: .backwards) else { return nil }
        return String(base[..<slash.lowerBound]) + "/" + name
    }
}

/// A running service on loopback (HTTP server, leader loop) over `store`.
final class RunningService: @unchecked Sendable {
    let service: ResponderService
    let http: HTTPServer
    var base: String { "http://127.0.0.1:\(http.port)" }

    init(
        store location: String, tokens: [(Int, String)], instance: String = "test",
        regions: [AlertRegion] = [], fleets: FleetTable = FleetTable(), clock: @escaping @Sendable () -> Double = unixSeconds
    ) throws {
        let store = try ServiceStore(location)
        let service = ResponderService(
            instance: instance, store: store,
            tokens: TokenTable(tokens.map { (ResponderID($0.0), $0.1) }), regions: regions, fleets: fleets,
            tickInterval: 0.05, clock: clock)
        self.service = service
        http = try HTTPServer(host: "127.0.0.1", port: 0, threads: 4) { service.handle($0) }
        service.start()
    }

    func stop() {
        http.stop()
        service.stop()
    }
}

/// One HTTP exchange: status and body text.
func request(_ method: String, _ url: String, body: String? = nil, token: String? = nil) async throws -> (Int, String) {
    var r = URLRequest(url: URL(string: url)!)
    r.httpMethod = method
    r.timeoutInterval = 20
    if let body { r.httpBody = Data(body.utf8) }
    if let token { r.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let (data, response) = try await URLSession.shared.data(for: r)
    return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
}

/// Parses JSON text (the service's answers) for assertions.
func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }

/// A fix object as a phone sends it.
func fixJSON(_ seq: Int, t: Double, lat: Double = 60.17, lon: Double = 24.94, duty: String = "on_duty") -> String {
    "{\"seq\": \(seq), \"t\": \(t), \"lat\": \(lat), \"lon\": \(lon), \"acc\": 10.0, \"duty\": \"\(duty)\", \"power\": \"normal\"}"
}

/// Waits until `condition` holds, polling every 50 ms, at most `seconds`; returns whether it held.
func eventually(_ seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    return try await condition()
}

/// Runs `tool` with `arguments`; exit status and combined output. Nil when the tool is missing.
func runTool(_ tool: String, _ arguments: [String], stdin: String? = nil) -> (Int32, String)? {
    guard
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map({ "\($0)/\(tool)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    let input = Pipe()
    p.standardInput = input
    do { try p.run() } catch { return nil }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
