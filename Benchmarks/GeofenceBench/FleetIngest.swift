#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import ResponderStore
import Responders

/// The two SQLite speed figures of `geofence-bench responders`: a fleet's arrivals (every fix
/// the server received, copies included, in arrival order) replayed into a fresh store.
enum FleetIngest {
    /// Replays `arrivals` into a fresh SQLite server store at `path` (an existing file and its
    /// `-wal`/`-shm` are deleted first), `transactionSize` fixes per transaction, one thread.
    /// - Returns: fixes per second of wall time and of the thread's CPU time, and the rows of
    ///   the history beyond one per distinct `(responder, sequence)` (goal 0).
    static func ingest(_ arrivals: [StoredFix], transactionSize: Int, path: String)
        throws(ResponderStoreError) -> (perSecond: Double, perCPUSecond: Double, duplicatesStored: Int)
    {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let store = try SQLiteServerStore(path: path)
        var flags: [Bool] = []
        let size = max(1, transactionSize)
        var stored = 0
        let start = monotonicSeconds(), startCPU = ProcessStats.threadCPUSeconds()
        var first = 0
        while first < arrivals.count {
            let last = min(arrivals.count, first + size)
            stored += try store.insert(Array(arrivals[first..<last]), isNew: &flags).stored
            first = last
        }
        let seconds = monotonicSeconds() - start, cpuSeconds = ProcessStats.threadCPUSeconds() - startCPU
        return (Double(arrivals.count) / seconds, Double(arrivals.count) / cpuSeconds, try store.historyCount() - stored)
    }

    /// Replays `arrivals` through a fresh ``ResponderServer`` over a fresh SQLite store at
    /// `path` (deleted first), `transactionSize` arrivals per ``ResponderServer/ingest(_:)`` call:
    /// the store, liveness, metrics and the dispatcher's index together.
    /// - Returns: fixes per second, one thread.
    static func serverIngest(_ arrivals: [StoredFix], transactionSize: Int, path: String) throws(ResponderStoreError) -> Double {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        var server = ResponderServer(store: try SQLiteServerStore(path: path))
        let size = max(1, transactionSize)
        let start = monotonicSeconds()
        var first = 0
        while first < arrivals.count {
            let last = min(arrivals.count, first + size)
            do {
                try server.ingest(Array(arrivals[first..<last]))
            } catch let error as ResponderStoreError {
                throw error
            } catch {
                preconditionFailure("SQLiteServerStore throws only ResponderStoreError: \(error)")
            }
            first = last
        }
        return Double(arrivals.count) / (monotonicSeconds() - start)
    }
}
