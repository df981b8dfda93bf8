import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Responders
@testable import ResponderService

/// responder-server started as a process (built beside this test bundle), stopped with SIGKILL.
final class ServerProcess {
    let process = Process()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    init(store: String, tokens: String, instance: String, scratch: ScratchDirectory) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("responder-server")
        let out = scratch.file("\(instance).out")
        FileManager.default.createFile(atPath: out, contents: nil)
        process.executableURL = binary
        process.arguments = ["--listen", "127.0.0.1:0", "--store", store, "--tokens", tokens, "--instance", instance]
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: scratch.file("\(instance).err")) ?? FileHandle.nullDevice
        FileManager.default.createFile(atPath: scratch.file("\(instance).err"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: scratch.file("\(instance).err"))
        try process.run()
        var found: Int?
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let p = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                found = p; break
            }
            usleep(50_000)
        }
        guard let found else {
            process.terminate()
            throw StoreError("start \(instance)", (try? String(contentsOfFile: scratch.file("\(instance).err"), encoding: .utf8)) ?? "")
        }
        port = found
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

func isLeader(_ base: String) async -> Bool {
    guard let (_, text) = try? await request("GET", base + "/v1/status") else { return false }
    return (try? json(text) as? [String: Any])??["leader"] as? Bool == true
}

func status(of responder: Int, at base: String) async -> String? {
    guard let (_, text) = try? await request("GET", base + "/v1/responders"),
        let list = (try? json(text)) as? [[String: Any]]
    else { return nil }
    return list.first { $0["responder"] as? Int == responder }?["status"] as? String
}

@Suite(.serialized) struct ProcessTests {
    /// Two instances on one PostgreSQL: one leader; a fix posted to the follower reaches the
    /// leader within 1 s; the leader killed with SIGKILL is replaced within 5 s, and the new
    /// leader, rebuilt from the stored fixes, turns a silent responder OFFLINE within 5 s of
    /// its threshold.
    @Test func theLeaderIsReplacedWithin5sAndKeepsTheDeadlines() async throws {
        guard let url = try TestPostgres.freshDatabase() else {
            Issue.record("no PostgreSQL: set RESPONDER_TEST_POSTGRES or install postgresql (initdb)")
            return
        }
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        try "responder,token\n1,t1\n2,t2\n".write(toFile: scratch.file("tokens.csv"), atomically: true, encoding: .utf8)
        let a = try ServerProcess(store: url, tokens: scratch.file("tokens.csv"), instance: "a", scratch: scratch)
        defer { a.stop() }
        #expect(await eventually(5) { await isLeader(a.base) })
        let b = try ServerProcess(store: url, tokens: scratch.file("tokens.csv"), instance: "b", scratch: scratch)
        defer { b.stop() }
        try await Task.sleep(nanoseconds: 300_000_000)
        let bFollows = await !isLeader(b.base)
        #expect(bFollows)
        // Responder 2 reports to the follower: ONLINE (written by the leader) within 1 s.
        let now = Date().timeIntervalSince1970
        let posted = Date()
        let (code, _) = try await request(
            "POST", b.base + "/v1/locations",
            body: "{\"responder\": 2, \"fixes\": [\(fixJSON(1, t: now, duty: "on_duty"))]}", token: "t2")
        #expect(code == 200)
        #expect(await eventually(1) { await status(of: 2, at: a.base) == "online" })
        #expect(Date().timeIntervalSince(posted) <= 1.2)
        // Responder 1's last fix (on a mission, OFFLINE after 60 s) is 56 s old when it arrives.
        let last = Date().timeIntervalSince1970 - 56
        _ = try await request(
            "POST", b.base + "/v1/locations",
            body: "{\"responder\": 1, \"fixes\": [\(fixJSON(1, t: last, duty: "on_mission"))]}", token: "t1")
        #expect(await eventually(2) { await status(of: 1, at: b.base) == "degraded" })
        let killed = Date()
        a.kill9()
        #expect(await eventually(5) { await isLeader(b.base) })
        let failover = Date().timeIntervalSince(killed)
        #expect(failover <= 5, "failover took \(failover) s")
        #expect(await eventually(10) { await status(of: 1, at: b.base) == "offline" })
        let late = Date().timeIntervalSince1970 - (last + 60)
        #expect(late <= 5, "OFFLINE \(late) s after the threshold across a failover")
        // The killed instance comes back as a follower.
        let again = try ServerProcess(store: url, tokens: scratch.file("tokens.csv"), instance: "a2", scratch: scratch)
        defer { again.stop() }
        try await Task.sleep(nanoseconds: 500_000_000)
        let followerAgain = await !isLeader(again.base), stillLeader = await isLeader(b.base)
        #expect(followerAgain && stillLeader)
    }

