/// What the network answered: an HTTP status, or no answer at all.
public enum TransportResponse: Hashable, Sendable {
    /// The server (or whatever answered in its place, e.g. a captive portal) returned this status.
    case status(Int)
    /// No connection (DNS failure, timeout, no route).
    case unreachable
}

/// The phone's connection to the server, injected into ``Sender`` so tests and simulations run
/// without a network and without sleeping. Calls are synchronous; `now` is the caller's clock
/// in seconds.
public protocol UploadTransport {
    /// GET of the server's health endpoint. 200 means the real server answered; anything else
    /// (a redirect, a login page) means a captive portal or a broken path.
    mutating func healthCheck(now: Double) -> TransportResponse
    /// POST of one batch with the bearer `token`. 2xx: the server stored every fix of the batch
    /// (or already had it). 401: the token is no longer valid. 413: the body is over the
    /// server's limit (``Sender`` then sends the front half).
    mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse
    /// Obtains a fresh token, or nil if that failed.
    mutating func refreshToken(now: Double) -> String?
}

/// The phone's durable queue of kept fixes, injected into ``Sender``: the SQLite queue in
/// ResponderStore, or an in-memory one.
public protocol OutboundQueue {
    /// Up to `limit` fixes from the front (lowest sequences first).
    mutating func peek(limit: Int) throws -> [ReportedFix]
    /// Deletes every queued fix with `sequence <= through` (the server acknowledged them).
    mutating func acknowledge(through sequence: Int64) throws
    /// Fixes queued.
    func depth() throws -> Int
    /// `time` of the oldest queued fix, nil when empty.
    func oldestTime() throws -> Double?
}

/// One upload: a run of fixes from the front of the queue plus the phone's telemetry.
public struct UploadBatch: Hashable, Sendable {
    /// Who sends.
    public var responder: ResponderID
    /// Fixes, in sequence order.
    public var fixes: [ReportedFix]
    /// The phone's state when the batch was built.
    public var telemetry: TelemetryEnvelope

    /// A batch of `fixes` (in sequence order) with `telemetry`.
    public init(responder: ResponderID, fixes: [ReportedFix], telemetry: TelemetryEnvelope) {
        self.responder = responder
        self.fixes = fixes
        self.telemetry = telemetry
    }
}
