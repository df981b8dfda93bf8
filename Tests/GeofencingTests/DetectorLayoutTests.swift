import Testing
@testable import Geofencing

/// The layout claims of the detector's per-fix records, as their doc comments state them.
@Suite struct DetectorLayoutTests {
    /// "Exactly 64 bytes (one cache line of the scan)".
    @Test func fenceEntryIsOneCacheLine() {
        #expect(MemoryLayout<FenceEntry>.size == 64)
        #expect(MemoryLayout<FenceEntry>.stride == 64)
        #expect(MemoryLayout<FenceEntry>.alignment == 8)
    }

    /// "One 48-byte record each".
    @Test func fenceGeometryIs48Bytes() {
        #expect(MemoryLayout<FenceGeometry>.size == 48)
        #expect(MemoryLayout<FenceGeometry>.stride == 48)
    }

    /// The state fits a byte, so the entry's one-byte fields pack after the slot.
    @Test func stateIsOneByte() {
        #expect(MemoryLayout<FenceEntry.State>.size == 1)
        #expect(MemoryLayout<DeviceSnapshot.Presence>.size == 1)
    }
}
