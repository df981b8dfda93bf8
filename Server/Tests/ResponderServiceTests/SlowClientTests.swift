import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ResponderService

/// A raw TCP connection to 127.0.0.1 that sends what it is told, when it is told.
final class RawConnection {
    let fd: Int32
    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw StoreError("connect", "errno \(errno)") }
    }
    func send(_ text: String) { _ = text.withCString { write(fd, $0, strlen($0)) } }
    deinit { close(fd) }
}

@Suite struct SlowClientTests {
    /// Clients that stall mid-headers or mid-body, or declare a huge body, do not stop the
    /// service from answering others, and store nothing.
    @Test func slowAndStalledRequestsNeitherBlockOthersNorStoreAnything() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let running = try RunningService(store: "sqlite:" + scratch.file("slow.db"), tokens: [(17, "secret17")])
        defer { running.stop() }
        let port = running.http.port
        var stalled: [RawConnection] = []
        for k in 0..<40 {
            let c = try RawConnection(port: port)
            switch k % 3 {
            case 0: c.send("POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthor")  // stops inside the headers
            case 1:
                c.send(
                    "POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\nContent-Length: 400\r\n\r\n"
                        + "{\"responder\": 17, \"fixes\": [{\"seq\": 1, ")  // stops inside the body
            default: c.send("POST /v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret17\r\nContent-Length: 900000000\r\n\r\n")
            }
            stalled.append(c)
        }
        for _ in 0..<20 {
            let (status, body) = try await request("GET", running.base + "/health")
            #expect(status == 200 && body == "ok")
        }
        let t = Date().timeIntervalSince1970
        let (status, _) = try await request(
            "POST", running.base + "/v1/locations",
            body: "{\"responder\": 17, \"fixes\": [\(fixJSON(5, t: t))]}", token: "secret17")
        #expect(status == 200)
        stalled.removeAll()  // the clients give up mid-request
        try await Task.sleep(nanoseconds: 200_000_000)
        let (_, text) = try await request("GET", running.base + "/v1/responders/17/fixes")
        let fixes = try #require(try json(text) as? [[String: Any]])
        #expect(fixes.map { $0["seq"] as? Int } == [5])
    }
}
