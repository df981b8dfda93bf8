import JSON

#if canImport(Glibc)
import Glibc
#endif
import CommandSupport
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ResponderService
import ResponderStore
import Responders

let help = """
    usage: responder-load --postgres URL [--phones N] [--seconds S] [--rate F] [--workers W]
                          [--server PATH] [--dir DIR] [--json]

    A load and fault bench: two responder-server instances on one PostgreSQL database, and N
    simulated phones, each with the library's phone side (a PhoneQueue on SQLite, the Sender with
    its backoff), uploading over real HTTP to either instance (round robin, as a load balancer
    would) with faults: lost answers (the phone resends: duplicates), dropped connections,
    duplicated requests, fixes reordered inside a batch. At 27 % of the run the leader is killed
    with SIGKILL and restarted 3 s later; 1 % of the phones (on a mission, OFFLINE after 60 s) go
    silent at 13 %, 1 % more at 57 %. Incidents are posted where silent phones are.
      --postgres URL   an empty database (its tables are created; existing rows are dropped)
      --phones N       phones (default 1000)
      --seconds S      length of the run (default 150; at least 100 for the silent phones)
      --rate F         fixes per phone per second (default 10)
      --workers W      client threads (default 32)
      --server PATH    responder-server (default: beside this program)
      --dir DIR        scratch directory for the phone queues (default: a new one in /tmp)
    Reports: sustained fixes/s and p50/p99 upload latency; fixes lost; duplicates stored; time
    to OFFLINE of silent phones past the threshold (with and without a failover); incidents
    offered to unreachable responders.
    """

func die(_ message: String) -> Never {
    logLine("responder-load: \(message)")
    exit(2)
}

final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let mutex = NSLock()
    init(_ value: T) { self.value = value }
    func with<R>(_ body: (inout T) -> R) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return body(&value)
    }
}

/// One synchronous HTTP exchange (URLSession, keep-alive). Nil when there was no answer.
final class Client: @unchecked Sendable {
    let session: URLSession
    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 256
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }
    func send(_ method: String, _ url: String, body: Data? = nil, token: String? = nil) -> (Int, Data)? {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(Int, Data)?>(nil)
        session.dataTask(with: request) { data, response, _ in
            if let http = response as? HTTPURLResponse { result.with { $0 = (http.statusCode, data ?? Data()) } }
            done.signal()
        }.resume()
        done.wait()
        return result.with { $0 }
    }
}

/// Two service instances as processes.
final class Instances: @unchecked Sendable {
    let binary: String, store: String, tokens: String, dir: String
    var processes: [Process?] = [nil, nil]
    var ports: [Int] = [0, 0]
    init(binary: String, store: String, tokens: String, dir: String) {
        self.binary = binary
        self.store = store
        self.tokens = tokens
        self.dir = dir
    }
    func start(_ k: Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        let port = ports[k]
        p.arguments = ["--listen", "127.0.0.1:\(port)", "--store", store, "--tokens", tokens, "--instance", "i\(k)", "--threads", "8"]
        let out = dir + "/instance\(k).out"
        FileManager.default.createFile(atPath: out, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: out)
        do { try p.run() } catch { die("cannot start \(binary): \(error)") }
        for _ in 0..<400 {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                ports[k] = port
                processes[k] = p
                return
            }
            usleep(25_000)
        }
        die("instance \(k) did not start: \((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")")
    }
    func kill9(_ k: Int) {
        guard let p = processes[k] else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        processes[k] = nil
    }
    func stopAll() {
        for k in 0..<2 {
            guard let p = processes[k] else { continue }
            kill(p.processIdentifier, SIGTERM)
            p.waitUntilExit()
        }
    }
}

/// The phone's connection: round robin over the instances, with faults.
struct FaultyTransport: UploadTransport {
    let client: Client
    let bases: () -> [String]
    var turn: Int
    var rng: SplitMix64Local
    let latencies: Locked<[Double]>
    let counters: Locked<[String: Int]>

