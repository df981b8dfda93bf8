import Foundation
import Testing
import Responders
@testable import ResponderStore

/// Near Me's offline sync outbox: the phone queue's rules (sequences, durability, acknowledge
/// through) on events and task updates, drained with the responders' backoff.
@Suite struct SyncOutboxTests {
    /// A server that answers with the statuses given, in order, and keeps what it accepted.
    struct FakeServer: SyncTransport {
        var answers: [Int?]
        var received: [[Int64]] = []
        mutating func upload(_ items: [SyncItem]) -> Int? {
            received.append(items.map(\.sequence))
            return answers.isEmpty ? 200 : answers.removeFirst()
        }
    }

    @Test func appendPeekAcknowledgeAcrossReopen() throws {
        let dir = try TestDirectory()
        let path = dir.path("outbox.sqlite")
        do {
            let outbox = try SyncOutbox(path: path, device: 7)
            let items = try outbox.append([(.event, 10, #"{"name": "task_created"}"#), (.taskUpdate, 20, #"{"id": "milk", "status": "completed"}"#)])
            #expect(items.map(\.sequence) == [1, 2])
            #expect(try outbox.peek(limit: 10) == items)
            #expect(try outbox.oldestTime() == 10)
            try outbox.acknowledge(through: 1)
            #expect(try outbox.depth() == 1)
            #expect(throws: ResponderStoreError.invalidValue(path: path, sequence: 3, field: "time", value: .infinity)) {
                try outbox.append([(.event, .infinity, "{}")])
            }
        }
        let reopened = try SyncOutbox(path: path, device: 7)
        #expect(try reopened.peek(limit: 10).map(\.payload) == [#"{"id": "milk", "status": "completed"}"#])
        #expect(try reopened.append([(.event, 30, "{}")]).first?.sequence == 3)
        #expect(throws: ResponderStoreError.self) { _ = try SyncOutbox(path: path, device: 8) }
        // A phone queue's file is not an outbox, and the other way round.
        #expect(throws: ResponderStoreError.self) { _ = try PhoneQueue(path: path, responder: ResponderID(7)) }
    }

    /// Offline nothing is sent; failures back off 1 s, 2 s...; only a 2xx deletes; a network
    /// change retries at once.
    @Test func drainsWithTheRespondersBackoff() throws {
        let dir = try TestDirectory()
        let outbox = try SyncOutbox(path: dir.path("o.sqlite"), device: 1)
        try outbox.append((0..<5).map { (.event, Double($0), "e\($0)") })
        var sync = OutboxSync(network: .none, now: 0, batchLimit: 3)
        var server = FakeServer(answers: [500, nil, 200, 200])
        #expect(try sync.step(now: 0, outbox: outbox, transport: &server) == .waiting)  // offline: keeps queueing
        sync.policy.networkChanged(to: .wifi, now: 10)
        #expect(try sync.step(now: 10, outbox: outbox, transport: &server) == .failed(status: 500))
        #expect(try sync.step(now: 10.5, outbox: outbox, transport: &server) == .waiting)  // 1 s backoff
        #expect(try sync.step(now: 11, outbox: outbox, transport: &server) == .failed(status: nil))
        #expect(sync.policy.nextAttempt == 13)  // then 2 s
        #expect(try sync.step(now: 13, outbox: outbox, transport: &server) == .sent(count: 3, through: 3))
        #expect(try sync.step(now: 13, outbox: outbox, transport: &server) == .sent(count: 2, through: 5))
        #expect(try sync.step(now: 14, outbox: outbox, transport: &server) == .idle)
        #expect(server.received == [[1, 2, 3], [1, 2, 3], [1, 2, 3], [4, 5]])  // a failed batch is sent again
    }
}
