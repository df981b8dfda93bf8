#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD

/// One HTTP request as the service sees it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// The `Authorization` header, nil if absent.
    public var authorization: String?
    public var body: [UInt8]
    /// The query string's arguments, decoded (the first of a key given twice; `""` for a key
    /// without `=`).
    public var query: [String: String]
    /// Set when the HTTP layer refuses the request (a body over ``HTTPServer/maxBody`` or past
    /// ``HTTPServer/bodyBudget``, a framing it will not read): the handler answers this error
    /// instead of routing, so that it is counted as any other.
    public var refusal: RequestError?

    public init(
        method: String, path: String, authorization: String? = nil, body: [UInt8] = [], query: [String: String] = [:],
        refusal: RequestError? = nil
    ) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.body = body
        self.query = query
        self.refusal = refusal
    }
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// The `Allow` header (a 405's methods), none when empty.
    public var allow = ""

    public init(status: Int, contentType: String = "application/json", body: String) {
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
    }

    /// `error` as JSON with its status (and a 405's `Allow`).
    public init(_ error: RequestError) {
        self.init(status: error.status, body: error.json)
        allow = error.allow
    }
}

/// The HTTP/1.1 server: libmicrohttpd (an epoll thread pool, keep-alive, its own parser) in front
/// of a handler. Bodies over ``maxBody`` bytes get 413 without being kept: the rest of such a body
/// is read and dropped before the answer, so a client still sending reads the 413 instead of a
/// reset connection; a declared `Content-Length` over ``maxDrainedBody`` is refused before the body
/// is read (and the connection closed), and so is a body whose framing readers could disagree on (a
/// `Transfer-Encoding` other than one `chunked`, `Content-Length` twice or beside
/// `Transfer-Encoding`, a header name with a blank: 400 naming the header). A chunked body is read
/// no further than ``maxDrainedBody`` either: past it the connection is closed without an answer.
/// Bodies held at once are bounded by ``bodyBudget``: a declared body past it is a 503 before it is
/// read, a chunked one has its connection closed. The handler makes those answers too (and counts
/// them), from a request with its ``HTTPRequest/refusal`` set. A connection idle for
/// ``idleTimeout`` seconds is closed, so a stalled client cannot hold the server; one that sends a
/// byte within every ``idleTimeout`` keeps its connection (libmicrohttpd has no deadline for a
/// whole request), up to ``connectionLimit`` connections.
public final class HTTPServer: @unchecked Sendable {
    /// Largest request body accepted, bytes: 1 MB as issue 23 states it ("413 past 1 MB"),
    /// 1,000,000 bytes, so a client that reads MB as 10^6 or as 2^20 gets 413 past either.
    public static let maxBody = 1_000_000
    /// Largest body read (and dropped) to answer 413 on an open connection, bytes; a larger
    /// declaration is refused at once, and a chunked body's connection is closed past it.
    public static let maxDrainedBody = 16 << 20
    /// Seconds a connection may stay idle.
    public static let idleTimeout: UInt32 = 10
    /// Connections open at once; more wait in the listen backlog.
    public static let connectionLimit: UInt32 = 8_000
    /// Bytes of request bodies held at once, over all connections (64 bodies of ``maxBody``):
    /// a body that would pass it is refused with 503, so that held bodies cannot take the
    /// memory of ``connectionLimit`` times ``maxBody``.
    public static let bodyBudget = 64 << 20
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let budgetLock = ConditionLock()
    private var held = 0
    private var daemon: OpaquePointer?
    /// The port listened on.
    public private(set) var port: UInt16 = 0