    mutating func next() -> String {
        let list = bases()
        turn += 1
        return list[turn % list.count]
    }
    mutating func healthCheck(now: Double) -> TransportResponse {
        guard let (code, _) = client.send("GET", next() + "/health") else { return .unreachable }
        return .status(code)
    }
    mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse {
        let roll = rng.unit()
        if roll < 0.02 {
            counters.with { $0["dropped_connections", default: 0] += 1 }
            return .unreachable
        }
        var fixes = batch.fixes
        if rng.unit() < 0.1 { fixes.shuffle(using: &rng) }
        let body = Data(LoadBody.json(batch, fixes: fixes).utf8)
        let base = next()
        let started = DispatchTime.now().uptimeNanoseconds
        guard let (code, _) = client.send("POST", base + "/v1/locations", body: body, token: token) else { return .unreachable }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if code == 200 { latencies.with { $0.append(seconds) } }
        if rng.unit() < 0.02 {
            counters.with { $0["duplicated_requests", default: 0] += 1 }
            _ = client.send("POST", next() + "/v1/locations", body: body, token: token)
        }
        if code == 200 && roll > 0.98 {
            counters.with { $0["lost_answers", default: 0] += 1 }
            return .unreachable
        }
        return .status(code)
    }
    mutating func refreshToken(now: Double) -> String? { nil }
}

struct SplitMix64Local: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

enum LoadBody {
    static func json(_ batch: UploadBatch, fixes: [ReportedFix]) -> String {
        var text = "{\"responder\": \(batch.responder.rawValue), \"fixes\": ["
        for (k, f) in fixes.enumerated() {
            if k > 0 { text += ", " }
            text +=
                "{\"seq\": \(f.sequence), \"t\": \(f.fix.time), \"lat\": \(f.fix.latitude), \"lon\": \(f.fix.longitude), "
                + "\"acc\": \(f.fix.accuracy), \"duty\": \"\(f.duty.name)\", \"power\": \"\(f.powerMode.name)\"}"
        }
        let t = batch.telemetry
        return text + "], \"telemetry\": {\"permission\": \"\(t.permission.name)\", \"location_services\": \(t.locationServicesEnabled), "
            + "\"power_mode\": \"\(t.powerMode.name)\", \"app_state\": \"\(t.appState.name)\", \"queue_depth\": \(t.queueDepth), "
            + "\"oldest_age_s\": \(t.oldestEntryAge), \"network\": \"\(t.network.name)\"}}"
    }
}

