/// A compact binary form of ``DeviceSnapshot`` and of a whole detector's device state, for
/// moving shards between processes where JSON is too large. Little-endian throughout; the same
/// values as the `Codable` form, bit for bit (Doubles as their 64-bit patterns).
///
/// Layout of one device:
/// - `device` (4 bytes), a flags byte: 1 last time present, 2 fix and anchor present, 4 fix
///   time or accuracy other than +0 without a fix;
/// - the last time (8) if flagged; the fix and the anchor (2 x 24) if flagged; the fix time and
///   accuracy (2 x 8) when there is a fix or flag 4 says so;
/// - `rejections` and the fence count as LEB128 varints;
/// - per fence: id (4), a byte `state | dwellDone << 2 | (enteredAt == pendingSince) << 3`,
///   `pending` (1), `pendingSince` (8), and `enteredAt` (8) unless bit-identical to it.
///
/// A detector's snapshot is the magic `GFS1`, the device count (varint), then its devices in
/// first-seen order. A device with a fix takes 79 bytes plus 14 per fence entry (22 when the
/// two times differ): 364 bytes per device (20.4 entries each) on the README's 10k-POI workload
/// at the defaults, against 975 bytes of live state (`geofence-bench transitions --json`,
/// "state").
extension DeviceSnapshot {
    /// Appends this snapshot's binary form to `bytes`.
    public func appendBinary(to bytes: inout [UInt8]) {
        var writer = BinaryWriter(bytes: bytes)
        bytes = []
        writer.int32(device)
        // By bit pattern: -0 is not +0 here (the form keeps every Double bit for bit).
        let timesWithoutFix = fix == nil && (fixTime.bitPattern != 0 || fixAccuracy.bitPattern != 0)
        writer.byte((lastTime != nil ? 1 : 0) | (fix != nil && anchor != nil ? 2 : 0) | (timesWithoutFix ? 4 : 0))
        if let lastTime { writer.double(lastTime) }
        if let fix, let anchor {
            for v in fix + anchor { writer.double(v) }
        }
        if fix != nil || timesWithoutFix {
            writer.double(fixTime)
            writer.double(fixAccuracy)
        }
        writer.varint(UInt64(rejections))
        writer.varint(UInt64(fences.count))
        for f in fences {
            writer.int32(f.fence)
            let sameTimes = f.enteredAt.bitPattern == f.pendingSince.bitPattern
            writer.byte(f.state.rawValue | (f.dwellDone ? 4 : 0) | (sameTimes ? 8 : 0))
            writer.byte(f.pending)
            writer.double(f.pendingSince)
            if !sameTimes { writer.double(f.enteredAt) }
        }
        bytes = writer.bytes
    }

    /// Reads one snapshot at `offset` of `bytes`, advancing `offset` past it.
    /// - Throws: ``GeofenceError/corruptSnapshot(offset:)`` with the byte offset where the input ends early or holds a
    ///   value out of range (a count beyond the input, `rejections` past Int, a state byte
    ///   that is no ``Presence``).
    public init(binary bytes: [UInt8], offset: inout Int) throws(GeofenceError) {
        var reader = BinaryReader(bytes: bytes, offset: offset)
        let device = try reader.int32()
        let flags = try reader.byte()
        guard flags & ~7 == 0 else { throw reader.error() }
        let lastTime: Double? = flags & 1 != 0 ? try reader.double() : nil
        var fix: [Double]?, anchor: [Double]?
        if flags & 2 != 0 {
            fix = [try reader.double(), try reader.double(), try reader.double()]
            anchor = [try reader.double(), try reader.double(), try reader.double()]
        }
        var fixTime = 0.0, fixAccuracy = 0.0
        if flags & 6 != 0 {
            fixTime = try reader.double()
            fixAccuracy = try reader.double()
        }
        let rejections = try reader.count(limit: Int.max)
        // Each fence takes at least 14 bytes: a count beyond the input is malformed.
        let fenceCount = try reader.count(limit: (bytes.count - reader.offset) / 14)
        var fences: [FenceState] = []
        fences.reserveCapacity(fenceCount)
        for _ in 0..<fenceCount {
            let fence = try reader.int32()
            let packed = try reader.byte()
            guard packed & ~15 == 0, let state = Presence(rawValue: packed & 3) else { throw reader.error() }
            let pending = try reader.byte()
            let pendingSince = try reader.double()
            let enteredAt = packed & 8 != 0 ? pendingSince : try reader.double()
            fences.append(
                FenceState(
                    fence: fence, state: state, pending: pending, dwellDone: packed & 4 != 0,
                    pendingSince: pendingSince, enteredAt: enteredAt))
        }
        self.init(
            device: device, lastTime: lastTime, fix: fix, fixTime: fixTime, fixAccuracy: fixAccuracy,
            rejections: rejections, anchor: anchor, fences: fences)
        offset = reader.offset
    }
}