    /// Starts listening on `host` (an IPv4 address) and `port` (0: any free port), serving with
    /// `threads` threads.
    /// - Throws: ``StoreError`` (operation "listen") when the address is bad or taken.
    public init(
        host: String, port: UInt16, threads: Int = 4,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(StoreError) {
        self.handler = handler
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { throw StoreError("listen", "'\(host)' is not an IPv4 address") }
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let d = responder_start_daemon(
                address.s_addr, port, UInt32(max(1, threads)), Self.idleTimeout, Self.connectionLimit,
                accessHandler, context, completedHandler, context)
        else {
            throw StoreError("listen", "cannot listen on \(host):\(port) (in use, or not allowed)")
        }
        daemon = d
        self.port = responder_daemon_port(d)
    }

    /// Stops listening and closes every connection.
    public func stop() {
        if let d = daemon { MHD_stop_daemon(d) }
        daemon = nil
    }

    deinit { stop() }

    fileprivate func respond(_ request: HTTPRequest) -> HTTPResponse { handler(request) }

    /// Takes `bytes` of ``bodyBudget``; false (nothing taken) when they are not left.
    fileprivate func hold(_ bytes: Int) -> Bool {
        budgetLock.locked {
            guard held + bytes <= Self.bodyBudget else { return false }
            held += bytes
            return true
        }
    }

    /// Gives back `bytes` taken with ``hold(_:)``.
    fileprivate func release(_ bytes: Int) { budgetLock.locked { held -= bytes } }
}

private let mhdYes = MHD_Result(rawValue: 1)!
private let mhdNo = MHD_Result(rawValue: 0)!
private let headerKind = MHD_ValueKind(rawValue: 1)!
private let queryKind = MHD_ValueKind(rawValue: 8)!
private let respMustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

/// Collects a request's query arguments (``HTTPRequest/query``).
private final class QueryArguments {
    var values: [String: String] = [:]
}

private let collectQuery: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return mhdYes }
    let arguments = Unmanaged<QueryArguments>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    if arguments.values[name] == nil { arguments.values[name] = value.map { String(cString: $0) } ?? "" }
    return mhdYes
}

/// The framing headers of a request (``framingRefusal(_:)``).
private final class FramingHeaders {
    var contentLengths = 0
    /// The `Transfer-Encoding` values as libmicrohttpd keeps them (blanks before, none after).
    var transferEncodings: [String] = []
    /// The first header name with a blank in it.
    var blankName: String?
}

private let collectFraming: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return mhdYes }
    let headers = Unmanaged<FramingHeaders>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    if headers.blankName == nil && name.contains(where: { $0 == " " || $0 == "\t" }) { headers.blankName = name }
    switch name.lowercased() {
    case "content-length": headers.contentLengths += 1
    case "transfer-encoding": headers.transferEncodings.append(value.map { String(cString: $0) } ?? "")
    default: break
    }
    return mhdYes
}

/// Why the body of the request on `connection` cannot be framed the one way every reader of
/// HTTP/1.1 frames it (RFC 9112 5.1, 6.1, 6.3), nil when it can: a header name with a blank in
/// it (one reader trims it, libmicrohttpd keeps it as another name), a `Transfer-Encoding` other
/// than one `chunked` exactly (libmicrohttpd would wait for the end of any other body until the
/// idle timeout), `Content-Length` given twice or beside `Transfer-Encoding` (libmicrohttpd reads
/// the first length, or the chunks, and a proxy that reads the other would see the rest of the
/// body as another request).
private func framingRefusal(_ connection: OpaquePointer?) -> RequestError? {
    let headers = FramingHeaders()
    withExtendedLifetime(headers) {
        _ = MHD_get_connection_values(connection, headerKind, collectFraming, Unmanaged.passUnretained(headers).toOpaque())
    }
    if let name = headers.blankName { return RequestError(400, field: name, "a header name with a blank in it") }
    if !headers.transferEncodings.isEmpty && headers.transferEncodings.map({ $0.lowercased() }) != ["chunked"] {
        let codings = headers.transferEncodings.map { "'\($0)'" }.joined(separator: ", ")
        return RequestError(400, field: "Transfer-Encoding", "\(codings) is not one 'chunked'")
    }
    if headers.contentLengths > 1 { return RequestError(400, field: "Content-Length", "given \(headers.contentLengths) times") }
    if headers.contentLengths == 1 && !headers.transferEncodings.isEmpty {
        return RequestError(400, field: "Content-Length", "given with Transfer-Encoding")
    }
    return nil
}

