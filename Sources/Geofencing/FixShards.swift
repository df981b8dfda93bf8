#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A stream of fixes partitioned by device into shards, for one `TransitionDetector` per shard
/// on its own thread: device `d` goes to shard `|d| % count`, so every fix of a device is in one
/// shard, in stream order. Each shard keeps its fixes' rows in the stream, which puts the
/// shards' events back in the single-detector order (``detect(with:)``).
///
/// Memory: a copy of the five fix columns plus a 4-byte row per fix.
public struct FixShards: Sendable {
    /// One shard's fixes (five columns, as ``TransitionDetector/process(device:time:latitude:longitude:accuracy:into:)``
    /// takes them) and their rows in the whole stream.
    public struct Shard: Sendable {
        /// Row in the whole stream of each fix of this shard, increasing.
        public var rows: [Int32] = []
        /// Device id of each fix.
        public var device: [Int32] = []
        /// Seconds since an arbitrary epoch.
        public var time: [Double] = []
        /// Latitude and longitude, degrees.
        public var latitude: [Double] = [], longitude: [Double] = []
        /// Horizontal accuracy, meters.
        public var accuracy: [Double] = []
        /// Number of fixes in the shard.
        public var count: Int { rows.count }
    }

    /// The shards; shard `s` holds the devices `d` with `|d| % shards.count == s`.
    public let shards: [Shard]

    /// Partitions the fixes given as five equally long columns, in stream order, into `count`
    /// shards.
    /// - Precondition: `count >= 1`, the columns have one length, at most `Int32.max` (rows are
    ///   stored as 32-bit).
    public init(
        device: [Int32], time: [Double], latitude: [Double], longitude: [Double], accuracy: [Double],
        count: Int
    ) {
        precondition(count >= 1, "at least one shard")
        let n = device.count
        precondition(
            time.count == n && latitude.count == n && longitude.count == n && accuracy.count == n,
            "columns of one length")
        precondition(n <= Int(Int32.max), "rows are 32-bit")
        var shards = [Shard](repeating: Shard(), count: count)
        for k in 0..<n {
            let s = Int(device[k].magnitude % UInt32(count))
            shards[s].rows.append(Int32(k))
            shards[s].device.append(device[k])
            shards[s].time.append(time[k])
            shards[s].latitude.append(latitude[k])
            shards[s].longitude.append(longitude[k])
            shards[s].accuracy.append(accuracy[k])
        }
        self.shards = shards
    }

    /// Runs `detectors[s]` over shard `s`, all shards at once (one thread each, through
    /// `DispatchQueue.concurrentPerform`), and returns the events in the order one detector
    /// would give them for the whole stream: by fix row (a fix's events come from one shard,
    /// already in the detector's order). Detectors are independent values built on the same
    /// fences and configuration; each sees only its devices.
    /// - Precondition: `detectors.count == shards.count`.
    /// - Complexity: the detectors' work over threads, plus a merge of O(events * shards).
    public func detect(with detectors: inout [TransitionDetector]) -> [TransitionEvent] {
        var cpuSeconds: [Double] = []
        return detect(with: &detectors, shardCPUSeconds: &cpuSeconds)
    }

    /// ``detect(with:)``, also giving each shard's thread CPU time in seconds (its detection
    /// alone, unaffected by other processes): the largest of them plus the merge is the wall
    /// time on an idle machine with a core per shard.
    public func detect(with detectors: inout [TransitionDetector], shardCPUSeconds: inout [Double]) -> [TransitionEvent] {
        let count = shards.count
        shardCPUSeconds = [Double](repeating: 0, count: count)
        precondition(detectors.count == count, "one detector per shard")
        if count == 1 {
            return Self.run(shards[0], with: &detectors[0], rows: nil)
        }
        // Per shard: its detector, its events, and for each event the row of the fix that
        // produced it; slot `s` is touched by shard `s`'s thread only.
        let slots = ShardSlots(count)
        defer { slots.deallocate() }
        for s in 0..<count { (slots.detectors + s).initialize(to: detectors[s]) }
        detectors = []  // the slots hold the only references: no copy-on-write below
        DispatchQueue.concurrentPerform(iterations: count) { s in
            let start = threadCPUSeconds()
            var rows: [Int32] = []
            let events = Self.run(shards[s], with: &slots.detectors[s], rows: &rows)
            (slots.events + s).initialize(to: events)
            (slots.rows + s).initialize(to: rows)
            slots.cpuSeconds[s] = threadCPUSeconds() - start
        }
        shardCPUSeconds = (0..<count).map { slots.cpuSeconds[$0] }
        detectors = (0..<count).map { slots.detectors[$0] }
        let events = (0..<count).map { slots.events[$0] }
        let rows = (0..<count).map { slots.rows[$0] }
        return Self.mergeByRow(events, rows)
    }

