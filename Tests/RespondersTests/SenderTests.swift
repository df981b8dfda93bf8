import Testing
@testable import Responders

@Suite struct SenderTests {
    let healthy = DeviceConditions()

    @Test func backoffDoublesFromOneSecondUpToThirty() {
        let waits = (0...9).map { SenderPolicy.backoff(afterFailures: $0) }
        #expect(waits == [0, 1, 2, 4, 8, 16, 30, 30, 30, 30])
        #expect(SenderPolicy.backoff(afterFailures: Int.max) == 30)
    }

    @Test func failuresBackOffAndANetworkChangeRetriesAtOnce() throws {
        var queue = MemoryQueue()
        queue.append(fix(0))
        var transport = FakeTransport(upload: [.unreachable])
        var sender = Sender(responder: queue.responder, token: "t", network: .cellular, now: 0)
        var now = 0.0
        var attempts: [Double] = []
        while now < 100 {
            if case .failed = try sender.step(now: now, device: healthy, queue: &queue, transport: &transport) { attempts.append(now) }
            now += 0.5
        }
        // 0, then +1, +2, +4, +8, +16, +30, +30
        #expect(attempts == [0, 1, 3, 7, 15, 31, 61, 91])
        #expect(sender.policy.failures == 8)
        if case .waiting(let until) = try sender.step(now: 100, device: healthy, queue: &queue, transport: &transport) {
            #expect(until == 121)
        } else {
            Issue.record("expected to be waiting")
        }
        sender.networkChanged(to: .wifi, now: 100)
        #expect(sender.policy.failures == 0)
        transport.uploadAnswers = [.status(200)]
        #expect(try sender.step(now: 100, device: healthy, queue: &queue, transport: &transport) == .sent(count: 1, through: 1))
        #expect(queue.depth() == 0)
        #expect(transport.log.suffix(2) == ["health@100.0", "upload(1,t)@100.0"])
    }

    /// The memo's backoff is at most 30 s. The phone's clock is set back an hour (a correction
    /// after running fast) while the sender backs off: the wait must not grow by the hour. A
    /// clock earlier than the moment the wait was set makes the attempt due at once.
    @Test func aClockSetBackDoesNotStretchTheBackoff() throws {
        var queue = MemoryQueue()
        queue.append(fix(0))
        var transport = FakeTransport(upload: [.unreachable, .unreachable, .unreachable, .status(200)])
        var sender = Sender(responder: queue.responder, token: "t", network: .cellular, now: 10_000)
        for now in [10_000.0, 10_001, 10_003] {
            #expect(try sender.step(now: now, device: healthy, queue: &queue, transport: &transport) == .failed(status: nil))
        }
        #expect(sender.policy.nextAttempt == 10_007)  // 4 s after the third failure
        let setBack = 10_003.5 - 3_600
        #expect(try sender.step(now: setBack, device: healthy, queue: &queue, transport: &transport) == .sent(count: 1, through: 1))
        #expect(queue.depth() == 0)
        // Backing off again from the new clock, by the usual waits.
        queue.append(fix(1))
        transport.uploadAnswers = [.unreachable]
        #expect(try sender.step(now: setBack + 1, device: healthy, queue: &queue, transport: &transport) == .failed(status: nil))
        #expect(try sender.step(now: setBack + 1.5, device: healthy, queue: &queue, transport: &transport) == .waiting(until: setBack + 2))
    }

    @Test func offlineAndCaptivePortalKeepQueueing() throws {
        var queue = MemoryQueue()
        var transport = FakeTransport(health: [.status(302)])
        var sender = Sender(responder: queue.responder, token: "t", network: .none, now: 0)
        for t in 0..<5 {
            queue.append(fix(Double(t)))
            #expect(try sender.step(now: Double(t), device: healthy, queue: &queue, transport: &transport) == .offline)
        }
        #expect(transport.log.isEmpty)
        sender.networkChanged(to: .wifi, now: 10)
        #expect(try sender.step(now: 10, device: healthy, queue: &queue, transport: &transport) == .captivePortal(status: 302))
        #expect(try sender.step(now: 10.5, device: healthy, queue: &queue, transport: &transport) == .waiting(until: 11))
        #expect(try sender.step(now: 11, device: healthy, queue: &queue, transport: &transport) == .captivePortal(status: 302))
        #expect(queue.depth() == 5)
        #expect(transport.uploaded.isEmpty)
        #expect(sender.counters.captivePortals == 2)
        transport.healthAnswers = [.status(200)]
        sender.networkChanged(to: .cellular, now: 12)
        #expect(try sender.step(now: 12, device: healthy, queue: &queue, transport: &transport) == .sent(count: 5, through: 5))
        #expect(transport.uploaded[0].telemetry.queueDepth == 5)
        #expect(transport.uploaded[0].telemetry.oldestEntryAge == 12)
        #expect(transport.uploaded[0].telemetry.network == .cellular)
    }

