// libFuzzer harness of Geofencing's binary snapshots (compiled into module Geofencing by
// scripts/fuzz-libs). Any bytes: DeviceSnapshot(binary:offset:) decodes or throws
// corruptSnapshot within the input; what decodes encodes and decodes to itself; a detector
// restores the bytes (or throws) and is then fed fixes near its fences, snapshotted, and its
// snapshot restored into a fresh detector, which must give the same bytes.
import Geodesy
import SpatialIndex

#if canImport(Glibc)
import Glibc
#endif

let fences: [Fence] = (0..<6).map { k in
    try! Fence(id: Int32(k), latitude: 60.17 + 0.001 * Double(k), longitude: 24.94, radiusMeters: [50, 100, 200, 1000, 20, 5000][k])
}
let dwell: [Int32: Double] = [1: 60, 4: 0]

/// Built once (the index is the slow part), copied for each use.
let template = try! TransitionDetector(fences: fences, dwellSeconds: dwell)

func detector() -> TransitionDetector { template }

func feed(_ d: inout TransitionDetector, devices: [Int32], from t0: Double) {
    var events: [TransitionEvent] = []
    let start = t0.isFinite ? t0 : 0
    for k in 0..<12 {
        for device in devices {
            let lat = 60.17 + 0.0005 * Double((k * 7 + Int(device & 7)) % 13)
            d.process(device: device, time: start + Double(k) * 30, latitude: lat, longitude: 24.94 + 0.0003 * Double(k % 3), accuracy: Double(k % 4) * 15, into: &events)
        }
    }
    for device in devices {
        for t in [-Double.greatestFiniteMagnitude, 0, 1e300, Double.greatestFiniteMagnitude] {
            d.process(device: device, time: t, latitude: 60.17, longitude: 24.94, accuracy: 5, into: &events)
        }
    }
    for e in events { check(fences.contains { $0.id == e.fence }, "event of an unknown fence \(e.fence)") }
}

var wroteSeeds = false

func writeSeeds() {
    guard let dir = getenv("FUZZ_SEEDS").map({ String(cString: $0) }) else { return }
    var d = detector()
    feed(&d, devices: [1, 2, 300], from: 0)
    let bytes = d.binarySnapshot()
    let fd = open(dir + "/detector", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if !wroteSeeds { wroteSeeds = true; writeSeeds() }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Device snapshots one after another, as far as they decode.
    var offset = 0
    while offset < bytes.count {
        let start = offset
        do {
            let s = try DeviceSnapshot(binary: bytes, offset: &offset)
            check(offset > start && offset <= bytes.count, "offset \(start) -> \(offset)")
            var again: [UInt8] = []
            s.appendBinary(to: &again)
            var o = 0
            let back = try! DeviceSnapshot(binary: again, offset: &o)
            check(o == again.count && back.bitwiseEqual(s), "binary round trip of \(s)")
            var d = detector()
            if (try? d.restore(s)) != nil { feed(&d, devices: [s.device], from: s.fixTime) }
        } catch {
            guard case .corruptSnapshot(let at) = error else { check(false, "not corruptSnapshot: \(error)"); break }
            check(at >= start && at <= bytes.count, "corruptSnapshot at \(at), reading from \(start) of \(bytes.count)")
            break
        }
    }
    // The whole detector's form (GFS1 prepended when missing, so that the devices get through).
    for input in [bytes, Array("GFS1".utf8) + bytes] {
        var d = detector()
        do {
            try d.restore(binary: input)
        } catch {
            if case .corruptSnapshot(let at) = error { check(at >= 0 && at <= input.count, "corruptSnapshot at \(at) of \(input.count)") }
        }
        let devices = d.devices
        feed(&d, devices: devices + [7], from: devices.first.flatMap { d.snapshot(device: $0)?.fixTime } ?? 0)
        let snapshot = d.binarySnapshot()
        var fresh = detector()
        do {
            try fresh.restore(binary: snapshot)
        } catch {
            check(false, "a detector's own snapshot refused: \(error)")
        }
        check(fresh.binarySnapshot() == snapshot, "snapshot restored differs")
    }
    return 0
}

extension DeviceSnapshot {
    /// Equal bit for bit (NaN times compare equal to themselves).
    func bitwiseEqual(_ o: DeviceSnapshot) -> Bool {
        func same(_ a: Double?, _ b: Double?) -> Bool { a?.bitPattern == b?.bitPattern }
        func same(_ a: [Double]?, _ b: [Double]?) -> Bool { a?.map(\.bitPattern) == b?.map(\.bitPattern) }
        return device == o.device && same(lastTime, o.lastTime) && same(fix, o.fix) && same(anchor, o.anchor)
            && same(fixTime, o.fixTime) && same(fixAccuracy, o.fixAccuracy) && rejections == o.rejections
            && fences.count == o.fences.count
            && zip(fences, o.fences).allSatisfy {
                $0.fence == $1.fence && $0.state == $1.state && $0.pending == $1.pending && $0.dwellDone == $1.dwellDone
                    && $0.pendingSince.bitPattern == $1.pendingSince.bitPattern && $0.enteredAt.bitPattern == $1.enteredAt.bitPattern
            }
    }
}