    /// `detector` over every fix of `shard` in order, with room for one event per fix up front
    /// (so the timing is the detector's, not the growth of its output); with `rows`, also the
    /// stream row of the fix behind each event.
    private static func run(_ shard: Shard, with detector: inout TransitionDetector, rows: UnsafeMutablePointer<[Int32]>?)
        -> [TransitionEvent]
    {
        var events: [TransitionEvent] = []
        events.reserveCapacity(shard.count)
        rows?.pointee.reserveCapacity(shard.count)
        for k in 0..<shard.count {
            let before = events.count
            detector.process(
                device: shard.device[k], time: shard.time[k], latitude: shard.latitude[k],
                longitude: shard.longitude[k], accuracy: shard.accuracy[k], into: &events)
            if let rows { for _ in before..<events.count { rows.pointee.append(shard.rows[k]) } }
        }
        return events
    }

    /// The shards' events in one list ordered by fix row: repeatedly the shard whose next event
    /// has the smallest row gives its run of events with rows below every other shard's next
    /// row (rows differ between shards: a fix belongs to one), copied as a block.
    /// O(events + runs * shards).
    static func mergeByRow(_ events: [[TransitionEvent]], _ rows: [[Int32]]) -> [TransitionEvent] {
        let total = events.reduce(0) { $0 + $1.count }
        var next = [Int](repeating: 0, count: events.count)
        return [TransitionEvent](unsafeUninitializedCapacity: total) { out, initialized in
            var n = 0
            while true {
                var best = -1
                var bestRow = Int32.max, secondRow = Int32.max
                for s in rows.indices where next[s] < rows[s].count {
                    let r = rows[s][next[s]]
                    if r < bestRow {
                        secondRow = bestRow
                        bestRow = r
                        best = s
                    } else if r < secondRow {
                        secondRow = r
                    }
                }
                if best < 0 { break }
                let from = next[best]
                var to = from
                rows[best].withUnsafeBufferPointer { r in
                    while to < r.count && r[to] < secondRow { to += 1 }
                }
                events[best].withUnsafeBufferPointer { e in
                    (out.baseAddress! + n).initialize(from: e.baseAddress! + from, count: to - from)
                }
                n += to - from
                next[best] = to
            }
            initialized = n
        }
    }
}

/// Per-shard storage for ``FixShards/detect(with:)``: slot `s` is written by shard
/// `s`'s thread only (raw pointers, so no shared array buffer is checked for uniqueness).
private struct ShardSlots: @unchecked Sendable {
    let count: Int
    let detectors: UnsafeMutablePointer<TransitionDetector>
    let events: UnsafeMutablePointer<[TransitionEvent]>
    let rows: UnsafeMutablePointer<[Int32]>
    let cpuSeconds: UnsafeMutablePointer<Double>

    init(_ count: Int) {
        self.count = count
        cpuSeconds = .allocate(capacity: count)
        cpuSeconds.initialize(repeating: 0, count: count)
        detectors = .allocate(capacity: count)
        events = .allocate(capacity: count)
        rows = .allocate(capacity: count)
    }

    /// Deinitializes and frees every slot (all initialized by then).
    func deallocate() {
        detectors.deinitialize(count: count)
        events.deinitialize(count: count)
        rows.deinitialize(count: count)
        detectors.deallocate()
        events.deallocate()
        rows.deallocate()
        cpuSeconds.deallocate()
    }
}

/// CPU time of the calling thread, seconds.
private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
