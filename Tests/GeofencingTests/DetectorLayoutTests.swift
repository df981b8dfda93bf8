import Testing
@testable import Geofencing
import Geodesy
import SpatialIndex

/// The layout claims of the detector's per-fix records, as their doc comments state them.
@Suite struct DetectorLayoutTests {
    /// "Exactly 16 bytes" (plus the 2-byte due reading kept beside it).
    @Test func fenceEntryIs16Bytes() {
        #expect(MemoryLayout<FenceEntry>.size == 16)
        #expect(MemoryLayout<FenceEntry>.stride == 16)
        #expect(MemoryLayout<FenceEntry>.alignment == 8)
    }

    /// "Exactly 56 bytes", and the published per-device figures that follow from it.
    @Test func deviceTrackIs56Bytes() {
        #expect(MemoryLayout<DeviceTrack>.size == 56)
        #expect(MemoryLayout<DeviceTrack>.stride == 56)
        #expect(TransitionDetector.bytesPerIdleDevice == 64)
        #expect(TransitionDetector.bytesPerFenceEntry == 18)
    }

    /// The packed track fields do not bleed into each other at their limits.
    @Test func packedTrackFieldsRoundTrip() {
        var t = DeviceTrack()
        #expect(t.blockClass == EntryPool.noBlock && t.entryCount == 0 && t.rejections == 0 && !t.hasFix)
        t.entryCount = (1 << 20) - 1
        t.blockClass = EntryPool.maxClass
        t.rejections = 127
        #expect(t.entryCount == (1 << 20) - 1 && t.blockClass == EntryPool.maxClass && t.rejections == 127)
        t.entryCount = 0
        #expect(t.blockClass == EntryPool.maxClass && t.rejections == 127)
        t.rejections = 0
        t.blockClass = 3
        #expect(t.entryCount == 0 && t.blockClass == 3 && t.rejections == 0)
    }

    /// Size classes: the smallest power of two holding n.
    @Test func sizeClasses() {
        #expect(EntryPool.sizeClass(for: 1) == 0)
        #expect(EntryPool.sizeClass(for: 2) == 1)
        #expect(EntryPool.sizeClass(for: 3) == 2)
        #expect(EntryPool.sizeClass(for: 64) == 6)
        #expect(EntryPool.sizeClass(for: 65) == 7)
        #expect(EntryPool.sizeClass(for: 1 << 20) == 20)
    }

    /// "A 32-byte record per fence in storage aligned to 64 bytes": two records to a cache line,
    /// none straddling two.
    @Test func fenceRecordsAre32BytesAndLineAligned() throws {
        #expect(MemoryLayout<FenceGeometryTable.Record>.size == 32)
        #expect(MemoryLayout<FenceGeometryTable.Record>.stride == 32)
        var geometry: [FenceGeometry] = []
        for k in 0..<5 {
            let center = UnitVector(fastLatitude: Double(k), longitude: 0)
            let radius: Double = k % 2 == 0 ? 1e-4 : 2e-4
            let dwell: Double = k == 4 ? 300 : .infinity
            geometry.append(FenceGeometry(center: center, radiusChord: radius, band: 1e-6, dwellSeconds: dwell))
        }
        let table = FenceGeometryTable(geometry)
        let address = UInt(bitPattern: table.records)
        #expect(address % 64 == 0)
        // Three shapes: the two radii without dwell, and the one with it.
        #expect(table.shapeCount == 3)
        for k in geometry.indices {
            let read = table[k], g = geometry[k]
            #expect(read.center == g.center)
            #expect(read.radiusChord == g.radiusChord)
            #expect(read.band == g.band)
            #expect(read.dwellSeconds == g.dwellSeconds)
        }
        #expect(table.view.hasDwell(4) && !table.view.hasDwell(3))
        #expect(UInt(bitPattern: table.view.address(1)) == address + 32)
    }

    /// The state fits a byte, so the entry's one-byte fields pack after the slot.
    @Test func stateIsOneByte() {
        #expect(MemoryLayout<FenceEntry.State>.size == 1)
        #expect(MemoryLayout<DeviceSnapshot.Presence>.size == 1)
    }
}

/// The pool and the per-device memory claims.
@Suite struct DetectorMemoryTests {
    /// Compaction keeps every block's entries and rewrites the starts.
    @Test func compactionKeepsEveryBlock() {
        var pool = EntryPool()
        var tracks = [DeviceTrack](repeating: DeviceTrack(), count: 6)
        for k in tracks.indices {
            let size = k + 1
            let c = EntryPool.sizeClass(for: size)
            tracks[k].entryStart = pool.allocate(c)
            tracks[k].blockClass = c
            tracks[k].entryCount = size
            for j in 0..<size {
                pool.storage[Int(tracks[k].entryStart) + j] = FenceEntry(slot: Int32(100 * k + j), hasDwell: false, state: .inside)
            }
        }
        // Free the blocks of tracks 1 and 4.
        for k in [1, 4] {
            pool.release(tracks[k].entryStart, tracks[k].blockClass)
            tracks[k].blockClass = EntryPool.noBlock
            tracks[k].entryCount = 0
        }
        #expect(pool.freeEntries == 2 + 8)
        pool.compact(&tracks)
        #expect(pool.freeEntries == 0)
        #expect(pool.storage.count == 1 + 4 + 4 + 8)
        #expect(pool.storage.capacity >= (1 + 4 + 4 + 8) * 3 / 2, "room to allocate without copying the pool")
        for k in [0, 2, 3, 5] {
            for j in 0..<(k + 1) {
                #expect(pool.storage[Int(tracks[k].entryStart) + j].slot == Int32(100 * k + j))
            }
        }
    }

    /// Devices holding two fences each cost the idle bytes plus two 18-byte entries (16 for the
    /// entry, 2 for its due reading): 100 bytes, so 10 million take 1.0 GB.
    @Test func twoFencesPerDeviceCostAbout100Bytes() throws {
        // Two overlapping fences around each of 50 sites; every device sits inside both of its site's.
        var fences: [Fence] = []
        for site in 0..<50 {
            let c = try LatLng(latitude: 10 + Double(site), longitude: 20)
            fences.append(try Fence(id: Int32(2 * site), center: c, radiusMeters: 500))
            fences.append(try Fence(id: Int32(2 * site + 1), center: c, radiusMeters: 800))
        }
        var config = TransitionDetectorConfiguration.default
        config.neighborhoodSlackMeters = 100
        var d = try TransitionDetector(fences: fences, configuration: config)
        let devices = 20_000
        d.reserveCapacity(devices: devices, entries: 2 * devices)
        var events: [TransitionEvent] = []
        for device in 0..<devices {
            d.process(device: Int32(device), time: 0, latitude: 10 + Double(device % 50), longitude: 20, accuracy: 5, into: &events)
        }
        #expect(d.deviceCount == devices)
        #expect(d.stateEntryCount == 2 * devices)
        let perDevice = Double(d.stateBytes) / Double(devices)
        #expect(perDevice <= 100.1, "\(perDevice) bytes per device")
        #expect(perDevice >= 100, "\(perDevice) bytes per device")
        #expect(events.isEmpty)  // first fixes set states without events
    }
}
