extension TransitionDetector {
    /// Bytes of one device's state with no fence entries: its track value in the detector's
    /// track array and its 4-byte slot in the device table (ids below 2^20; larger ids use a
    /// dictionary, about 2-3x that slot).
    public static var bytesPerIdleDevice: Int { MemoryLayout<DeviceTrack>.stride + 4 }

    /// Bytes per fence entry a device holds (each fence it is inside, is undecided about or
    /// has nearby: see the type's "sparse state"), plus, once it holds any, a heap block
    /// header of ``entryBufferOverhead`` bytes.
    public static var bytesPerFenceEntry: Int { MemoryLayout<FenceEntry>.stride }

    /// Bytes of a device's entry buffer beyond its entries: Swift's array header (32) and the
    /// allocator's block header (16).
    public static var entryBufferOverhead: Int { 48 }

    /// Bytes of all per-device state now held: the track array and device table by capacity,
    /// and every entry buffer (capacity plus ``entryBufferOverhead``). Excludes the fences'
    /// geometry and index, which do not grow with devices.
    public var stateBytes: Int {
        var bytes = tracks.capacity * MemoryLayout<DeviceTrack>.stride + trackOfSmallDevice.capacity * 4
            + trackOfDevice.capacity * (MemoryLayout<Int32>.stride * 2 + 1)
        for t in tracks where t.entries.capacity > 0 {
            bytes += t.entries.capacity * MemoryLayout<FenceEntry>.stride + Self.entryBufferOverhead
        }
        return bytes
    }
}