    /// A real Prometheus scrapes a running instance with deploy/prometheus/alerts.yml loaded and
    /// reports NoOnlineResponders firing for the region whose only responder is OFFLINE.
    @Test func prometheusFiresNoOnlineRespondersFromTheScrapedMetrics() async throws {
        guard runTool("prometheus", ["--version"]) != nil else {
            Issue.record("prometheus not installed: the alert was not evaluated")
            return
        }
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let north = AlertRegion(name: "north", shape: .circle(center: .init(uncheckedLatitude: 61, longitude: 25), radiusMeters: 20_000))
        let south = AlertRegion(name: "south", shape: .circle(center: .init(uncheckedLatitude: 60, longitude: 25), radiusMeters: 20_000))
        let running = try RunningService(store: "sqlite:" + scratch.file("p.db"), tokens: [(1, "a"), (2, "b")], regions: [north, south])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        _ = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 1, \"fixes\": [\(fixJSON(1, t: t - 500, lat: 61, lon: 25))]}", token: "a")
        _ = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 2, \"fixes\": [\(fixJSON(1, t: t, lat: 60, lon: 25))]}", token: "b")
        let rules = serverPackage.appendingPathComponent("deploy/prometheus/alerts.yml").path
        let promPort = freePort()
        let config = """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            rule_files: ['\(rules)']
            scrape_configs:
              - job_name: responders
                static_configs: [{targets: ['127.0.0.1:\(running.http.port)']}]
            """
        try config.write(toFile: scratch.file("prometheus.yml"), atomically: true, encoding: .utf8)
        let prometheus = Process()
        prometheus.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        if let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map({ "\($0)/prometheus" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        {
            prometheus.executableURL = URL(fileURLWithPath: path)
        }
        prometheus.arguments = [
            "--config.file=" + scratch.file("prometheus.yml"), "--storage.tsdb.path=" + scratch.file("tsdb"),
            "--web.listen-address=127.0.0.1:\(promPort)", "--log.level=warn"
        ]
        prometheus.standardOutput = FileHandle.nullDevice
        prometheus.standardError = FileHandle.nullDevice
        try prometheus.run()
        defer {
            prometheus.terminate()
            prometheus.waitUntilExit()
        }
        // NoOnlineResponders has `for: 30s`: pending first, then firing.
        var firing: [[String: Any]] = []
        let fired = await eventually(75) {
            guard let (_, text) = try? await request("GET", "http://127.0.0.1:\(promPort)/api/v1/alerts"),
                let answer = (try? json(text)) as? [String: Any], let data = answer["data"] as? [String: Any],
                let alerts = data["alerts"] as? [[String: Any]]
            else { return false }
            firing = alerts.filter { $0["state"] as? String == "firing" }
            return !firing.isEmpty
        }
        #expect(fired)
        let labels = firing.compactMap { $0["labels"] as? [String: String] }
        #expect(labels.contains { $0["alertname"] == "NoOnlineResponders" && $0["region"] == "north" && $0["severity"] == "critical" })
        #expect(!labels.contains { $0["region"] == "south" })
    }
}

/// A TCP port free on 127.0.0.1 now.
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
