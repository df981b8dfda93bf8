import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Responders
@testable import ResponderService

/// The whole API over real HTTP, once per store.
@Suite(.serialized) struct APITests {
    enum Store: String, CaseIterable { case sqlite, postgresql }

    /// A store location of `kind`, nil (with the reason recorded) when PostgreSQL is unavailable.
    static func location(_ kind: Store, in scratch: ScratchDirectory) throws -> String? {
        switch kind {
        case .sqlite: return "sqlite:" + scratch.file("service.db")
        case .postgresql:
            guard let url = try TestPostgres.freshDatabase() else {
                Issue.record("no PostgreSQL: set RESPONDER_TEST_POSTGRES or install postgresql (initdb)")
                return nil
            }
            return url
        }
    }

    @Test(arguments: Store.allCases)
    func ingestIsIdempotentOutOfOrderAndAnswersWithTheStoredFixes(store: Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try Self.location(store, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(17, "secret17"), (18, "secret18")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        // Sequences 3 and 1 (out of order), then 1..4 again with a copy of 2 inside the batch.
        var (status, body) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(3, t: t - 1)), \(fixJSON(1, t: t - 3))]}",
            token: "secret17")
        #expect(status == 200)
        var answer = try #require(try json(body) as? [String: Any])
        #expect(answer["ack"] as? [Int] == [1, 3] && answer["stored"] as? Int == 2 && answer["duplicates"] as? Int == 0)
        let batch = [fixJSON(1, t: t - 3), fixJSON(2, t: t - 2), fixJSON(2, t: t - 2), fixJSON(4, t: t, lat: 60.2, lon: 25.0)]
        (status, body) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(batch.joined(separator: ","))], \"telemetry\": "
                + "{\"permission\": \"denied\", \"location_services\": true, \"power_mode\": \"normal\", "
                + "\"app_state\": \"background\", \"queue_depth\": 4, \"oldest_age_s\": 3.5, \"network\": \"wifi\"}}",
            token: "secret17")
        #expect(status == 200)
        answer = try #require(try json(body) as? [String: Any])
        #expect(answer["ack"] as? [Int] == [1, 2, 4] && answer["stored"] as? Int == 2 && answer["duplicates"] as? Int == 2)
        (status, body) = try await request("GET", running.base + "/v1/responders/17/fixes")
        let fixes = try #require(try json(body) as? [[String: Any]])
        #expect(fixes.map { $0["seq"] as? Int } == [1, 2, 3, 4])
        #expect(fixes.allSatisfy { Set($0.keys) == ["seq", "t", "lat", "lon", "received_at"] })
        #expect(abs((fixes[3]["t"] as? Double ?? 0) - t) < 1e-6)
        // Pages: `after` a sequence, at most `limit`; the whole history without either.
        for (query, expected) in [
            ("?limit=2", [1, 2]), ("?after=2", [3, 4]), ("?after=1&limit=2", [2, 3]), ("?after=4", []),
            ("?limit=2&after=3&other=x", [4]), ("?after=0&limit=1000000", [1, 2, 3, 4])
        ] {
            (status, body) = try await request("GET", running.base + "/v1/responders/17/fixes" + query)
            let page = try #require(try json(body) as? [[String: Any]], "\(query): \(body)")
            #expect(status == 200 && page.map { $0["seq"] as? Int } == expected, "\(query): \(body)")
        }
        for (query, field) in [
            ("?limit=0", "limit"), ("?limit=1000001", "limit"), ("?limit=", "limit"), ("?after=-1", "after"),
            ("?after=9007199254740992", "after"), ("?after=1.5", "after"), ("?limit=ten", "limit")
        ] {
            (status, body) = try await request("GET", running.base + "/v1/responders/17/fixes" + query)
            let named = (try json(body) as? [String: Any])?["field"] as? String
            #expect(status == 400 && named == field, "\(query): \(body)")
        }
        // The leader sees the fixes within a tick: 17 ONLINE at its newest position, with the reason.
        let online = try await eventually(3) {
            let (_, text) = try await request("GET", running.base + "/v1/responders")
            let list = try json(text) as? [[String: Any]] ?? []
            return list.contains { $0["responder"] as? Int == 17 && $0["status"] as? String == "online" }
        }
        #expect(online)
        (_, body) = try await request("GET", running.base + "/v1/responders")
        let list = try #require(try json(body) as? [[String: Any]])
        let r17 = try #require(list.first { $0["responder"] as? Int == 17 })
        #expect(r17["lat"] as? Double == 60.2 && r17["lon"] as? Double == 25.0 && r17["reason"] as? String == "permission_revoked")
        #expect(Set(r17.keys) == ["responder", "status", "reason", "lat", "lon", "last_fix_t"])
        let r18 = try #require(list.first { $0["responder"] as? Int == 18 })
        #expect(r18["status"] as? String == "unknown" && r18["lat"] is NSNull)
        (status, body) = try await request("GET", running.base + "/health")
        #expect(status == 200 && body == "ok")
        (status, body) = try await request("GET", running.base + "/v1/status")
        let info = try #require(try json(body) as? [String: Any])
        #expect(status == 200 && info["instance"] as? String == "test" && info["leader"] as? Bool == true)
    }

    /// A fix stamped in the future is stored and acknowledged as sent, but the next fix taken
    /// after it arrived moves the latest location (`/v1/responders`) and the responder stays
    /// ONLINE: ordered by the phone's time alone, it would hold the latest location for good.
    @Test(arguments: Store.allCases)
    func aFixFromTheFutureDoesNotHoldTheLatestLocation(store: Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try Self.location(store, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(17, "secret17")])
        defer { running.stop() }
        var (status, body) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: 1e300, lat: 10, lon: 10))]}", token: "secret17")
        #expect(status == 200 && body.contains("\"stored\": 1"), "\(body)")
        let later = Date().timeIntervalSince1970  // taken after the first fix arrived
        (status, body) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(2, t: later, lat: 60.2, lon: 25))]}", token: "secret17")
        #expect(status == 200 && body.contains("\"stored\": 1"), "\(body)")
        let moved = try await eventually(3) {
            let (_, text) = try await request("GET", running.base + "/v1/responders")
            let list = try json(text) as? [[String: Any]] ?? []
            return list.contains { $0["responder"] as? Int == 17 && $0["lat"] as? Double == 60.2 && $0["status"] as? String == "online" }
        }
        #expect(moved)
        (_, body) = try await request("GET", running.base + "/v1/responders/17/fixes")
        // Both stored as sent (compared as text: Foundation's JSON reader may round the last digit).
        #expect(body.contains("\"seq\": 1, \"t\": 1e+300,") && body.contains("\"seq\": 2, \"t\": \(later),"), "\(body)")
    }

    @Test(arguments: Store.allCases)
    func badRequestsAreRefusedAndStoreNothing(store: Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try Self.location(store, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(17, "secret17"), (18, "secret18")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let good = fixJSON(1, t: t)
        let cases: [(body: String, token: String?, status: Int, field: String)] = [
            ("{\"responder\": 17, \"fixes\": [\(good)]}", nil, 401, "Authorization"),
            ("{\"responder\": 17, \"fixes\": [\(good)]}", "wrong", 401, "Authorization"),
            ("{\"responder\": 17, \"fixes\": [\(good)]}", "secret18", 401, "responder"),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 2, \"t\": \(t), \"lat\": NaN, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].lat"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 2, \"t\": \(t), \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].lat"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": \"2\", \"t\": \(t), \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].seq"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 0, \"t\": \(t), \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].seq"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 2, \"t\": \(t), \"lat\": 91, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].lat"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 2, \"t\": \(t), \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"asleep\"}]}",
                "secret17", 400, "fixes[1].duty"
            ),
            (
                "{\"responder\": 17, \"fixes\": [\(good)], \"telemetry\": {\"location_services\": \"yes\"}}", "secret17", 400,
                "telemetry.location_services"
            ),
            (
                // 2^53 + 1: a JSON number rounds it to 2^53, so it would be stored and acknowledged as another.
                "{\"responder\": 17, \"fixes\": [\(good), {\"seq\": 9007199254740993, \"t\": \(t), \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "secret17", 400, "fixes[1].seq"
            ),
            ("{\"responder\": 17, \"fixes\": {}}", "secret17", 400, "fixes"),
            ("{\"responder\": 17}", "secret17", 400, "fixes"),
            ("{\"fixes\": []}", "secret17", 400, "responder"),
            ("{\"responder\": 17, \"fixes\": [\(good)]", "secret17", 400, "body"),
            ("[]", "secret17", 400, "body")
        ]
        for c in cases {
            let (status, body) = try await request("POST", running.base + "/v1/locations", body: c.body, token: c.token)
            #expect(status == c.status, "\(c.body)")
            let answer = try json(body) as? [String: Any]
            #expect(answer?["field"] as? String == c.field, "\(body)")
        }
        // Over 1 MB: 413.
        let big = "{\"responder\": 17, \"fixes\": [" + Array(repeating: good, count: 12_000).joined(separator: ",") + "]}"
        #expect(big.utf8.count > 1_000_000)
        let (status, _) = try await request("POST", running.base + "/v1/locations", body: big, token: "secret17")
        #expect(status == 413)
        #expect(try running.service.store.fixCount() == 0)
        let (_, text) = try await request("GET", running.base + "/v1/responders/17/fixes")
        #expect(text == "[]")
        let (notFound, _) = try await request("GET", running.base + "/v1/nothing")
        #expect(notFound == 404)
        // A path that names no responder; an acknowledgement with another responder's token.
        for (method, path, body, token, status, field) in [
            ("GET", "/v1/responders/abc/fixes", nil, nil, 400, "path"), ("GET", "/v1/responders/-3/fixes", nil, nil, 400, "path"),
            ("POST", "/v1/incidents/1/ack", "{\"responder\": 17}", "secret18", 401, "Authorization")
        ] as [(String, String, String?, String?, Int, String)] {
            let (code, text) = try await request(method, running.base + path, body: body, token: token)
            let named = (try json(text) as? [String: Any])?["field"] as? String
            #expect(code == status && named == field, "\(path): \(text)")
        }
    }

    /// Issue 23's "413 past 1 MB", read as a client reads it: 1 MB is 1,000,000 bytes. A valid
    /// batch padded with spaces to exactly 1,000,000 bytes is stored; one byte more is a 413 that
    /// stores nothing (the limit was 1 MiB, so 1,000,001 to 1,048,576 bytes were stored).
    @Test func aBodyPast1MBIs413() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        func padded(_ seq: Int, to size: Int) -> String {
            let body = "{\"responder\": 17, \"fixes\": [\(fixJSON(seq, t: t))]"
            return body + String(repeating: " ", count: size - body.utf8.count - 1) + "}"
        }
        let over = padded(1, to: 1_000_001)
        #expect(over.utf8.count == 1_000_001)
        var (status, body) = try await request("POST", running.base + "/v1/locations", body: over, token: "secret17")
        #expect(status == 413, "\(body)")
        #expect(try running.service.store.fixCount() == 0)
        let limit = padded(2, to: 1_000_000)
        #expect(limit.utf8.count == 1_000_000)
        (status, body) = try await request("POST", running.base + "/v1/locations", body: limit, token: "secret17")
        #expect(status == 200, "\(body)")
        #expect(try running.service.store.fixCount() == 1)
    }

    /// HEAD is GET without the body (a load balancer's or a phone's health check); a method a
    /// path does not take is a 405 whose `Allow` header names the ones it does; the bearer
    /// scheme's name is case-insensitive (RFC 9110 11.1).
    @Test func headAnswersAsGetAndA405NamesTheMethods() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        func exchange(_ method: String, _ path: String, authorization: String? = nil) async throws -> (HTTPURLResponse, Data) {
            var r = URLRequest(url: URL(string: running.base + path)!)
            r.httpMethod = method
            r.timeoutInterval = 20
            if let authorization { r.setValue(authorization, forHTTPHeaderField: "Authorization") }
            let (data, response) = try await URLSession.shared.data(for: r)
            return (response as! HTTPURLResponse, data)
        }
        for path in ["/health", "/v1/responders", "/v1/status", "/metrics"] {
            let (get, body) = try await exchange("GET", path)
            let (head, none) = try await exchange("HEAD", path)
            #expect(get.statusCode == 200 && head.statusCode == 200, "\(path)")
            #expect(none.isEmpty, "\(path)")
            #expect(head.value(forHTTPHeaderField: "Content-Type") == get.value(forHTTPHeaderField: "Content-Type"), "\(path)")
            if path == "/health" { #expect(head.value(forHTTPHeaderField: "Content-Length") == "\(body.count)") }
        }
        for (method, path, allow) in [
            ("DELETE", "/health", "GET, HEAD"), ("POST", "/v1/responders", "GET, HEAD"), ("GET", "/v1/locations", "POST"),
            ("PUT", "/v1/incidents", "POST")
        ] {
            let (response, _) = try await exchange(method, path)
            #expect(response.statusCode == 405, "\(method) \(path)")
            #expect(response.value(forHTTPHeaderField: "Allow") == allow, "\(method) \(path)")
        }
        for (authorization, status) in [
            ("Bearer secret17", 200), ("bearer secret17", 200), ("BEARER secret17", 200), ("Basic secret17", 401),
            ("Bearer", 401), ("Bearersecret17", 401), ("bearer wrong", 401)
        ] {
            let (response, _) = try await exchange("GET", "/v1/policy", authorization: authorization)
            #expect(response.statusCode == status, "\(authorization)")
        }
    }

    @Test(arguments: Store.allCases)
    func incidentsGoToTheNearestOnlineResponderAndMoveOnAtTheTimeout(store: Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try Self.location(store, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(1, "a"), (2, "b"), (3, "c")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        // 1 is nearest, 2 next; 3 is far and its last fix is old (OFFLINE on a mission).
        for (id, token, lat, age) in [(1, "a", 60.171, 0.0), (2, "b", 60.18, 0.0), (3, "c", 60.170, 500.0)] {
            let (status, _) = try await request(
                "POST", running.base + "/v1/locations",
                body: "{\"responder\": \(id), \"fixes\": [\(fixJSON(1, t: t - age, lat: lat, duty: "on_mission"))]}",
                token: token)
            #expect(status == 200)
        }
        #expect(try await eventually(3) { running.service.isLeader })
        try await Task.sleep(nanoseconds: 300_000_000)
        var (status, body) = try await request(
            "POST", running.base + "/v1/incidents",
            body: "{\"id\": 9, \"lat\": 60.17, \"lon\": 24.94, \"ack_timeout_s\": 1}")
        #expect(status == 201)
        let created = try #require(try json(body) as? [String: Any])
        #expect(created["incident"] as? Int == 9 && created["offered_to"] as? Int == 1)
        (status, _) = try await request("POST", running.base + "/v1/incidents", body: "{\"id\": 9, \"lat\": 60.17, \"lon\": 24.94}")
        #expect(status == 409)  // another incident under the same id (its ACK timeout differs)
        // The same request again (a retry after a lost answer, perhaps to another instance): 200,
        // the incident as it stands, nothing created.
        (status, body) = try await request(
            "POST", running.base + "/v1/incidents",
            body: "{\"id\": 9, \"lat\": 60.17, \"lon\": 24.94, \"ack_timeout_s\": 1}")
        #expect(status == 200)
        #expect((try json(body) as? [String: Any])?["incident"] as? Int == 9)
        // Nobody answers 1 within 1 s: 2 is asked, and 2 acknowledges.
        let movedOn = try await eventually(4) {
            let (_, text) = try await request("GET", running.base + "/v1/incidents/9")
            return (try json(text) as? [String: Any])?["offered_to"] as? Int == 2
        }
        #expect(movedOn)
        (status, body) = try await request("POST", running.base + "/v1/incidents/9/ack", body: "{\"responder\": 1}")
        #expect(status == 409)
        (status, body) = try await request("POST", running.base + "/v1/incidents/9/ack", body: "{\"responder\": 2}", token: "b")
        #expect(status == 200)
        (status, body) = try await request("GET", running.base + "/v1/incidents/9")
        let incident = try #require(try json(body) as? [String: Any])
        #expect(incident["state"] as? String == "assigned" && incident["assignee"] as? Int == 2)
        let trail = try #require(incident["trail"] as? [[String: Any]])
        #expect(trail.map { $0["event"] as? String } == ["offered", "timed_out", "offered", "acknowledged"])
        #expect(trail.map { $0["responder"] as? Int } == [1, 1, 2, 2])
        #expect(!trail.contains { $0["responder"] as? Int == 3 })  // never offered to the OFFLINE one
        (status, _) = try await request("GET", running.base + "/v1/incidents/77")
        #expect(status == 404)
    }

    @Test func metricsPassPromtoolAndThePageDrawsTheMap() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let region = AlertRegion(name: "center", shape: .circle(center: .init(uncheckedLatitude: 60.17, longitude: 24.94), radiusMeters: 5_000))
        // A name with a tab, quotes, a backslash and a line feed: the format escapes only the last
        // three (a JSON-style `\t` had made the whole scrape unreadable).
        let odd = AlertRegion(
            name: "old\ttown \"q\" a\\b\nc", shape: .circle(center: .init(uncheckedLatitude: 60.17, longitude: 24.94), radiusMeters: 500))
        let running = try RunningService(
            store: "sqlite:" + scratch.file("m.db"), tokens: [(1, "a"), (2, "b")], regions: [region, odd])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        _ = try await request("POST", running.base + "/v1/locations", body: "{\"responder\": 1, \"fixes\": [\(fixJSON(1, t: t - 2))]}", token: "a")
        _ = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 2, \"fixes\": [\(fixJSON(1, t: t - 400, lat: 60.18))]}", token: "b")
        #expect(
            try await eventually(3) {
                let (_, text) = try await request("GET", running.base + "/metrics")
                return text.contains("responders_by_status{status=\"offline\"} 1")
            })
        let (status, text) = try await request("GET", running.base + "/metrics")
        #expect(status == 200)
        #expect(text.contains("responders_by_status{status=\"online\"} 1"))
        #expect(text.contains("responders_by_region{region=\"center\",status=\"online\"} 1"))
        #expect(text.contains("responders_by_region{region=\"old\ttown \\\"q\\\" a\\\\b\\nc\",status=\"online\"} 1"))
        #expect(text.contains("location_update_delay_seconds_count 2"))
        #expect(text.contains("status_transitions_total{from=\"unknown\",to=\"offline\"} 1"))
        if let (code, output) = runTool("promtool", ["check", "metrics"], stdin: text) {
            #expect(code == 0, "\(output)")
        } else {
            Issue.record("promtool not installed: the exposition text was not checked")
        }
        let (pageStatus, page) = try await request("GET", running.base + "/")
        #expect(pageStatus == 200 && page.contains("<svg") && page.contains("http-equiv=\"refresh\""))
        #expect(page.contains("class=\"status-online\"") && page.contains("class=\"status-offline\""))
    }
}
