import Geodesy
import Responders

/// An in-memory ``OutboundQueue``: what the SQLite queue does, without a file.
struct MemoryQueue: OutboundQueue {
    var responder = ResponderID(7)
    var fixes: [ReportedFix] = []
    var lastSequence: Int64 = 0

    mutating func append(_ fix: LocationFix, duty: DutyState = .onDuty) {
        lastSequence += 1
        fixes.append(ReportedFix(responder: responder, sequence: lastSequence, fix: fix, duty: duty))
    }

    func peek(limit: Int) -> [ReportedFix] { Array(fixes.prefix(limit)) }
    mutating func acknowledge(through sequence: Int64) { fixes.removeAll { $0.sequence <= sequence } }
    func depth() -> Int { fixes.count }
    func oldestTime() -> Double? { fixes.first?.fix.time }
}

/// A scripted ``UploadTransport``: answers come from queues (the last answer repeats), and
/// every call is logged with its time.
struct FakeTransport: UploadTransport {
    var healthAnswers: [TransportResponse] = [.status(200)]
    var uploadAnswers: [TransportResponse] = [.status(200)]
    var freshToken: String? = "fresh"
    private(set) var log: [String] = []
    private(set) var uploaded: [UploadBatch] = []

    init(health: [TransportResponse] = [.status(200)], upload: [TransportResponse] = [.status(200)]) {
        healthAnswers = health
        uploadAnswers = upload
    }

    mutating func healthCheck(now: Double) -> TransportResponse {
        log.append("health@\(now)")
        return healthAnswers.count > 1 ? healthAnswers.removeFirst() : healthAnswers[0]
    }

    mutating func upload(_ batch: UploadBatch, token: String, now: Double) -> TransportResponse {
        log.append("upload(\(batch.fixes.count),\(token))@\(now)")
        uploaded.append(batch)
        return uploadAnswers.count > 1 ? uploadAnswers.removeFirst() : uploadAnswers[0]
    }

    mutating func refreshToken(now: Double) -> String? {
        log.append("refresh@\(now)")
        return freshToken
    }
}

/// A fix at `time` s, `north` meters north of (60, 25).
func fix(_ time: Double, north: Double = 0, accuracy: Double = 5) -> LocationFix {
    LocationFix(time: time, latitude: 60 + north / 111_194.9, longitude: 25, accuracy: accuracy)
}

/// A fix as the phone reports it.
func reported(
    _ responder: Int, _ sequence: Int64, time: Double, duty: DutyState = .onDuty,
    latitude: Double = 60, longitude: Double = 25
) -> ReportedFix {
    ReportedFix(
        responder: ResponderID(responder), sequence: sequence,
        fix: LocationFix(time: time, latitude: latitude, longitude: longitude, accuracy: 5), duty: duty)
}
