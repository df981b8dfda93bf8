extension TransitionDetector {
    /// Bytes of one device's state with no fence entries: its track record (56), its slot in
    /// the device table (4; ids below 2^20 or below four times the devices seen, else a
    /// dictionary entry, about 3x that) and its id in the first-seen list (4).
    public static var bytesPerIdleDevice: Int { MemoryLayout<DeviceTrack>.stride + 8 }

    /// Bytes per fence entry a device holds (each fence it is inside, is undecided about or
    /// has nearby: see the type's "sparse state"), in the shared entry pool; a device's block
    /// is the next power of two: the entry (16) and its due reading (2).
    public static var bytesPerFenceEntry: Int { MemoryLayout<FenceEntry>.stride + MemoryLayout<UInt16>.stride }

    /// Bytes of a device's entry storage beyond its entries: none (blocks live in one pool;
    /// rounding to a power of two is counted in ``stateBytes``).
    public static var entryBufferOverhead: Int { 0 }

    /// Bytes of all per-device state now held: the track array, first-seen list, device table
    /// and entry pool by capacity (free blocks included). Excludes the fences' geometry and
    /// index, which do not grow with devices.
    public var stateBytes: Int {
        tracks.capacity * MemoryLayout<DeviceTrack>.stride + deviceOfTrack.capacity * 4
            + trackOfSmallDevice.capacity * 4 + trackOfDevice.capacity * (MemoryLayout<Int32>.stride * 2 + 1)
            + pool.storage.capacity * MemoryLayout<FenceEntry>.stride + pool.dues.capacity * MemoryLayout<UInt16>.stride
    }

    /// Reserves room for `devices` devices holding `entries` fence entries in all, and sizes the
    /// device table for the ids `0..<devices`, so a fleet of known size grows no array past it
    /// (array growth doubles capacity).
    public mutating func reserveCapacity(devices: Int, entries: Int) {
        tracks.reserveCapacity(devices)
        deviceOfTrack.reserveCapacity(devices)
        pool.storage.reserveCapacity(entries)
        pool.dues.reserveCapacity(entries)
        if devices > trackOfSmallDevice.count {
            trackOfSmallDevice.reserveCapacity(devices)
            trackOfSmallDevice.append(contentsOf: repeatElement(-1, count: devices - trackOfSmallDevice.count))
        }
    }
}
