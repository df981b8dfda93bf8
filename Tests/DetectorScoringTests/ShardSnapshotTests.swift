import Foundation
import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import DetectorScoring

/// One shard of a sharded run, stopped mid-stream, its state moved through JSON (`Codable`) or
/// the binary snapshot into fresh detectors, and continued: the events equal those of an
/// uninterrupted single detector.
@Test(arguments: [(UInt64(41), 0.37), (42, 0.5), (43, 0.81)])
func shardSnapshotMidStreamContinuesIdentically(seed: UInt64, cutFraction: Double) throws {
    let spec = WorkloadSpec(pois: 150, devices: 17, fixes: 9_000, seed: seed)
    let w = WorkloadGenerator.make(spec)
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    var one = try TransitionDetector(fences: fences)
    let want = TransitionScoring.detect(w.fixes, with: &one)
    #expect(want.count > 50, "seed \(seed)")

    let cut = Int(Double(w.fixes.count) * cutFraction)
    let (head, tail) = (slice(w.fixes, 0..<cut), slice(w.fixes, cut..<w.fixes.count))
    let template = try TransitionDetector(fences: fences)
    var first = [template, template, template]
    var events = FixShards(head, count: 3).detect(with: &first)
    for viaJSON in [true, false] {
        var second = [template, template, template]
        for s in 0..<3 {
            if viaJSON {
                let data = try JSONEncoder().encode(first[s].devices.map { first[s].snapshot(device: $0)! })
                for snapshot in try JSONDecoder().decode([DeviceSnapshot].self, from: data) { try second[s].restore(snapshot) }
            } else {
                try second[s].restore(binary: first[s].binarySnapshot())
            }
            #expect(
                second[s].devices.map { sorted(second[s].snapshot(device: $0)) } == first[s].devices.map { sorted(first[s].snapshot(device: $0)) },
                "seed \(seed), shard \(s), json \(viaJSON)")
        }
        let rest = FixShards(tail, count: 3).detect(with: &second)
        // Both halves are in stream order, so their concatenation is too.
        #expect(events + rest == want, "seed \(seed), cut \(cut), json \(viaJSON)")
    }
    events = []
}

/// Binary snapshots: the empty detector, a device with a clock but no accepted fix, exact
/// round trips of odd values (NaN-free but signed zero, huge times), and malformed input —
/// every truncation, a wrong magic, trailing bytes, an impossible count — as typed errors.
@Test func binarySnapshotEdgesAndMalformedInput() throws {
    let fence = try Fence(id: 7, latitude: 89.999, longitude: 179.9, radiusMeters: 300)
    var d = try TransitionDetector(fences: [fence])
    var empty = try TransitionDetector(fences: [fence])
    try empty.restore(binary: d.binarySnapshot())
    #expect(empty.deviceCount == 0 && d.binarySnapshot() == Array("GFS1".utf8) + [0])

    var events: [TransitionEvent] = []
    d.process(device: 3, time: 1e15, latitude: 0, longitude: 0, accuracy: 5_000, into: &events)  // gated: clock only
    d.process(device: -2, time: -0.0, latitude: 89.999, longitude: 179.9, accuracy: 1, into: &events)
    d.process(device: -2, time: 20, latitude: 89.9995, longitude: -179.99, accuracy: 2, into: &events)
    let bytes = d.binarySnapshot()
    var copy = try TransitionDetector(fences: [fence])
    try copy.restore(binary: bytes)
    for device: Int32 in [3, -2] {
        #expect(sorted(copy.snapshot(device: device)) == sorted(d.snapshot(device: device)), "device \(device)")
    }
    #expect(copy.snapshot(device: 3)?.fix == nil && copy.snapshot(device: 3)?.lastTime == 1e15)

    for end in 0..<bytes.count {
        var target = try TransitionDetector(fences: [fence])
        #expect(throws: GeofenceError.self, "truncated at \(end)") { try target.restore(binary: Array(bytes[0..<end])) }
    }
    var target = try TransitionDetector(fences: [fence])
    #expect(throws: GeofenceError.corruptSnapshot(offset: 0)) {
        try target.restore(binary: Array("GFS2".utf8) + bytes.dropFirst(4))
    }
    #expect(throws: GeofenceError.corruptSnapshot(offset: bytes.count)) {
        try target.restore(binary: bytes + [0])
    }
    #expect(throws: GeofenceError.corruptSnapshot(offset: 4)) {
        try target.restore(binary: Array("GFS1".utf8) + [0xff, 0xff, 0x03])  // 65,535 devices in 3 bytes
    }
    // A snapshot naming a fence this detector lacks: the restore's own error.
    var other = try TransitionDetector(fences: [try Fence(id: 8, latitude: 89.999, longitude: 179.9, radiusMeters: 300)])
    if d.snapshot(device: -2)?.fences.isEmpty == false {
        #expect(throws: GeofenceError.unknownFenceID(7)) { try other.restore(binary: bytes) }
    }
}

/// A snapshot with its fences in id order (a restore ranks them afresh: the order is not state).
private func sorted(_ s: DeviceSnapshot?) -> DeviceSnapshot? {
    guard var s else { return nil }
    s.fences.sort { $0.fence < $1.fence }
    return s
}

/// Rows `range` of a fix stream.
private func slice(_ fixes: FixStream, _ range: Range<Int>) -> FixStream {
    var out = FixStream()
    out.device = Array(fixes.device[range])
    out.time = Array(fixes.time[range])
    out.latitude = Array(fixes.latitude[range])
    out.longitude = Array(fixes.longitude[range])
    out.accuracy = Array(fixes.accuracy[range])
    return out
}
