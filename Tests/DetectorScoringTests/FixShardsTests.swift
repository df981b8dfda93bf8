import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import DetectorScoring

/// Detection split over shards (devices partitioned, one detector per thread) gives exactly the
/// events, in the same order, and the same per-device state as one detector over the stream.
@Test(arguments: [(UInt64(31), 1), (32, 2), (33, 3), (34, 7)])
func shardedDetectionEqualsOneDetector(seed: UInt64, shards: Int) throws {
    let spec = WorkloadSpec(pois: 200, devices: 23, fixes: 12_000, seed: seed)
    let w = WorkloadGenerator.make(spec)
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    var one = try TransitionDetector(fences: fences)
    let want = TransitionScoring.detect(w.fixes, with: &one)
    let template = try TransitionDetector(fences: fences)
    var detectors = [TransitionDetector](repeating: template, count: shards)  // copies: independent values
    let split = FixShards(w.fixes, count: shards)
    #expect(split.shards.map(\.rows.count).reduce(0, +) == w.fixes.count, "seed \(seed): every fix in one shard")
    let got = split.detect(with: &detectors)
    #expect(want.count > 100, "seed \(seed): \(want.count) events")
    #expect(got == want, "seed \(seed), \(shards) shards")
    #expect(detectors.map(\.deviceCount).reduce(0, +) == one.deviceCount, "seed \(seed)")
    #expect(detectors.reduce(TransitionCounters()) { $0 + $1.counters } == one.counters, "seed \(seed): counters add up")
    for d in one.devices {
        let owner = detectors[Int(d.magnitude % UInt32(shards))]
        #expect(owner.snapshot(device: d) == one.snapshot(device: d), "seed \(seed), device \(d)")
    }
}

/// An empty stream splits into empty shards and detects nothing.
@Test func shardingAnEmptyStream() throws {
    let fence = try Fence(id: 0, latitude: 0, longitude: 0, radiusMeters: 100)
    var detectors = [try TransitionDetector(fences: [fence]), try TransitionDetector(fences: [fence])]
    let split = FixShards(FixStream(), count: 2)
    #expect(split.shards.count == 2 && split.shards.allSatisfy { $0.rows.isEmpty })
    #expect(split.detect(with: &detectors).isEmpty)
}
