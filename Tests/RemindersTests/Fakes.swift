import Foundation
@testable import Reminders

/// In-memory notification center: what was scheduled and cancelled; can be told to fail.
actor FakeScheduler: NotificationScheduling {
    var pending: [String: NotificationRequest] = [:]
    var cancelled: [String] = []
    var failNext = false

    func schedule(_ request: NotificationRequest) async throws {
        if failNext { failNext = false; throw FakeError.refused }
        pending[request.id] = request
    }
    func cancel(ids: [String]) async {
        for id in ids { pending[id] = nil }
        cancelled += ids
    }
    func pendingIDs() async -> Set<String> { Set(pending.keys) }
    func setFailNext() { failNext = true }
    /// The OS fires a one-shot: it leaves the pending list.
    func fire(_ id: String) { pending[id] = nil }
}

enum FakeError: Error { case refused }

/// A clock the test sets; `sleep` returns at once when `sleepsForever` is false (a timeout
/// happens immediately) and otherwise never returns until cancelled.
struct FakeClock: TimeSource {
    var time: Double
    var sleepsForever: Bool
    func now() -> Double { time }
    func sleep(seconds: Double) async throws {
        if sleepsForever {
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
    }
}

/// A content provider that answers, fails, or hangs until cancelled.
struct FakeProvider: CheckInContentProviding {
    enum Mode { case answer, fail, hang }
    var mode: Mode
    func content(for request: CheckInRequest) async throws -> NotificationContent {
        switch mode {
        case .answer:
            return NotificationContent(
                title: "Hey!", body: "\(request.absence.rawValue) after \(request.daysAway) days", categoryIdentifier: "CHECK_IN")
        case .fail:
            throw FakeError.refused
        case .hang:
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
    }
}
