import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Responders
@testable import ResponderService

/// Rows written outside the service that cannot be read as their tables hold them: named, never
/// dropped from an answer or read as a default.
@Suite(.serialized) struct UnreadableRowTests {
    /// The error message of a service answer.
    static func message(_ body: String) throws -> String {
        try #require((try json(body) as? [String: Any])?["error"] as? String, "\(body)")
    }

    /// Each store: a fix whose duty is not a name fails its responder's history (500, naming the
    /// row and the column; a page without it still answers), and a latest row with a latitude
    /// of 95 fails the listing; the metrics count that row, and its responder as unknown.
    @Test(arguments: APITests.Store.allCases)
    func anUnreadableRowIsNamedNotDropped(store kind: APITests.Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try APITests.location(kind, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(17, "a"), (18, "b")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let fixes = (1...3).map { fixJSON($0, t: t - Double(4 - $0)) }.joined(separator: ", ")
        let (posted, _) = try await request(
            "POST", running.base + "/v1/locations", body: "{\"responder\": 17, \"fixes\": [\(fixes)]}", token: "a")
        #expect(posted == 200)

        let store = try ServiceStore(location, poolSize: 1)
        _ = try store.with { (db) throws(StoreError) in
            try db.query("UPDATE fixes SET duty = 'resting' WHERE responder = 17 AND seq = 2", [])
        }
        var (code, body) = try await request("GET", running.base + "/v1/responders/17/fixes")
        #expect(code == 500)
        #expect(
            try Self.message(body)
                == "read fixes: row (responder 17, seq 2): column duty holds 'resting', expected one of off_duty, on_duty, on_mission")
        (code, body) = try await request("GET", running.base + "/v1/responders/17/fixes?after=2")
        let page = try json(body) as? [[String: Any]]
        #expect(code == 200 && page?.map { $0["seq"] as? Int } == [3])
        #expect(throws: StoreError.self) { try store.history(of: ResponderID(17)) }

        (code, body) = try await request("GET", running.base + "/v1/responders")
        #expect(code == 200)
        _ = try store.with { (db) throws(StoreError) in try db.query("UPDATE latest SET lat = 95 WHERE responder = 17", []) }
        (code, body) = try await request("GET", running.base + "/v1/responders")
        #expect(code == 500)
        #expect(try Self.message(body) == "read latest: row (responder 17): column lat holds 95, expected a number in -90.0...90.0")

        var skipped: [StoreError] = []
        #expect(try store.latest(unreadable: { skipped.append($0) }).isEmpty)
        #expect(skipped.map(\.operation) == ["read latest"] && skipped.allSatisfy(\.isUnreadableRow))
        (code, body) = try await request("GET", running.base + "/metrics")
        #expect(code == 200)
        #expect(body.contains("\nresponder_store_rows_unreadable 1\n"), "\(body)")
        #expect(body.contains("\nresponders_by_status{status=\"unknown\"} 2\n"), "\(body)")
    }

    /// The leader leaves unreadable rows out of its ticks (a latest row, an incident, an
    /// acknowledgement) and logs each once, however many ticks see it; the rows stay as stored.
    @Test func theLeaderLogsAnUnreadableRowOnceAndGoesOn() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let store = try ServiceStore("sqlite:" + scratch.file("s.db"), poolSize: 1)
        try store.with { (db) throws(StoreError) in
            try db.query(
                """
                INSERT INTO latest (responder, seq, t, lat, lon, acc, duty, power, received_at)
                VALUES (3, 1, 100, 60.17, 24.94, 10, 'on_duty', 'normal', 100), (4, 1, 100, 'north', 24.94, 10, 'on_duty', 'normal', 100)
                """, [])
            try db.query(
                "INSERT INTO incidents (id, lat, lon, ack_timeout_s, created_at, state, trail) VALUES (7, 'x', 24.94, 30, 100, 'pending', '[]')",
                [])
            try db.query("INSERT INTO incident_acks (incident, responder, at, done) VALUES (7, 9999999999, 100, 0)", [])
        }
        var lines: [String] = []
        let engine = LeaderEngine(store: store, log: { lines.append($0) })
        var transitions: [LivenessTransition] = []
        try store.with { (db) throws(StoreError) in
            for k in 0..<3 { transitions += try engine.tick(now: 101 + Double(k), on: db) }
        }
        #expect(
            lines.sorted() == [
                "left out: read incident_acks: row (ack_id 1): column responder holds 9999999999, expected a responder id",
                "left out: read incidents: row (id 7): column lat holds 'x', expected a number in -90.0...90.0",
                "left out: read latest: row (responder 4): column lat holds 'north', expected a number in -90.0...90.0"
            ])
        #expect(transitions.map(\.responder) == [ResponderID(3)])
        #expect(engine.unreadableRows.count == 3)
        #expect(throws: StoreError.self) { try store.incident(7) }
        #expect(
            try store.with { (db) throws(StoreError) in try db.query("SELECT lat, state FROM incidents", []) } == [[.text("x"), .text("pending")]])
    }
}
