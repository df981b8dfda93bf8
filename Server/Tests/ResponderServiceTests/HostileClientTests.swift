import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import Responders
@testable import ResponderService

extension RawConnection {
    /// Everything the server sends until it closes the connection or is silent for `seconds`.
    func receive(seconds: Double = 3) -> String {
        var timeout = timeval()
        timeout.tv_sec = .init(seconds.rounded(.down))
        timeout.tv_usec = .init((seconds - seconds.rounded(.down)) * 1e6)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// The status lines of the responses in `text` (one per response on a connection).
func statusLines(_ text: String) -> [String] {
    text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
}

/// Requests an outside client may send on purpose or by mistake: each gets a documented status
/// and a JSON error naming the field, and none changes what is stored beyond what it says.
@Suite(.serialized) struct HostileClientTests {
    /// A fix whose sequence is stored already is a duplicate dropped by key (the memo's rule),
    /// whatever it holds: it must not move the latest location either, which had shown a
    /// position and time that no stored fix has. The same for the second copy of a sequence
    /// inside one batch: the first copy is the one stored, and the latest is a stored fix.
    @Test(arguments: APITests.Store.allCases)
    func aDroppedCopyOfASequenceDoesNotMoveTheLatestLocation(store: APITests.Store) async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try APITests.location(store, in: scratch) else { return }
        let running = try RunningService(store: location, tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970.rounded()
        func post(_ fixes: [String]) async throws -> [String: Any] {
            let (status, body) = try await request(
                "POST", running.base + "/v1/locations", body: "{\"responder\": 17, \"fixes\": [\(fixes.joined(separator: ", "))]}",
                token: "secret17")
            #expect(status == 200, "\(body)")
            return try #require(try json(body) as? [String: Any])
        }
        func latest() throws -> (lat: Double, t: Double, seq: Int64) {
            let row = try #require(try running.service.store.latest().first)
            return (row.fix.fix.latitude, row.fix.fix.time, row.fix.sequence)
        }
        var answer = try await post([fixJSON(1, t: t - 10, lat: 10)])
        #expect(answer["stored"] as? Int == 1)
        answer = try await post([fixJSON(1, t: t - 5, lat: 20)])
        #expect(answer["ack"] as? [Int] == [1] && answer["stored"] as? Int == 0 && answer["duplicates"] as? Int == 1)
        var l = try latest()
        #expect(l.lat == 10 && l.t == t - 10 && l.seq == 1, "the latest holds a dropped copy: \(l)")
        answer = try await post([fixJSON(2, t: t - 8, lat: 30), fixJSON(2, t: t - 1, lat: 40)])
        #expect(answer["ack"] as? [Int] == [2] && answer["stored"] as? Int == 1 && answer["duplicates"] as? Int == 1)
        l = try latest()
        #expect(l.lat == 30 && l.t == t - 8 && l.seq == 2, "the latest holds a dropped copy: \(l)")
        let (_, text) = try await request("GET", running.base + "/v1/responders/17/fixes")
        let fixes = try #require(try json(text) as? [[String: Any]])
        #expect(fixes.map { $0["lat"] as? Double } == [10, 30])
    }

    /// `location_update_delay_seconds` observes the fixes stored: a sequence sent twice in one
    /// batch is stored once and observed once (it had been observed once per copy).
    @Test func aCopyInsideABatchIsObservedOnce() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let (status, body) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t)), \(fixJSON(1, t: t)), \(fixJSON(2, t: t))]}", token: "secret17")
        #expect(status == 200 && body.contains("\"stored\": 2, \"duplicates\": 1"), "\(body)")
        let (_, text) = try await request("GET", running.base + "/metrics")
        #expect(text.contains("location_update_delay_seconds_count 2\n"), "\(text)")
        #expect(text.contains("fixes_received_total{outcome=\"stored\"} 2\n"))
        #expect(text.contains("fixes_received_total{outcome=\"duplicate\"} 1\n"))
    }

    /// A 413 is a refused request like any other: `requests_rejected_total{code="413"}` counts
    /// both kinds (a body read past 1 MB, a declared length refused before the body), and the
    /// answer is the JSON error naming `body`.
    @Test func a413IsCountedAmongTheRefusedRequests() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let (status, body) = try await request(
            "POST", running.base + "/v1/locations", body: String(repeating: " ", count: 1_000_001), token: "secret17")
        let named = (try json(body) as? [String: Any])?["field"] as? String
        #expect(status == 413 && named == "body", "\(body)")
        let c = try RawConnection(port: running.http.port)
        c.send("POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\nContent-Length: 20000000\r\n\r\n")
        let answer = c.receive()
        #expect(statusLines(answer) == ["HTTP/1.1 413 Content Too Large"] && answer.contains("\"field\": \"body\""), "\(answer)")
        let (_, text) = try await request("GET", running.base + "/metrics")
        #expect(text.contains("requests_rejected_total{code=\"413\"} 2\n"), "\(text)")
    }

    /// The body's framing must be one the server and any proxy in front of it read alike
    /// (RFC 9112 6.1, 6.3): a transfer coding other than `chunked` alone (it had been waited on
    /// until the idle timeout and the connection closed without an answer), `Content-Length`
    /// given twice or beside `Transfer-Encoding` (the first length had been used and the rest of
    /// the body read as the next request: a request smuggled past a proxy that reads another).
    /// Each is a 400 naming the header, answered before the body is read, on a connection then
    /// closed: nothing after it on the connection is read as a request.
    @Test func aBodyFramedAmbiguouslyIsRefusedAndNothingAfterItIsRead() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let batch = "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t))]}"
        let smuggled =
            "POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\nContent-Length: \(batch.utf8.count)\r\n\r\n" + batch
        let chunked = String(batch.utf8.count, radix: 16) + "\r\n" + batch + "\r\n0\r\n\r\n"
        let head = "POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\n"
        for (headers, body, field) in [
            ("Transfer-Encoding: gzip\r\n", batch, "Transfer-Encoding"),
            ("Transfer-Encoding: gzip, chunked\r\n", chunked, "Transfer-Encoding"),
            ("Transfer-Encoding: chunked, gzip\r\n", chunked, "Transfer-Encoding"),
            ("Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n", chunked, "Transfer-Encoding"),
            // libmicrohttpd compares the value as sent: with a blank after it, it is not chunked.
            ("Transfer-Encoding: chunked \r\n", chunked, "Transfer-Encoding"),
            // A blank before the colon (RFC 9112 5.1: a 400): libmicrohttpd reads another name.
            ("Transfer-Encoding : chunked\r\n", chunked + smuggled, "Transfer-Encoding "),
            ("Content-Length : \(batch.utf8.count)\r\n", batch, "Content-Length "),
            ("Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)\r\n", smuggled, "Content-Length"),
            ("Content-Length: \(batch.utf8.count)\r\nContent-Length: \(batch.utf8.count)\r\n", batch, "Content-Length"),
            ("Content-Length: \(chunked.utf8.count)\r\nTransfer-Encoding: chunked\r\n", chunked + smuggled, "Content-Length")
        ] {
            let c = try RawConnection(port: running.http.port)
            c.send(head + headers + "\r\n" + body)
            let answer = c.receive()
            #expect(statusLines(answer) == ["HTTP/1.1 400 Bad Request"], "\(headers): \(answer)")
            #expect(answer.contains("\"field\": \"\(field)\""), "\(headers): \(answer)")
        }
        #expect(try running.service.store.fixCount() == 0)
        // A chunked body alone, in any case, with a trailer, is read as usual.
        let c = try RawConnection(port: running.http.port)
        c.send(
            head + "Transfer-Encoding: Chunked\r\nConnection: close\r\n\r\n" + String(batch.utf8.count, radix: 16) + "\r\n" + batch
                + "\r\n0\r\nX-Trailer: 1\r\n\r\n")
        let answer = c.receive()
        #expect(statusLines(answer) == ["HTTP/1.1 200 OK"] && answer.contains("\"stored\": 1"), "\(answer)")
    }

    /// A member given twice is a 400 naming it: the parser keeps the last, another reader (a
    /// proxy, a log) may keep the first, and the first had been dropped with a 200 (a second
    /// `fixes` array dropped the first one's fixes, a second `responder` was the one checked
    /// against the token).
    @Test func aMemberGivenTwiceIsRefusedNamingIt() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let fix = fixJSON(1, t: t)
        for (path, body, field) in [
            ("/v1/locations", "{\"responder\": 18, \"responder\": 17, \"fixes\": [\(fix)]}", "responder"),
            ("/v1/locations", "{\"responder\": 17, \"fixes\": [\(fix)], \"fixes\": [\(fixJSON(2, t: t))]}", "fixes"),
            (
                "/v1/locations",
                "{\"responder\": 17, \"fixes\": [\(fix), {\"seq\": 2, \"seq\": 3, \"t\": 1, \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "fixes[1].seq"
            ),
            (
                "/v1/locations", "{\"responder\": 17, \"fixes\": [\(fix)], \"telemetry\": {\"network\": \"wifi\", \"network\": \"none\"}}",
                "telemetry.network"
            ),
            ("/v1/locations", "{\"responder\": 17, \"fixes\": [\(fix)], \"extra\": [{\"a\": 1, \"a\": 1}]}", "extra[0].a"),
            ("/v1/incidents", "{\"id\": 1, \"id\": 2, \"lat\": 60.17, \"lon\": 24.94}", "id"),
            ("/v1/incidents/1/ack", "{\"responder\": 17, \"responder\": 18}", "responder")
        ] {
            let (status, text) = try await request("POST", running.base + path, body: body, token: "secret17")
            let named = (try json(text) as? [String: Any])?["field"] as? String
            #expect(status == 400 && named == field, "\(body): \(text)")
        }
        #expect(try running.service.store.fixCount() == 0)
        let (_, text) = try await request("GET", running.base + "/v1/incidents/1")
        #expect(text.contains("no incident 1"), "\(text)")
    }

    /// A chunked body declares no length, so it cannot be refused before it is read; it is read
    /// and dropped only up to ``HTTPServer/maxDrainedBody``, as a declared one would be, and the
    /// connection is then closed (it had been read to its end however long it was, a client
    /// sending forever held its connection forever).
    @Test func aChunkedBodyIsReadNoFurtherThanADeclaredOne() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let c = try RawConnection(port: running.http.port)
        c.send("POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
        // Just past the limit and never the last chunk: only the limit ends this body.
        var sent = 0
        while sent <= HTTPServer.maxDrainedBody {
            let n = chunk.withUnsafeBytes { Glibc.send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #expect(n == chunk.count)
            if n <= 0 { break }
            sent += 0x10000
        }
        let started = Date()
        _ = c.receive(seconds: 10)
        #expect(Date().timeIntervalSince(started) < 5, "the connection was still open")
        let (status, text) = try await request("GET", running.base + "/metrics")
        #expect(status == 200 && text.contains("requests_rejected_total{code=\"413\"} 1\n"), "\(text)")
    }

    /// A phone whose acknowledgement's answer was lost sends it again: the assignee's retry is
    /// answered as the first was (200 and the incident, the trail unchanged), as every retry is
    /// idempotent; it had been a 409 saying the responder was not being asked. Anyone else is
    /// still refused.
    @Test func anAcknowledgementRetriedByTheAssigneeIsAnsweredAsTheFirst() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17"), (18, "secret18")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let (posted, _) = try await request(
            "POST", running.base + "/v1/locations", body: "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t))]}", token: "secret17")
        #expect(posted == 200)
        #expect(try await eventually(3) { await status(of: 17, at: running.base) == "online" })
        var (code, body) = try await request("POST", running.base + "/v1/incidents", body: "{\"id\": 5, \"lat\": 60.17, \"lon\": 24.94}")
        #expect(code == 201 && body.contains("\"offered_to\": 17"), "\(body)")
        (code, body) = try await request("POST", running.base + "/v1/incidents/5/ack", body: "{\"responder\": 17}", token: "secret17")
        #expect(code == 200 && body.contains("\"assignee\": 17"), "\(body)")
        let first = body
        (code, body) = try await request("POST", running.base + "/v1/incidents/5/ack", body: "{\"responder\": 17}", token: "secret17")
        #expect(code == 200 && body == first, "\(body)")
        (code, body) = try await request("POST", running.base + "/v1/incidents/5/ack", body: "{\"responder\": 18}", token: "secret18")
        #expect(code == 409, "\(body)")
    }

    /// libmicrohttpd hands over the path without its query, percent-decoded: a `%3F` in it is a
    /// `?` that belongs to the path (it had been cut there, so `/health%3Fx` answered as
    /// `/health` and `/v1/responders/17/fixes%3Flimit=1` as the whole history); the query
    /// itself is still read.
    @Test func anEncodedQuestionMarkIsPartOfThePath() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let (posted, _) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t - 1)), \(fixJSON(2, t: t))]}", token: "secret17")
        #expect(posted == 200)
        for (path, status) in [
            ("/health%3Fx", 404), ("/v1/responders/17/fixes%3Flimit=1", 404), ("/health?x", 200), ("/v1/responders/17/fixes?limit=1", 200)
        ] {
            let c = try RawConnection(port: running.http.port)
            c.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = c.receive()
            #expect(statusLines(answer).first?.hasPrefix("HTTP/1.1 \(status) ") == true, "\(path): \(answer)")
            if status == 200 && path.contains("limit") { #expect(answer.contains("\"seq\": 1") && !answer.contains("\"seq\": 2"), "\(answer)") }
        }
    }

    /// A number too large for a double (`1e400`) is refused naming its field, as `Infinity` is;
    /// it had been a syntax error of the whole body.
    @Test func aNumberPastTheDoublesIsRefusedNamingItsField() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let t = Date().timeIntervalSince1970
        let huge = "1" + String(repeating: "0", count: 400)
        for (path, body, field) in [
            (
                "/v1/locations",
                "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t)), {\"seq\": 2, \"t\": 1, \"lat\": 1e400, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "fixes[1].lat"
            ),
            (
                "/v1/locations",
                "{\"responder\": 17, \"fixes\": [{\"seq\": \(huge), \"t\": 1, \"lat\": 1, \"lon\": 1, \"acc\": 1, \"duty\": \"on_duty\"}]}",
                "fixes[0].seq"
            ),
            (
                "/v1/locations", "{\"responder\": 17, \"fixes\": [\(fixJSON(1, t: t))], \"telemetry\": {\"oldest_age_s\": -1e999}}",
                "telemetry.oldest_age_s"
            ),
            ("/v1/incidents", "{\"id\": 1, \"lat\": 1, \"lon\": 1, \"ack_timeout_s\": 1e400}", "ack_timeout_s")
        ] {
            let (status, text) = try await request("POST", running.base + path, body: body, token: "secret17")
            let named = (try json(text) as? [String: Any])?["field"] as? String
            #expect(status == 400 && named == field, "\(body): \(text)")
        }
        #expect(try running.service.store.fixCount() == 0)
    }

    /// Request bodies held at once are bounded over all connections: each connection could hold
    /// a body of up to 1 MB while it arrives (1.06 MB of memory each, measured), 8,000 of them
    /// about 8.5 GB, with no token needed; a declared body that would pass the budget is a 503
    /// answered before it is read, and a body's room comes back when it is answered.
    @Test func bodiesHeldAtOnceAreBounded() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("service.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let head = "POST /v1/incidents HTTP/1.1\r\nHost: x\r\nContent-Length: \(HTTPServer.maxBody)\r\n\r\n"
        let almost = String(repeating: " ", count: HTTPServer.maxBody - 1)
        var held: [RawConnection] = []
        for _ in 0..<(HTTPServer.bodyBudget / HTTPServer.maxBody) {
            let c = try RawConnection(port: running.http.port)
            c.send(head + almost)
            held.append(c)
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        let over = try RawConnection(port: running.http.port)
        over.send(head)
        let answer = over.receive()
        #expect(statusLines(answer) == ["HTTP/1.1 503 Service Unavailable"] && answer.contains("busy"), "\(answer)")
        // One held body ends (a body of blanks: 400), and its room serves another.
        held[0].send(" ")
        #expect(statusLines(held[0].receive(seconds: 1)) == ["HTTP/1.1 400 Bad Request"])
        let next = try RawConnection(port: running.http.port)
        next.send(head + almost + " ")
        #expect(statusLines(next.receive(seconds: 1)) == ["HTTP/1.1 400 Bad Request"])
    }
}