extension TransitionDetector {
    /// Every device's state in the binary form of ``DeviceSnapshot`` (see there), in
    /// first-seen order. Restore with ``restore(binary:)`` into a detector built on the same
    /// fences and configuration.
    public func binarySnapshot() -> [UInt8] {
        var bytes: [UInt8] = Array("GFS1".utf8)
        var writer = BinaryWriter(bytes: bytes)
        writer.varint(UInt64(deviceCount))
        bytes = writer.bytes
        for device in devices { snapshot(device: device)!.appendBinary(to: &bytes) }
        return bytes
    }

    /// Restores every device of a ``binarySnapshot()`` (replacing devices already held).
    /// - Throws: ``GeofenceError/corruptSnapshot(offset:)`` (the byte offset) for input that is not a snapshot, ends early or has bytes left over; the
    ///   errors of ``restore(_:)`` for state this detector cannot hold. Devices before the bad
    ///   one are restored.
    public mutating func restore(binary bytes: [UInt8]) throws(GeofenceError) {
        guard bytes.count >= 4, Array(bytes[0..<4]) == Array("GFS1".utf8) else {
            throw .corruptSnapshot(offset: 0)
        }
        var reader = BinaryReader(bytes: bytes, offset: 4)
        let count = try reader.count(limit: (bytes.count - reader.offset) / 7)  // >= 7 bytes per device
        var offset = reader.offset
        for _ in 0..<count {
            try restore(try DeviceSnapshot(binary: bytes, offset: &offset))
        }
        guard offset == bytes.count else { throw .corruptSnapshot(offset: offset) }
    }
}

/// Little-endian appends for the binary snapshot.
struct BinaryWriter {
    var bytes: [UInt8]

    mutating func byte(_ v: UInt8) { bytes.append(v) }

    mutating func int32(_ v: Int32) {
        let u = UInt32(bitPattern: v)
        for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: u >> UInt32(s))) }
    }

    mutating func double(_ v: Double) {
        let u = v.bitPattern
        for s in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: u >> UInt64(s))) }
    }

    /// LEB128: 7 bits per byte, high bit set on all but the last.
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}

/// Bounds-checked little-endian reads for the binary snapshot; every failure names the offset.
struct BinaryReader {
    let bytes: [UInt8]
    var offset: Int

    func error() -> GeofenceError { .corruptSnapshot(offset: offset) }

    mutating func byte() throws(GeofenceError) -> UInt8 {
        guard offset < bytes.count else { throw error() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int32() throws(GeofenceError) -> Int32 {
        guard bytes.count - offset >= 4 else { throw error() }
        var u: UInt32 = 0
        for k in 0..<4 { u |= UInt32(bytes[offset + k]) << UInt32(8 * k) }
        offset += 4
        return Int32(bitPattern: u)
    }

    mutating func double() throws(GeofenceError) -> Double {
        guard bytes.count - offset >= 8 else { throw error() }
        var u: UInt64 = 0
        for k in 0..<8 { u |= UInt64(bytes[offset + k]) << UInt64(8 * k) }
        offset += 8
        return Double(bitPattern: u)
    }

    /// A varint that must be at most `limit`.
    mutating func count(limit: Int) throws(GeofenceError) -> Int {
        let start = offset
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { offset = start; throw error() }
            v |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { break }
            shift += 7
        }
        guard v <= UInt64(Swift.max(0, limit)) else { offset = start; throw error() }
        return Int(v)
    }
}