/// What one request carries between the handler's calls.
private final class RequestState {
    var body: [UInt8] = []
    var tooLarge = false
    /// Bytes of the body read so far.
    var received = 0
    /// Bytes of ``HTTPServer/bodyBudget`` this request holds.
    var held = 0
}

private func send(_ connection: OpaquePointer?, _ response: HTTPResponse) -> MHD_Result {
    let r = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), respMustCopy)
    }
    guard let r else { return mhdNo }
    MHD_add_response_header(r, "Content-Type", response.contentType)
    MHD_add_response_header(r, "Cache-Control", "no-store")
    if !response.allow.isEmpty { MHD_add_response_header(r, "Allow", response.allow) }
    let result = MHD_queue_response(connection, UInt32(response.status), r)
    MHD_destroy_response(r)
    return result
}

/// The request on `connection` as the handler sees it: method, path, `Authorization`, query.
private func incoming(
    _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, body: [UInt8] = [],
    refusal: RequestError? = nil
) -> HTTPRequest {
    // libmicrohttpd's URL is the path without the query, percent-decoded: a `?` in it is the
    // path's own (`%3F`).
    let path = url.map { String(cString: $0) } ?? "/"
    let authorization = MHD_lookup_connection_value(connection, headerKind, "Authorization").map { String(cString: $0) }
    let query = QueryArguments()
    withExtendedLifetime(query) {
        _ = MHD_get_connection_values(connection, queryKind, collectQuery, Unmanaged.passUnretained(query).toOpaque())
    }
    return HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: path, authorization: authorization, body: body,
        query: query.values, refusal: refusal)
}

private let tooLarge = RequestError(413, field: "body", "larger than \(HTTPServer.maxBody) bytes")
private let busy = RequestError(503, "busy: \(HTTPServer.bodyBudget) bytes of request bodies are being received; try again")

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
    guard let cls, let state, let uploadSize else { return mhdNo }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if state.pointee == nil {
        // First call: headers only. A declared body over the limit is dropped as it arrives and
        // answered 413 at its end; one too large to be worth reading is refused at once.
        let request = RequestState()
        state.pointee = Unmanaged.passRetained(request).toOpaque()
        if let refusal = framingRefusal(connection) {
            return send(connection, server.respond(incoming(connection, url, method, refusal: refusal)))
        }
        if let length = MHD_lookup_connection_value(connection, headerKind, "Content-Length"),
            let n = Int(String(cString: length)), n > 0
        {
            if n > HTTPServer.maxBody {
                request.tooLarge = true
                if n > HTTPServer.maxDrainedBody {
                    return send(connection, server.respond(incoming(connection, url, method, refusal: tooLarge)))
                }
            } else {
                // A declared body is held whole, or refused before it is read.
                guard server.hold(n) else { return send(connection, server.respond(incoming(connection, url, method, refusal: busy))) }
                request.held = n
            }
        }
        return mhdYes
    }
    let request = Unmanaged<RequestState>.fromOpaque(state.pointee!).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        request.received += uploadSize.pointee
        if request.received > HTTPServer.maxDrainedBody {
            // A chunked body, which declared no length, is read no further than a declared one
            // would be: the 413 is counted and the connection closed (libmicrohttpd sends no
            // answer in the middle of a body).
            _ = server.respond(incoming(connection, url, method, refusal: tooLarge))
            return mhdNo
        }
        if !request.tooLarge, let uploadData {
            let size = request.body.count + uploadSize.pointee
            if size > HTTPServer.maxBody {
                request.tooLarge = true
                request.body = []
            } else if size > request.held && !server.hold(size - request.held) {
                // A chunked body past the budget: the connection is closed (no answer mid-body).
                _ = server.respond(incoming(connection, url, method, refusal: busy))
                return mhdNo
            } else {
                request.held = max(request.held, size)
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return mhdYes
    }
    let refusal = request.tooLarge ? tooLarge : nil
    return send(connection, server.respond(incoming(connection, url, method, body: request.body, refusal: refusal)))
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, _, state, _ in
    guard let state, let pointer = state.pointee else { return }
    let request = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    if let cls, request.held > 0 { Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().release(request.held) }
    state.pointee = nil
}
