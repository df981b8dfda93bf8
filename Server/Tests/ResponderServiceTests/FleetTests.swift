import Foundation
import Testing
import Responders
@testable import ResponderService

/// `--fleets FILE`: the file's format and errors, and each fleet's policy applied by a running
/// service (liveness thresholds, ACK timeout, the policy served to the phone), once per store.
@Suite(.serialized) struct FleetTests {
    static let file = """
        {"default": {"ack_timeout_s": 20},
         "fleets": [{"name": "quick", "responders": [1, 3],
                     "policy": {"on_mission": {"degraded_after_s": 1, "offline_after_s": 2}, "ack_timeout_s": 1.5,
                                "on_duty": {"interval_s": 30}, "backoff_max_s": 8}}]}
        """

    static func parse(_ text: String) throws(RequestError) -> FleetTable { try FleetFile.parse(Array(text.utf8)) }

    /// What a fleet leaves out is the default's, what the default leaves out is the standard's;
    /// an interval without thresholds scales them (the memo's 1.5 x / 3 x on duty).
    @Test func policiesInheritAndScale() throws {
        let table = try Self.parse(Self.file)
        #expect(table.defaultPolicy.ackTimeout == 20)
        #expect(table.defaultPolicy.onDuty == FleetPolicy.standard.onDuty)
        let quick = try #require(table.fleet(named: "quick"))
        #expect(quick.responders == [ResponderID(1), ResponderID(3)])
        #expect(quick.policy.ackTimeout == 1.5 && quick.policy.maximumBackoff == 8 && quick.policy.initialBackoff == 1)
        #expect(quick.policy.onMission.thresholds == LivenessThresholds(degradedAfter: 1, offlineAfter: 2))
        #expect(quick.policy.onMission.profile == CollectionProfile.onMission)
        #expect(quick.policy.onDuty.profile == CollectionProfile(interval: 30, distance: 50))
        #expect(quick.policy.onDuty.thresholds == LivenessThresholds(degradedAfter: 45, offlineAfter: 90))
        #expect(quick.policy.lowPower == FleetPolicy.standard.lowPower)
        #expect(table.policy(of: ResponderID(2)) == table.defaultPolicy)
        // An empty file is the standard policy for everyone; the served JSON reads back the same.
        #expect(try Self.parse("{}") == FleetTable())
        let served = try Self.parse("{\"default\": \(FleetFile.json(quick.policy))}")
        #expect(served.defaultPolicy == quick.policy)
    }