final class Phone: @unchecked Sendable {
    let id: ResponderID
    let queue: PhoneQueue
    var sender: Sender
    var transport: FaultyTransport
    let duty: DutyState
    let latitude: Double, longitude: Double
    var silentAt = Double.infinity
    var lastKeptTime = -Double.infinity
    var nextFix = 0.0
    init(id: ResponderID, queue: PhoneQueue, sender: Sender, transport: FaultyTransport, duty: DutyState, latitude: Double, longitude: Double) {
        self.id = id
        self.queue = queue
        self.sender = sender
        self.transport = transport
        self.duty = duty
        self.latitude = latitude
        self.longitude = longitude
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
}

// MARK: - Main

let args: Arguments
do {
    args = try Arguments(
        Array(CommandLine.arguments.dropFirst()),
        options: [
            .value("postgres"), .value("phones"), .value("seconds"), .value("rate"), .value("workers"), .value("server"),
            .value("dir"), .flag("json")
        ])
} catch { die("\(error)\n\(help)") }
if args.wantsHelp {
    print(help)
    exit(0)
}
let postgres: String, phonesCount: Int, seconds: Double, rate: Double, workers: Int
do {
    postgres = try args.required("postgres")
    phonesCount = try args.int("phones", default: 1000, in: 10...100_000)
    seconds = try args.double("seconds", default: 150, in: 100...3_600)
    rate = try args.double("rate", default: 10, in: 0.1...100)
    workers = try args.int("workers", default: 32, in: 1...512)
} catch { die("\(error)\n\(help)") }
let serverBinary =
    args.string("server")
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("responder-server").path
let dir = args.string("dir") ?? (NSTemporaryDirectory() + "responder-load-" + UUID().uuidString)
try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
defer { if args.string("dir") == nil { try? FileManager.default.removeItem(atPath: dir) } }

// A fresh schema.
do {
    let db = try PostgresDatabase(url: postgres)
    try db.execute("DROP TABLE IF EXISTS fixes, latest, statuses, incidents, incident_acks, schema_migrations")
} catch { die("\(error)") }
var tokenLines = "responder,token\n"
for k in 0..<phonesCount { tokenLines += "\(k),token\(k)\n" }
try! tokenLines.write(toFile: dir + "/tokens.csv", atomically: true, encoding: .utf8)
let instances = Instances(binary: serverBinary, store: postgres, tokens: dir + "/tokens.csv", dir: dir)
instances.start(0)
usleep(300_000)
instances.start(1)
let bases = Locked<[String]>(instances.ports.map { "http://127.0.0.1:\($0)" })
let client = Client()
let latencies = Locked<[Double]>([]), counters = Locked<[String: Int]>([:])
// The phones' queues first (opening 1,000 SQLite files takes a while), then the clock starts.
var queues: [PhoneQueue] = []
for k in 0..<phonesCount {
    do { queues.append(try PhoneQueue(path: dir + "/phone\(k).db", responder: ResponderID(k))) } catch { die("\(error)") }
}
let start = Date().timeIntervalSince1970
let silent1At = start + 0.13 * seconds, killAt = start + 0.27 * seconds, silent2At = start + 0.57 * seconds
var phones: [Phone] = []
var rng = SplitMix64Local(state: 42)
for k in 0..<phonesCount {
    let id = ResponderID(k)
    let queue = queues[k]
    let group = k % 100
    let phone = Phone(
        id: id, queue: queue, sender: Sender(responder: id, token: "token\(k)", network: .cellular, now: start, batchLimit: 100),
        transport: FaultyTransport(
            client: client, bases: { bases.with { $0 } }, turn: k, rng: SplitMix64Local(state: UInt64(k) &* 7919),
            latencies: latencies, counters: counters),
        duty: group < 2 ? .onMission : .onDuty,
        latitude: 60.0 + rng.unit() * 0.5, longitude: 24.5 + rng.unit() * 1.0)
    if group == 0 { phone.silentAt = silent1At }
    if group == 1 { phone.silentAt = silent2At }
    phone.nextFix = start + rng.unit() / rate
    phones.append(phone)
}
let allPhones = phones
let end = start + seconds
logLine("responder-load: \(phonesCount) phones, \(seconds) s, \(rate) fixes/phone/s, instances on ports \(instances.ports)")

// Phones: each worker owns every W-th phone.
let stored0 = Locked(0)
let group = DispatchGroup()
for w in 0..<workers {
    group.enter()
    Thread.detachNewThread {
        defer { group.leave() }
        let mine = stride(from: w, to: allPhones.count, by: workers).map { allPhones[$0] }
        while true {
            let now = Date().timeIntervalSince1970
            if now >= end { break }
            var busy = false
            for phone in mine where now < phone.silentAt {
                var fixes: [LocationFix] = []
                while phone.nextFix <= now && phone.nextFix < phone.silentAt {
                    fixes.append(LocationFix(time: phone.nextFix, latitude: phone.latitude, longitude: phone.longitude, accuracy: 8))
                    phone.lastKeptTime = phone.nextFix
                    phone.nextFix += 1 / rate
                }
                if !fixes.isEmpty { _ = try? phone.queue.append(contentsOf: fixes, duty: phone.duty) }
                // Upload about once a second per phone (or when the queue is long).
                if ((try? phone.queue.depth()) ?? 0) >= Int(rate) {
                    var q = phone.queue, t = phone.transport
                    let step = try? phone.sender.step(now: now, device: DeviceConditions(), queue: &q, transport: &t)
                    phone.transport = t
                    if case .sent? = step { busy = true }
                }
            }
            if !busy { usleep(20_000) }
        }
    }
}
usleep(100_000)

// Faults and observation.
var killedAt: Double?, restartedAt: Double?, failoverSeconds: Double?
var offlineSeen: [ResponderID: Double] = [:]
var offersToUnreachable = 0, incidentsPosted = 0, incidentId: Int64 = 1
var nextIncident = start + 10
var storedAtWindowStart = 0, windowStart = 0.0
func leaderIndex() -> Int? {
    for k in 0..<2 where instances.processes[k] != nil {
        if let (_, data) = client.send("GET", "http://127.0.0.1:\(instances.ports[k])/v1/status"),
            let answer = try? JSONValue.parse([UInt8](data)), answer["leader"] == .bool(true)
        {
            return k
        }
    }
    return nil
}
func storedCount() -> Int {
    (try? PostgresDatabase(url: postgres).query("SELECT count(*) FROM fixes", []).first?.first?.int).map { Int($0 ?? 0) } ?? 0
}
while Date().timeIntervalSince1970 < end {
    let now = Date().timeIntervalSince1970
    if windowStart == 0 && now > start + 10 {
        windowStart = now
        storedAtWindowStart = storedCount()
    }
    if killedAt == nil && now >= killAt, let leader = leaderIndex() {
        instances.kill9(leader)
        killedAt = Date().timeIntervalSince1970
        logLine("responder-load: killed the leader (instance \(leader)) with SIGKILL")
        while failoverSeconds == nil && Date().timeIntervalSince1970 - killedAt! < 30 {
            if leaderIndex() != nil { failoverSeconds = Date().timeIntervalSince1970 - killedAt! } else { usleep(50_000) }
        }
        usleep(UInt32(max(0, 3 - (Date().timeIntervalSince1970 - killedAt!)) * 1e6))
        instances.start(leader)
        restartedAt = Date().timeIntervalSince1970
        logLine("responder-load: restarted instance \(leader)")
    }
    // Who is OFFLINE (any live instance answers).
    if let k = (0..<2).first(where: { instances.processes[$0] != nil }),
        let (_, data) = client.send("GET", "http://127.0.0.1:\(instances.ports[k])/v1/responders"),
        case .array(let list)? = try? JSONValue.parse([UInt8](data))
    {
        let t = Date().timeIntervalSince1970
        for item in list where item["status"] == .string("offline") {
            if case .number(let r, _)? = item["responder"], let id = ResponderID(rawValue: Int32(exactly: r) ?? -1), offlineSeen[id] == nil {
                offlineSeen[id] = t
            }
        }
    }
    // An incident where a phone that has been silent for over its DEGRADED threshold (30 s) is.
    if now >= nextIncident {
        nextIncident = now + 5
        let unreachable = phones.filter { now - $0.lastKeptTime > 31 && now > $0.silentAt }
        if let target = unreachable.randomElement() {
            let body = "{\"id\": \(incidentId), \"lat\": \(target.latitude), \"lon\": \(target.longitude), \"ack_timeout_s\": 30}"
            incidentId += 1
            if let k = (0..<2).first(where: { instances.processes[$0] != nil }),
                let (code, data) = client.send("POST", "http://127.0.0.1:\(instances.ports[k])/v1/incidents", body: Data(body.utf8)),
                code == 201, let answer = try? JSONValue.parse([UInt8](data))
            {
                incidentsPosted += 1
                if case .number(let offered, _)? = answer["offered_to"],
                    unreachable.contains(where: { Double($0.id.rawValue) == offered })
                {
                    offersToUnreachable += 1
                }
            }
        }
    }
    usleep(250_000)
}
let windowEnd = Date().timeIntervalSince1970
let storedAtWindowEnd = storedCount()
group.wait()
// Drain: every phone that did not go silent sends what it still holds (no faults needed).
let drainEnd = Date().timeIntervalSince1970 + 60
for phone in phones where phone.silentAt == .infinity {
    while ((try? phone.queue.depth()) ?? 0) > 0 && Date().timeIntervalSince1970 < drainEnd {
        var q = phone.queue, t = phone.transport
        let step = try? phone.sender.step(now: Date().timeIntervalSince1970 + 60, device: DeviceConditions(), queue: &q, transport: &t)
        phone.transport = t
        if case .sent? = step { continue }
        usleep(10_000)
    }
}
// Score against the database.
var lost = 0, kept = 0, queuedAtEnd = 0
var storedRows = 0, distinctRows = 0
var lastStored: [Int: Double] = [:]
do {
    let db = try PostgresDatabase(url: postgres)
    for row in try db.query("SELECT responder, max(t) FROM fixes GROUP BY responder", []) {
        if let r = row[0].int, let t = row[1].double { lastStored[Int(r)] = t }
    }
    let rows = try db.query("SELECT responder, count(*), count(DISTINCT seq), min(seq), max(seq) FROM fixes GROUP BY responder", [])
    var byResponder: [Int: (Int, Int)] = [:]
    for row in rows {
        byResponder[Int(row[0].int ?? -1)] = (Int(row[1].int ?? 0), Int(row[2].int ?? 0))
        storedRows += Int(row[1].int ?? 0)
        distinctRows += Int(row[2].int ?? 0)
    }
    for phone in phones {
        let last = Int(phone.queue.lastSequence)
        kept += last
        let queued = (try? phone.queue.depth()) ?? 0
        queuedAtEnd += queued
        let stored = byResponder[Int(phone.id.rawValue)]?.1 ?? 0
        lost += max(0, last - stored - queued)
    }
} catch { die("\(error)") }
instances.stopAll()

var lateness: [(group: String, seconds: Double)] = []
for phone in phones where phone.silentAt < .infinity {
    // The server counts from the newest fix it stored (queued fixes never sent do not count).
    let deadline = (lastStored[Int(phone.id.rawValue)] ?? phone.lastKeptTime) + 60
    guard let seen = offlineSeen[phone.id] else {
        lateness.append((phone.silentAt == silent1At ? "failover" : "plain", .infinity))
        continue
    }
    lateness.append((phone.silentAt == silent1At ? "failover" : "plain", seen - deadline))
}
let acrossFailover = lateness.filter { $0.group == "failover" }.map(\.seconds)
let plain = lateness.filter { $0.group == "plain" }.map(\.seconds)
let l = latencies.with { $0 }
let c = counters.with { $0 }
let sustained = Double(storedAtWindowEnd - storedAtWindowStart) / (windowEnd - windowStart)
var o = JSONObject()
o.set("phones", phonesCount)
o.set("seconds", seconds, decimals: 0)
o.set("fixes_per_second_sustained", sustained, decimals: 0)
o.set("upload_p50_ms", percentile(l, 0.5) * 1000, decimals: 1)
o.set("upload_p99_ms", percentile(l, 0.99) * 1000, decimals: 1)
o.set("uploads_ok", l.count)
o.set("fixes_kept", kept)
o.set("fixes_stored", distinctRows)
o.set("fixes_queued_at_end", queuedAtEnd)
o.set("fixes_lost", lost)
o.set("duplicates_stored", storedRows - distinctRows)
o.set("lost_answers", c["lost_answers"] ?? 0)
o.set("dropped_connections", c["dropped_connections"] ?? 0)
o.set("duplicated_requests", c["duplicated_requests"] ?? 0)
o.set("failover_seconds", failoverSeconds ?? .nan, decimals: 3)
o.set("offline_late_max_s_across_failover", acrossFailover.max() ?? .nan, decimals: 2)
o.set("offline_late_max_s_plain", plain.max() ?? .nan, decimals: 2)
o.set("silent_phones", lateness.count)
o.set("incidents_posted", incidentsPosted)
o.set("offers_to_unreachable", offersToUnreachable)
print(o.text)
