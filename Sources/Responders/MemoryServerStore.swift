/// A ``ServerStore`` in memory: a hash set of `(responder, sequence)` as the uniqueness
/// constraint, an array as the history and a dictionary of latest fixes. For tests, simulations
/// and as the reference the SQLite store is compared with. Not durable.
public struct MemoryServerStore: ServerStore, Sendable {
    private struct Key: Hashable { var responder: ResponderID; var sequence: Int64 }
    private var keys: Set<Key> = []
    private var history: [StoredFix] = []
    private var latestByResponder: [ResponderID: StoredFix] = [:]

    /// An empty store.
    public init() {}

    /// See ``ServerStore/insert(_:isNew:)``; never throws.
    public mutating func insert(_ arrivals: [StoredFix], isNew: inout [Bool]) -> IngestCounts {
        isNew.removeAll(keepingCapacity: true)
        var counts = IngestCounts()
        var moved: Set<ResponderID> = []
        for stored in arrivals {
            let fix = stored.fix
            guard keys.insert(Key(responder: fix.responder, sequence: fix.sequence)).inserted else {
                counts.duplicates += 1
                isNew.append(false)
                continue
            }
            isNew.append(true)
            counts.stored += 1
            history.append(stored)
            if let old = latestByResponder[fix.responder], !stored.isNewer(than: old) { continue }
            latestByResponder[fix.responder] = stored
            moved.insert(fix.responder)
        }
        counts.latestMoved = moved.count
        return counts
    }

    /// The latest location of `responder`, nil if none.
    public func latest(of responder: ResponderID) -> StoredFix? { latestByResponder[responder] }

    /// Every responder's latest location, by responder id.
    public func allLatest() -> [StoredFix] {
        latestByResponder.values.sorted { $0.fix.responder < $1.fix.responder }
    }

    /// Fixes in the history.
    public func historyCount() -> Int { history.count }

    /// The history by arrival time, then responder and sequence.
    public func historyByArrival() -> [StoredFix] {
        history.sorted {
            ($0.receivedAt, $0.fix.responder.rawValue, $0.fix.sequence) < ($1.receivedAt, $1.fix.responder.rawValue, $1.fix.sequence)
        }
    }
}
