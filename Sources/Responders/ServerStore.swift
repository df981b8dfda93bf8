/// A fix as the server stored it: the fix and when it arrived (seconds, server clock).
public struct StoredFix: Hashable, Sendable, Codable {
    /// The fix as the phone reported it.
    public var fix: ReportedFix
    /// Seconds, server clock.
    public var receivedAt: Double

    /// `fix` as stored at `receivedAt` (seconds).
    public init(fix: ReportedFix, receivedAt: Double) {
        self.fix = fix
        self.receivedAt = receivedAt
    }

    /// The time the "latest location" orders this fix by: the phone's `fix.time`, but no later
    /// than `receivedAt`. A phone cannot have taken a fix after the server received it, so a
    /// time ahead of the arrival (a clock set wrong, a bad GPS week, a hostile client) counts
    /// as the arrival: such a fix holds the latest location only until a fix taken after its
    /// arrival comes, instead of holding back every later one.
    /// The fix itself is stored as sent. (The liveness monitor clamps the same way.)
    @inlinable
    public var orderTime: Double { Swift.min(fix.fix.time, receivedAt) }

    /// Whether this fix is newer than `other` for the "latest location": a later
    /// ``orderTime``, or the same and a higher sequence.
    @inlinable
    public func isNewer(than other: StoredFix) -> Bool {
        orderTime > other.orderTime || (orderTime == other.orderTime && fix.sequence > other.fix.sequence)
    }
}

/// Counts of one ``ServerStore/insert(_:isNew:)`` call.
public struct IngestCounts: Hashable, Sendable, Codable {
    /// Fixes that were new (stored in the history).
    public var stored = 0
    /// Fixes whose `(responder, sequence)` was already stored (dropped; the first copy wins).
    public var duplicates = 0
    /// Responders whose latest location moved forward.
    public var latestMoved = 0

    /// Counts as given.
    public init(stored: Int = 0, duplicates: Int = 0, latestMoved: Int = 0) {
        self.stored = stored
        self.duplicates = duplicates
        self.latestMoved = latestMoved
    }
}

/// The server's durable record: every distinct fix once (the history), and apart from it each
/// responder's latest location. The SQLite store in ResponderStore implements it; so does
/// ``MemoryServerStore``; another database can replace either.
///
/// Contract (every implementation):
/// - `(responder, sequence)` is unique in the history, enforced by the store itself (a
///   constraint, not a check before the write); a second copy is a duplicate and is dropped, the
///   first copy wins;
/// - a responder's latest location is replaced only by a fix that ``StoredFix/isNewer(than:)``
///   it, so an old or duplicate fix never moves it backwards, and a fix stamped later than it
///   arrived holds it only until a fix taken after that arrival comes;
/// - a call is applied atomically: all of it, or (on a thrown error) none of it.
public protocol ServerStore {
    /// Stores `arrivals` (fixes with their arrival times; any order, duplicates allowed) in one
    /// transaction: a server groups the batches that arrived in one tick into one call.
    /// `isNew` is replaced by one flag per fix: whether it was new.
    mutating func insert(_ arrivals: [StoredFix], isNew: inout [Bool]) throws -> IngestCounts
    /// The latest location of `responder`, nil if none.
    func latest(of responder: ResponderID) throws -> StoredFix?
    /// Every responder's latest location, by responder.
    func allLatest() throws -> [StoredFix]
    /// Fixes in the history.
    func historyCount() throws -> Int
    /// The whole history in the order it arrived (by `receivedAt`, then responder and
    /// sequence), for replaying it through a ``LivenessMonitor``.
    func historyByArrival() throws -> [StoredFix]
}
