/// What one ``Sender/step(now:device:queue:transport:)`` did.
public enum SendStep: Hashable, Sendable {
    /// No network: fixes keep queueing.
    case offline
    /// In backoff until this time (seconds).
    case waiting(until: Double)
    /// Nothing queued.
    case idle
    /// The health check did not return 200 (a captive portal, or `nil` when unreachable):
    /// fixes keep queueing, the sender backs off.
    case captivePortal(status: Int?)
    /// A batch of `count` fixes was accepted and deleted from the queue, up to `through`.
    case sent(count: Int, through: Int64)
    /// The upload failed (a non-2xx status, or `nil` when unreachable); backing off.
    case failed(status: Int?)
    /// 401 even after refreshing the token once; backing off.
    case unauthorized
}

/// Counters of a ``Sender`` since it was created.
public struct SenderCounters: Hashable, Sendable, Codable {
    /// Batches accepted by the server.
    public var batchesSent = 0
    /// Fixes in those batches.
    public var fixesSent = 0
    /// Uploads that failed (any status but 2xx and 401, or unreachable).
    public var failedUploads = 0
    /// Health checks that did not return 200.
    public var captivePortals = 0
    /// Token refreshes after a 401.
    public var tokenRefreshes = 0
    /// Batches refused with 401 after the refresh.
    public var unauthorized = 0

    /// All counters at 0.
    public init() {}
}

/// The phone's upload loop, one step at a time: it reads the front of the queue, uploads it
/// through the injected transport, and deletes what the server accepted. Time is passed in, so
/// a test drives it with a fake clock and never sleeps.
///
/// A step, in order: no network -> ``SendStep/offline``; backoff not over ->
/// ``SendStep/waiting(until:)``; empty queue -> ``SendStep/idle``; if the policy asks for it, a
/// health check (not 200 -> ``SendStep/captivePortal(status:)``, back off); then one upload of up
/// to `batchLimit` fixes. A 401 refreshes the token and retries the same batch once; a second
/// 401 backs off as ``SendStep/unauthorized``. A 413 (the batch is over the server's body limit)
/// sends the front half at once, halving down to one fix. Only a 2xx deletes fixes from the queue, so a
/// batch whose answer was lost is sent again (the server drops the copies by sequence).
/// `Codable`, so the phone can keep its backoff and token across a relaunch.
public struct Sender: Sendable, Codable {
    /// Who this phone is.
    public let responder: ResponderID
    /// Backoff state.
    public private(set) var policy: SenderPolicy
    /// The current bearer token.
    public private(set) var token: String
    /// Most fixes per upload.
    public let batchLimit: Int
    /// What happened so far.
    public private(set) var counters = SenderCounters()

    /// A sender backing off as `fleet` says.
    /// - Precondition: `batchLimit >= 1`.
    public init(
        responder: ResponderID, token: String, network: NetworkType, now: Double, batchLimit: Int = 100,
        fleet: FleetPolicy = .standard
    ) {
        precondition(batchLimit >= 1, "batchLimit must be at least 1")
        self.responder = responder
        self.token = token
        self.policy = SenderPolicy(network: network, now: now, fleet: fleet)
        self.batchLimit = batchLimit
    }

    /// The phone's network changed: forwarded to the policy (reset backoff, retry at once).
    public mutating func networkChanged(to network: NetworkType, now: Double) {
        policy.networkChanged(to: network, now: now)
    }

    /// One attempt at `now` (seconds). Queue errors are rethrown; transport failures are not
    /// errors but steps.
    public mutating func step<Queue: OutboundQueue, Transport: UploadTransport>(
        now: Double, device: DeviceConditions, queue: inout Queue, transport: inout Transport
    ) throws -> SendStep {
        guard policy.network != .none else { return .offline }
        guard policy.isDue(now: now) else { return .waiting(until: policy.nextAttempt) }
        let fixes = try queue.peek(limit: batchLimit)
        guard let last = fixes.last else { return .idle }
        if policy.needsHealthCheck {
            let health = transport.healthCheck(now: now)
            guard health == .status(200) else {
                counters.captivePortals += 1
                policy.recordFailure(now: now)
                if case .status(let code) = health { return .captivePortal(status: code) }
                return .captivePortal(status: nil)
            }
            policy.recordHealthy()
        }
        let telemetry = TelemetryEnvelope(
            device: device, queueDepth: try queue.depth(),
            oldestTime: try queue.oldestTime(), network: policy.network, now: now)
        var batch = UploadBatch(responder: responder, fixes: fixes, telemetry: telemetry)
        var response = transport.upload(batch, token: token, now: now)
        // 413: the batch is larger than the server takes; the front half is sent at once, down
        // to one fix, so no batch limit can keep the queue from draining.
        while response == .status(413) && batch.fixes.count > 1 {
            batch.fixes.removeLast(batch.fixes.count - batch.fixes.count / 2)
            response = transport.upload(batch, token: token, now: now)
        }
        if response == .status(401) {
            counters.tokenRefreshes += 1
            if let fresh = transport.refreshToken(now: now) {
                token = fresh
                response = transport.upload(batch, token: token, now: now)
            }
            if response == .status(401) {
                counters.unauthorized += 1
                policy.recordFailure(now: now)
                return .unauthorized
            }
        }
        switch response {
        case .status(let code) where (200..<300).contains(code):
            let through = batch.fixes.last?.sequence ?? last.sequence
            try queue.acknowledge(through: through)
            counters.batchesSent += 1
            counters.fixesSent += batch.fixes.count
            policy.recordSuccess(now: now)
            return .sent(count: batch.fixes.count, through: through)
        case .status(let code):
            counters.failedUploads += 1
            policy.recordFailure(now: now)
            return .failed(status: code)
        case .unreachable:
            counters.failedUploads += 1
            policy.recordFailure(now: now)
            return .failed(status: nil)
        }
    }
}
