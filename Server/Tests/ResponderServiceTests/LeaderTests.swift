import Foundation
import Testing
import Responders
@testable import ResponderService

/// The leader's own pieces: the trail as stored, its view of the latest fixes, an incident
/// resumed by the next leader, and an incident taken from a holder who went OFFLINE.
@Suite(.serialized) struct LeaderTests {
    static func step(_ responder: Int, _ time: Double, _ event: AssignmentStep.Event) -> AssignmentStep {
        AssignmentStep(responder: ResponderID(responder), time: time, event: event)
    }

    /// Every event is written and read back; distances keep 0.1 m.
    @Test func aTrailRoundTripsEveryEvent() throws {
        let t = 1_764_300_000.5
        let trail = [
            Self.step(3, t, .offered(distanceMeters: 120.44)), Self.step(3, t + 30, .timedOut), Self.step(4, t + 30, .skipped(.degraded)),
            Self.step(5, t + 30, .offered(distanceMeters: 250)), Self.step(5, t + 31.25, .declined),
            Self.step(6, t + 31.25, .offered(distanceMeters: 0.06)),
            Self.step(6, t + 40, .acknowledged), Self.step(6, t + 90, .wentOffline), Self.step(7, t + 90, .skipped(.offDuty))
        ]
        let text = TrailJSON.encode(trail)
        #expect(text.hasPrefix("[{\"responder\": 3, \"t\": 1764300000.5, \"event\": \"offered\", \"distance_m\": 120.4}, "))
        var expected = trail
        expected[0].event = .offered(distanceMeters: 120.4)
        expected[5].event = .offered(distanceMeters: 0.1)
        #expect(try TrailJSON.decode(text) == expected)
        #expect(try TrailJSON.encode([]) == "[]" && TrailJSON.decode("[]") == [])
    }