    @Test func unauthorizedRefreshesTheTokenAndRetriesOnce() throws {
        var queue = MemoryQueue()
        queue.append(fix(0))
        var transport = FakeTransport(upload: [.status(401), .status(200)])
        var sender = Sender(responder: queue.responder, token: "old", network: .wifi, now: 0)
        #expect(try sender.step(now: 0, device: healthy, queue: &queue, transport: &transport) == .sent(count: 1, through: 1))
        #expect(transport.log == ["health@0.0", "upload(1,old)@0.0", "refresh@0.0", "upload(1,fresh)@0.0"])
        #expect(sender.token == "fresh")

        queue.append(fix(1))
        transport = FakeTransport(upload: [.status(401)])
        #expect(try sender.step(now: 1, device: healthy, queue: &queue, transport: &transport) == .unauthorized)
        #expect(transport.log == ["upload(1,fresh)@1.0", "refresh@1.0", "upload(1,fresh)@1.0"])  // one retry only
        #expect(queue.depth() == 1)
        #expect(sender.counters.tokenRefreshes == 2)
        #expect(sender.counters.unauthorized == 1)
        #expect(sender.policy.nextAttempt == 2)
    }

    @Test func aBatchIsDeletedOnlyWhenAccepted() throws {
        var queue = MemoryQueue()
        for t in 0..<250 { queue.append(fix(Double(t))) }
        var transport = FakeTransport(upload: [.status(500), .status(200)])
        var sender = Sender(responder: queue.responder, token: "t", network: .wifi, now: 0, batchLimit: 100)
        #expect(try sender.step(now: 0, device: healthy, queue: &queue, transport: &transport) == .failed(status: 500))
        #expect(queue.depth() == 250)
        #expect(try sender.step(now: 1, device: healthy, queue: &queue, transport: &transport) == .sent(count: 100, through: 100))
        #expect(try sender.step(now: 1, device: healthy, queue: &queue, transport: &transport) == .sent(count: 100, through: 200))
        #expect(try sender.step(now: 1, device: healthy, queue: &queue, transport: &transport) == .sent(count: 50, through: 250))
        #expect(try sender.step(now: 1, device: healthy, queue: &queue, transport: &transport) == .idle)
        #expect(sender.counters.fixesSent == 250)
        #expect(transport.uploaded.map { $0.fixes.first!.sequence } == [1, 1, 101, 201])
    }

    /// A server that refuses bodies over its limit with 413 (here: more than 30 fixes) cannot
    /// stall a phone whose batch limit is larger: the sender halves the batch until it is taken.
    @Test func aBatchOverTheServersLimitIsHalvedUntilTaken() throws {
        struct LimitedServer: UploadTransport {
            var sizes: [Int] = []
            mutating func healthCheck(now: Double) -> TransportResponse { .status(200) }
            mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse {
                sizes.append(batch.fixes.count)
                return batch.fixes.count > 30 ? .status(413) : .status(200)
            }
            mutating func refreshToken(now: Double) -> String? { nil }
        }
        var queue = MemoryQueue()
        for t in 0..<250 { queue.append(fix(Double(t))) }
        var server = LimitedServer()
        var sender = Sender(responder: queue.responder, token: "t", network: .wifi, now: 0, batchLimit: 200)
        #expect(try sender.step(now: 0, device: healthy, queue: &queue, transport: &server) == .sent(count: 25, through: 25))
        #expect(server.sizes == [200, 100, 50, 25])
        var steps = 1
        while queue.depth() > 0 && steps < 100 {
            _ = try sender.step(now: Double(steps), device: healthy, queue: &queue, transport: &server)
            steps += 1
        }
        #expect(queue.depth() == 0 && sender.counters.fixesSent == 250 && sender.counters.failedUploads == 0)
        // One fix over the limit is still a failure, backed off as any other.
        struct RefusesAll: UploadTransport {
            mutating func healthCheck(now: Double) -> TransportResponse { .status(200) }
            mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse { .status(413) }
            mutating func refreshToken(now: Double) -> String? { nil }
        }
        var refusing = RefusesAll()
        var one = MemoryQueue()
        one.append(fix(0))
        var other = Sender(responder: one.responder, token: "t", network: .wifi, now: 0)
        #expect(try other.step(now: 0, device: healthy, queue: &one, transport: &refusing) == .failed(status: 413))
        #expect(one.depth() == 1)
    }
}