    /// Every mistake names its JSON path.
    @Test(arguments: [
        ("[]", "body: expected an object, found an array"),
        (#"{"fleet": []}"#, "fleet: unknown key (expected one of default, fleets)"),
        (#"{"fleets": [{"responders": []}]}"#, "fleets[0].name: missing"),
        (#"{"fleets": [{"name": "a"}]}"#, "fleets[0].responders: missing"),
        (#"{"fleets": [{"name": "a", "responders": "1,2"}]}"#, "fleets[0].responders: expected an array, found a string"),
        (#"{"fleets": [{"name": "a", "responders": [1, -2]}]}"#, "fleets[0].responders[1]: expected an integer in 0...2147483647, found -2"),
        (
            #"{"fleets": [{"name": "a", "responders": [1]}, {"name": "b", "responders": [1]}]}"#,
            "fleets[1].responders[0]: responder 1 is already in fleet 'a'"
        ),
        (
            #"{"fleets": [{"name": "a", "responders": [], "policy": {"on_duty": {"offline_after_s": 60}}}]}"#,
            "fleets[0].policy.on_duty.offline_after_s: degraded_after_s (90) must not exceed offline_after_s (60)"
        ),
        (
            #"{"default": {"on_mision": {}}}"#,
            "default.on_mision: unknown key (expected one of ack_timeout_s, backoff_initial_s, backoff_max_s, low_power, on_duty, on_mission)"
        ),
        (#"{"default": {"ack_timeout_s": 0}}"#, "default.ack_timeout_s: 0.0 is outside 0.001...86400.0"),
        (#"{"default": {"low_power": {"interval_s": "60"}}}"#, "default.low_power.interval_s: expected a number, found a string"),
        (#"{"default": {"backoff_initial_s": 40}}"#, "default.backoff_initial_s: backoff_initial_s (40.0) must not exceed backoff_max_s (30.0)")
    ])
    func errorsNameTheJSONPath(text: String, message: String) {
        #expect(throws: RequestError(400, field: String(message.prefix { $0 != ":" }), String(message.drop { $0 != ":" }.dropFirst(2)))) {
            try Self.parse(text)
        }
    }

    /// The fleet's responders turn OFFLINE at its thresholds while the others keep the
    /// standard ones; an incident naming the fleet waits its ACK timeout; the phone reads its
    /// policy with its token.
    @Test(arguments: APITests.Store.allCases)
    func aRunningServiceAppliesEachFleetsPolicy(store: APITests.Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try APITests.location(store, in: scratch) else { return }
        let running = try RunningService(
            store: location, tokens: [(1, "a"), (2, "b"), (3, "c")], fleets: try Self.parse(Self.file))
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        for (id, token) in [(1, "a"), (2, "b")] {
            let (status, _) = try await request(
                "POST", running.base + "/v1/locations",
                body: "{\"responder\": \(id), \"fixes\": [\(fixJSON(1, t: t, duty: "on_mission"))]}", token: token)
            #expect(status == 200)
        }
        func statuses() async throws -> [Int: String] {
            let (_, body) = try await request("GET", running.base + "/v1/responders")
            let rows = try #require(try json(body) as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["responder"] as! Int, $0["status"] as! String) })
        }
        #expect(try await eventually(6) { try await statuses()[1] == "offline" })
        let now = try await statuses()
        #expect(now[2] == "online")  // standard on a mission: OFFLINE only at 60 s
        #expect(Date().timeIntervalSince1970 - t < 30)

        // Responder 3 (quick fleet) is the only one ONLINE near the incident.
        let (posted, _) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 3, \"fixes\": [\(fixJSON(1, t: Date().timeIntervalSince1970, lat: 60.1701, duty: "on_duty"))]}", token: "c")
        #expect(posted == 200)
        #expect(try await eventually(3) { try await statuses()[3] == "online" })
        var (status, body) = try await request(
            "POST", running.base + "/v1/incidents", body: #"{"id": 5, "lat": 60.17, "lon": 24.94, "fleet": "quick"}"#)
        #expect(status == 201)
        (status, body) = try await request("GET", running.base + "/v1/incidents/5")
        let five = try json(body) as? [String: Any]
        #expect(five?["ack_timeout_s"] as? Double == 1.5)
        (status, body) = try await request("POST", running.base + "/v1/incidents", body: #"{"id": 6, "lat": 60.17, "lon": 24.94}"#)
        (status, body) = try await request("GET", running.base + "/v1/incidents/6")
        let six = try json(body) as? [String: Any]
        #expect(six?["ack_timeout_s"] as? Double == 20)
        (status, body) = try await request("POST", running.base + "/v1/incidents", body: #"{"id": 8, "lat": 60.17, "lon": 24.94, "fleet": "south"}"#)
        #expect(status == 400 && body.contains("\"field\": \"fleet\""))

        (status, body) = try await request("GET", running.base + "/v1/policy", token: "a")
        let served = try #require(try json(body) as? [String: Any])
        #expect(status == 200 && served["responder"] as? Int == 1 && served["fleet"] as? String == "quick")
        let policy = try #require(served["policy"] as? [String: Any])
        #expect(policy["ack_timeout_s"] as? Double == 1.5 && policy["backoff_max_s"] as? Double == 8)
        (status, body) = try await request("GET", running.base + "/v1/policy", token: "b")
        let other = try json(body) as? [String: Any]
        #expect(status == 200 && other?["fleet"] is NSNull)
        (status, _) = try await request("GET", running.base + "/v1/policy")
        #expect(status == 401)
    }

    /// A bad fleet file stops the server before it listens: exit non-zero, the file and the
    /// JSON path named.
    @Test func aBadFleetFileStopsTheServer() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let tokens = scratch.file("tokens.csv"), fleets = scratch.file("fleets.json")
        try "1,a\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        try #"{"fleets": [{"name": "a", "responders": [1], "policy": {"on_duty": {"degraded_after_s": -1}}}]}"#
            .write(toFile: fleets, atomically: true, encoding: .utf8)
        let (status, _, text) = try ServerCommandTests.run([
            "--listen", "127.0.0.1:0", "--store", "sqlite:" + scratch.file("s.db"), "--tokens", tokens, "--fleets", fleets
        ])
        #expect(status != 0)
        #expect(text.contains("\(fleets): fleets[0].policy.on_duty.degraded_after_s: -1.0 is outside 0.001...604800.0"))
    }
}