    /// What is not a whole trail is refused, naming the value at fault; a step that cannot be
    /// read is never skipped (the steps around it would be read as the whole trail).
    @Test(arguments: [
        ("", "trail: not valid JSON at line 1, column 1"),
        ("{}", "trail: not an array of steps"),
        ("[1]", "trail[0]: not an object"),
        (#"[{"responder": 1, "t": 2, "event": "offered"}]"#, "trail[0].distance_m: missing"),
        (#"[{"responder": -1, "t": 2, "event": "declined"}]"#, "trail[0].responder: not a responder id: -1"),
        (#"[{"responder": 1.5, "t": 2, "event": "declined"}]"#, "trail[0].responder: not a responder id: 1.5"),
        (#"[{"responder": 1, "event": "declined"}]"#, "trail[0].t: missing"),
        (#"[{"responder": 1, "t": "2", "event": "declined"}]"#, "trail[0].t: not a finite number"),
        (#"[{"responder": 1, "t": 2, "event": "paused"}]"#, #"trail[0].event: unknown event "paused""#),
        (#"[{"responder": 1, "t": 2, "event": "skipped", "status": "asleep"}]"#, #"trail[0].status: unknown status "asleep""#),
        (#"[{"responder": 1, "t": 2, "event": 3}]"#, "trail[0].event: not a string")
    ])
    func whatIsNotATrailIsNamed(text: String, message: String) throws {
        let error = #expect(throws: TrailError.self) { try TrailJSON.decode(text) }
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        guard text.hasPrefix("[{") else { return }
        // Between two good steps it is the second step of three: [1].
        let mixed =
            "[{\"responder\": 1, \"t\": 2, \"event\": \"declined\"}, " + text.dropFirst().dropLast()
            + ", {\"responder\": 2, \"t\": 3, \"event\": \"timed_out\"}]"
        let inMixed = #expect(throws: TrailError.self) { try TrailJSON.decode(mixed) }
        #expect(inMixed?.path.hasPrefix("[1]") == true, "\(String(describing: inMixed))")
    }

    static func stored(_ responder: Int, _ sequence: Int64, _ time: Double) -> StoredFix {
        StoredFix(
            fix: ReportedFix(
                responder: ResponderID(responder), sequence: sequence,
                fix: LocationFix(time: time, latitude: 60, longitude: 25, accuracy: 10), duty: .onDuty),
            receivedAt: time + 1)
    }

    @Test func theLeadersStoreKeepsOnlyTheNewestFixOfEachResponder() {
        var store = LatestOnlyStore()
        var isNew: [Bool] = []
        let counts = store.insert([Self.stored(2, 5, 100), Self.stored(1, 1, 50), Self.stored(2, 4, 90), Self.stored(2, 6, 100)], isNew: &isNew)
        #expect(isNew == [true, true, false, true])
        #expect(counts == IngestCounts(stored: 3, duplicates: 1, latestMoved: 3))
        #expect(store.latest(of: ResponderID(2)) == Self.stored(2, 6, 100) && store.latest(of: ResponderID(3)) == nil)
        #expect(store.allLatest() == [Self.stored(1, 1, 50), Self.stored(2, 6, 100)])
        #expect(store.historyCount() == 2 && store.historyByArrival() == store.allLatest())
    }

    /// A phone whose clock runs 10 minutes ahead sends its last fix (stamped arrival + 600 s)
    /// and dies. The fix counts from its arrival (SERVICE.md: a fix stamped in the future holds
    /// the liveness only until a fix taken after its arrival comes), so the responder is OFFLINE
    /// 180 s after it. Neither a later tick that reads the row again nor a new leader (a restart,
    /// or the next leader after a lost connection) at arrival + 300 s may bring it back ONLINE.
    @Test func aFixStampedAheadCountsFromItsArrivalAcrossTicksAndRestarts() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let store = try ServiceStore("sqlite:" + scratch.file("s.db"), poolSize: 1)
        let arrival = 1_764_300_000.0
        let body = "{\"responder\": 1, \"fixes\": [\(fixJSON(1, t: arrival + 600))]}"
        _ = try store.ingest(try LocationBatch(body: Array(body.utf8)), receivedAt: arrival)
        func status(after ticks: [Double], of engine: LeaderEngine) throws -> LivenessStatus? {
            try store.with { (db) throws(StoreError) in for now in ticks { try engine.tick(now: now, on: db) } }
            return try store.latest().first?.status
        }
        let live = LeaderEngine(store: store, log: { _ in })
        #expect(try status(after: [arrival + 1], of: live) == .online)
        // The row is read again (it changed within the margin of the last look): still the same fix.
        #expect(try status(after: [arrival + 2.5, arrival + 180], of: live) == .offline)
        let next = LeaderEngine(store: store, log: { _ in })
        #expect(try status(after: [arrival + 300], of: next) == .offline)
        #expect(try status(after: [arrival + 301, arrival + 400], of: next) == .offline)
    }

    /// Responder 1 is offered incident 9 at T (ACK timeout 30 s) and acknowledges at T + 29
    /// while no leader runs (the acknowledgement is stored, the leader died at T + 28). The next
    /// leader starts at T + 31: the acknowledgement came before the deadline, so it stands (as
    /// it would with a leader that was merely slow), rather than the offer timing out at the
    /// restart and the incident going to responder 2.
    @Test func anAcknowledgementStoredInTimeWhileNoLeaderRanStands() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let store = try ServiceStore("sqlite:" + scratch.file("s.db"), poolSize: 1)
        let t0 = 1_764_300_000.0
        for (responder, lat) in [(1, 60.171), (2, 60.18)] {
            let body = "{\"responder\": \(responder), \"fixes\": [\(fixJSON(1, t: t0, lat: lat))]}"
            _ = try store.ingest(try LocationBatch(body: Array(body.utf8)), receivedAt: t0)
        }
        let request = try IncidentRequest(body: Array(#"{"id": 9, "lat": 60.17, "lon": 24.94, "ack_timeout_s": 30}"#.utf8))
        #expect(try store.insertIncident(request, at: t0 + 1))
        let first = LeaderEngine(store: store, log: { _ in })
        try store.with { (db) throws(StoreError) in _ = try first.tick(now: t0 + 2, on: db) }
        let offered = try #require(try store.incident(9))
        #expect(offered.offeredTo == 1)
        let offerTime = try #require(try TrailJSON.decode(offered.trail).last?.time)
        try store.insertAck(incident: 9, responder: ResponderID(1), at: offerTime + 29)
        let next = LeaderEngine(store: store, log: { _ in })
        try store.with { (db) throws(StoreError) in _ = try next.tick(now: offerTime + 31, on: db) }
        let after = try #require(try store.incident(9))
        #expect(after.state == .assigned && after.assignee == 1, "\(after.trail)")
        #expect(try store.ackOutcome(incident: 9, responder: ResponderID(1), at: offerTime + 29) == true)
        let steps = try TrailJSON.decode(after.trail)
        #expect(steps.count == 2 && steps.last?.event == .acknowledged && steps.last?.time == offerTime + 29)
    }

    static func post(_ running: RunningService, _ responder: Int, _ token: String, t: Double, lat: Double, duty: String = "on_duty") async throws {
        let (status, _) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": \(responder), \"fixes\": [\(fixJSON(1, t: t, lat: lat, duty: duty))]}", token: token)
        #expect(status == 200)
    }

    static func incident(_ running: RunningService, _ id: Int) async throws -> [String: Any] {
        let (_, body) = try await request("GET", running.base + "/v1/incidents/\(id)")
        return try #require(try json(body) as? [String: Any])
    }

    static func events(_ incident: [String: Any]) -> [String] {
        (incident["trail"] as? [[String: Any]] ?? []).map { "\($0["event"] as? String ?? "?") \($0["responder"] as? Int ?? -1)" }
    }

    /// A first leader over a new store at `location` with responders 1 and 2 ONLINE and
    /// incidents 9 (ACK timeout 60 s) and 10 (1 s) both offered to 1; stopped before it returns.
    static func twoOfferedIncidents(at location: String, tokens: [(Int, String)]) async throws {
        let first = try RunningService(store: location, tokens: tokens, instance: "first")
        defer { first.stop() }
        let t = Date().timeIntervalSince1970
        try await Self.post(first, 1, "a", t: t, lat: 60.171)
        try await Self.post(first, 2, "b", t: t, lat: 60.18)
        #expect(await eventually(3) { first.service.isLeader })
        #expect(await eventually(3) { await status(of: 2, at: first.base) == "online" })
        for (id, timeout) in [(9, 60), (10, 1)] {
            let (created, _) = try await request(
                "POST", first.base + "/v1/incidents", body: "{\"id\": \(id), \"lat\": 60.17, \"lon\": 24.94, \"ack_timeout_s\": \(timeout)}")
            #expect(created == 201)
        }
        #expect(try await eventually(3) { try await Self.incident(first, 10)["offered_to"] as? Int == 1 })
        #expect(try await eventually(3) { try await Self.incident(first, 9)["offered_to"] as? Int == 1 })
    }

    /// A leader stops with one incident offered (its deadline ahead) and one whose deadline
    /// passes while no leader runs; the next leader keeps the first offer (the responder
    /// acknowledges it) and times the second out at its deadline, asking the next responder.
    @Test func theNextLeaderResumesOpenIncidentsFromTheirTrails() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let location = "sqlite:" + scratch.file("s.db")
        let tokens = [(1, "a"), (2, "b")]
        try await Self.twoOfferedIncidents(at: location, tokens: tokens)
        try await Task.sleep(nanoseconds: 1_200_000_000)  // incident 10's deadline passes

        let next = try RunningService(store: location, tokens: tokens, instance: "next")
        defer { next.stop() }
        #expect(try await eventually(3) { try await Self.incident(next, 10)["offered_to"] as? Int == 2 })
        let ten = try await Self.incident(next, 10)
        // (2 does not answer either: its own timeout may follow.)
        #expect(Array(Self.events(ten).prefix(3)) == ["offered 1", "timed_out 1", "offered 2"])
        let trail = try #require(ten["trail"] as? [[String: Any]])
        #expect(trail[1]["t"] as? Double == (trail[0]["t"] as? Double).map { $0 + 1 })  // at the deadline, not at the restart
        let (acked, _) = try await request("POST", next.base + "/v1/incidents/9/ack", body: "{\"responder\": 1}", token: "a")
        #expect(acked == 200)
        #expect(try await eventually(3) { try await Self.incident(next, 9)["state"] as? String == "assigned" })
        #expect(Self.events(try await Self.incident(next, 9)) == ["offered 1", "acknowledged 1"])
    }

    /// A trail damaged outside the service (an unknown event in incident 9's) is neither
    /// resumed from its other steps nor written back: the next leader logs it once, names it
    /// in `GET /v1/incidents/9` (500) and resumes incident 10 as usual.
    @Test func aDamagedTrailIsLeftAsStoredAndNamed() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let location = "sqlite:" + scratch.file("s.db")
        let tokens = [(1, "a"), (2, "b")]
        try await Self.twoOfferedIncidents(at: location, tokens: tokens)

        let store = try ServiceStore(location, poolSize: 1)
        let damaged = try #require(try store.incident(9)).trail.replacingOccurrences(of: "\"offered\"", with: "\"paused\"")
        try store.with { (db) throws(StoreError) in try db.query("UPDATE incidents SET trail = $1 WHERE id = 9", [.text(damaged)]) }
        var lines: [String] = []
        let engine = LeaderEngine(store: store, log: { lines.append($0) })
        let now = Date().timeIntervalSince1970 + 2  // past incident 10's deadline
        try store.with { (db) throws(StoreError) in
            try engine.tick(now: now, on: db)
            try engine.tick(now: now + 0.1, on: db)
        }
        #expect(lines == [#"incident 9 not resumed: its stored trail[0].event: unknown event "paused""#])
        #expect(engine.unreadableIncidents[9]?.path == "[0].event")
        let nine = try #require(try store.incident(9))
        #expect(nine.trail == damaged && nine.state == .offered && nine.offeredTo == 1)
        let ten = try #require(try store.incident(10))
        #expect(ten.offeredTo == 2 && ten.trail.contains("timed_out"))

        let next = try RunningService(store: location, tokens: tokens, instance: "next")
        defer { next.stop() }
        let (code, body) = try await request("GET", next.base + "/v1/incidents/9")
        #expect(code == 500)
        #expect(body.contains(#"incident 9: the stored trail[0].event: unknown event \"paused\""#), "\(body)")
    }

    /// The assignee of an incident turns OFFLINE (its fleet's 4 s threshold on a mission): the
    /// leader takes the incident from them and asks the next ONLINE responder.
    @Test func anIncidentLeavesAHolderWhoWentOffline() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let fleets = try FleetFile.parse(
            Array(
                #"{"fleets": [{"name": "quick", "responders": [1], "policy": {"on_mission": {"degraded_after_s": 3, "offline_after_s": 4}}}]}"#.utf8))
        let running = try RunningService(store: "sqlite:" + scratch.file("s.db"), tokens: [(1, "a"), (2, "b")], fleets: fleets)
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        try await Self.post(running, 1, "a", t: t, lat: 60.171, duty: "on_mission")
        try await Self.post(running, 2, "b", t: t, lat: 60.18, duty: "on_mission")
        #expect(await eventually(3) { await status(of: 1, at: running.base) == "online" })
        let (created, _) = try await request("POST", running.base + "/v1/incidents", body: #"{"id": 4, "lat": 60.17, "lon": 24.94}"#)
        #expect(created == 201)
        #expect(try await eventually(3) { try await Self.incident(running, 4)["offered_to"] as? Int == 1 })
        let (acked, _) = try await request("POST", running.base + "/v1/incidents/4/ack", body: "{\"responder\": 1}", token: "a")
        #expect(acked == 200)
        #expect(try await eventually(8) { try await Self.incident(running, 4)["offered_to"] as? Int == 2 })
        #expect(Self.events(try await Self.incident(running, 4)) == ["offered 1", "acknowledged 1", "went_offline 1", "offered 2"])
        #expect(await status(of: 1, at: running.base) == "offline")
    }
}
