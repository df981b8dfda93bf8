import Responders

/// One item of an app's offline sync (Near Me 10.2/10.3): an event or a task update, as the app
/// encoded it (`payload`, e.g. JSON), with its time and its place in the outbox.
public struct SyncItem: Hashable, Sendable {
    /// What the payload is.
    public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
        /// An analytics or engagement event.
        case event = 1
        /// A task created, edited, completed or deleted.
        case taskUpdate = 2
    }

    /// Position in the outbox (1, 2, ...; never reused).
    public var sequence: Int64
    /// When it happened, Unix seconds (finite).
    public var time: Double
    /// Event or task update.
    public var kind: Kind
    /// The encoded item.
    public var payload: String
}

/// A durable outbox of events and task updates to sync to a server when the network returns:
/// the same queue as the responders' ``PhoneQueue`` (`DurableQueue`: crash-safe appends,
/// per-file sequence numbers, delete only through an acknowledged sequence), in its own file.
/// ``OutboxSync`` drains it with the responders' backoff rules (`SenderPolicy`).
///
/// Schema (application id 0x47465351, version 1): `queue_meta(key, value)` holding `device` and
/// `last_sequence`; `sync_item(sequence INTEGER PRIMARY KEY, time, kind, payload)`.
///
/// Not thread-safe: one owner at a time.
public final class SyncOutbox {
    /// The file.
    public var path: String { queue.path }
    /// Whose items these are.
    public let device: Int64
    /// The last sequence number given out (0 before the first append).
    public var lastSequence: Int64 { queue.lastSequence }

    private let queue: DurableQueue

    static let schema = SchemaSpec(
        kind: "sync outbox", applicationID: 0x4746_5351, version: 1,
        createStatements: [
            "CREATE TABLE queue_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
            "CREATE TABLE sync_item (sequence INTEGER PRIMARY KEY, time REAL NOT NULL, kind INTEGER NOT NULL, payload TEXT NOT NULL)"
        ])

    /// Opens (or creates) the outbox of `device` at `path`.
    /// - Throws: ``ResponderStoreError`` as ``PhoneQueue/init(path:responder:)`` does (another
    ///   device's outbox is ``ResponderStoreError/responderMismatch(path:stored:requested:)``).
    public init(path: String, device: Int64) throws(ResponderStoreError) {
        self.device = device
        queue = try DurableQueue(
            path: path, schema: SyncOutbox.schema, table: "sync_item", columnNames: "time, kind, payload",
            columnCount: 3, ownerKey: "device", owner: device
        ) { stored in
            .responderMismatch(path: path, stored: Int32(truncatingIfNeeded: stored), requested: Int32(truncatingIfNeeded: device))
        }
    }

    /// Appends items in one transaction (all or none), numbered consecutively; returns them.
    /// - Throws: ``ResponderStoreError/invalidValue(path:sequence:field:value:)`` before writing
    ///   for a time that is not finite; SQLite failures (nothing appended then).
    @discardableResult
    public func append(_ items: [(kind: SyncItem.Kind, time: Double, payload: String)]) throws(ResponderStoreError) -> [SyncItem] {
        let first = lastSequence + 1
        let numbered = items.enumerated().map { k, item in
            SyncItem(sequence: first + Int64(k), time: item.time, kind: item.kind, payload: item.payload)
        }
        if let bad = numbered.first(where: { !$0.time.isFinite }) {
            throw .invalidValue(path: path, sequence: bad.sequence, field: "time", value: bad.time)
        }
        try queue.append(count: numbered.count) { k, statement in
            statement.bind(2, numbered[k].time)
            statement.bind(3, Int64(numbered[k].kind.rawValue))
            statement.bind(4, numbered[k].payload)
        }
        return numbered
    }

    /// Up to `limit` items from the front, lowest sequence first.
    /// - Throws: ``ResponderStoreError/corrupt(path:message:)`` for a row that is not an item.
    public func peek(limit: Int) throws(ResponderStoreError) -> [SyncItem] {
        let path = self.path
        return try queue.peek(limit: limit) { (s, sequence) throws(ResponderStoreError) in
            let code = s.int64(2)
            guard s.isFiniteNumber(1), (0...255).contains(code), let kind = SyncItem.Kind(rawValue: UInt8(code)) else {
                throw .corrupt(path: path, message: "sync item \(sequence): time or kind \(code) is not valid")
            }
            return SyncItem(sequence: sequence, time: s.double(1), kind: kind, payload: s.text(3))
        }
    }

    /// Deletes every item with `sequence <= through` (one transaction).
    public func acknowledge(through sequence: Int64) throws(ResponderStoreError) { try queue.acknowledge(through: sequence) }

    /// Items queued.
    public func depth() throws(ResponderStoreError) -> Int { try queue.depth() }

    /// `time` of the oldest queued item, nil when empty.
    public func oldestTime() throws(ResponderStoreError) -> Double? { try queue.oldestTime() }
}

/// Where ``OutboxSync`` sends a batch: the HTTP status of the upload (nil when unreachable).
public protocol SyncTransport {
    /// Uploads `items` (in sequence order); 2xx means the server stored them (it drops copies
    /// by sequence).
    mutating func upload(_ items: [SyncItem]) -> Int?
}

/// Drains a ``SyncOutbox`` one step at a time with the responders' rules: `SenderPolicy`'s
/// exponential backoff (1 s doubling to 30 s, reset by a network change, nothing while offline),
/// and only a 2xx deletes items, so a batch whose answer was lost is sent again.
public struct OutboxSync: Sendable {
    /// What one step did.
    public enum Step: Hashable, Sendable {
        /// No network, or in backoff until the policy's next attempt.
        case waiting
        /// Nothing queued.
        case idle
        /// `count` items accepted and deleted, through `through`.
        case sent(count: Int, through: Int64)
        /// The upload failed (status, nil when unreachable); backing off.
        case failed(status: Int?)
    }

    /// The backoff state.
    public var policy: SenderPolicy
    /// Most items per upload, >= 1.
    public let batchLimit: Int

    /// A drain on `network` at `now`.
    public init(network: NetworkType, now: Double, batchLimit: Int = 100) {
        policy = SenderPolicy(network: network, now: now)
        self.batchLimit = max(1, batchLimit)
    }

    /// One attempt at `now`.
    /// - Throws: the outbox's ``ResponderStoreError`` (nothing is deleted then).
    public mutating func step(now: Double, outbox: SyncOutbox, transport: inout some SyncTransport) throws(ResponderStoreError) -> Step {
        guard policy.isDue(now: now) else { return .waiting }
        let batch = try outbox.peek(limit: batchLimit)
        guard let last = batch.last else { return .idle }
        let status = transport.upload(batch)
        guard let status, (200..<300).contains(status) else {
            policy.recordFailure(now: now)
            return .failed(status: status)
        }
        try outbox.acknowledge(through: last.sequence)
        policy.recordSuccess(now: now)
        return .sent(count: batch.count, through: last.sequence)
    }
}
