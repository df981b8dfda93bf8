import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// The detector skips work it can prove changes nothing: fences beyond the neighbourhood,
/// entries whose due reading the device's odometer has not reached, and the decision for an
/// entry with clearance left. These tests compare it with a reference that skips nothing
/// (every fence of every device decided on every accepted fix) on
/// seeded random workloads near the poles, across the antimeridian and in a dense cluster of
/// overlapping tiers, with GPS noise, standing, walking and driving devices, changing and
/// gated accuracies, outliers, duplicates, out-of-order fixes and dwell fences: the events must
/// be identical, event for event.
@Suite struct SkippingEquivalenceTests {
    typealias Fix = (device: Int32, t: Double, p: LatLng, acc: Double)

    enum Region: CaseIterable { case northPole, southPole, antimeridian, denseCluster }

    /// Fences and time-ordered fixes for `region`.
    static func world(_ region: Region, seed: UInt64, devices: Int = 8, fixesPerDevice: Int = 500)
        -> (fences: [Fence], dwell: [Int32: Double], fixes: [Fix])
    {
        var rng = SplitMix64(seed: seed)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.nextUnit() }
        func centre() -> LatLng {
            switch region {
            case .northPole:
                return destination(
                    from: try! LatLng(latitude: 90, longitude: 0), bearing: uniform(0, 360),
                    distance: uniform(0, 40_000))
            case .southPole:
                return destination(
                    from: try! LatLng(latitude: -90, longitude: 0), bearing: uniform(0, 360),
                    distance: uniform(0, 40_000))
            case .antimeridian:
                return try! LatLng(
                    latitude: uniform(-0.2, 0.2),
                    longitude: uniform(-1, 1) < 0
                        ? uniform(179.7, 179.999) : uniform(-179.999, -179.7))
            case .denseCluster: return try! LatLng(latitude: uniform(40, 40.15), longitude: uniform(-75, -74.8))
            }
        }
        var fences: [Fence] = []
        var dwell: [Int32: Double] = [:]
        let count = region == .denseCluster ? 150 : 40
        for k in 0..<count {
            let c = centre()
            // Concentric tiers (1/3/5 miles) share a centre, as the planner's fences do.
            let radii: [Double] = k % 4 == 0 ? [1_609.344, 4_828.032, 8_046.72] : [uniform(30, 3_000)]
            for r in radii {
                let id = Int32(fences.count * 7 + 3)
                fences.append(try! Fence(id: id, center: c, radiusMeters: r))
                if fences.count % 5 == 0 { dwell[id] = [0, 60, 300][fences.count % 3] }
            }
        }
        // Device starts: near a fence centre, so they cross boundaries.
        var fixes: [Fix] = []
        for dev in 0..<devices {
            var p = destination(
                from: fences[Int(rng.next() % UInt64(fences.count))].center, bearing: uniform(0, 360),
                distance: uniform(0, 3_000))
            var t = uniform(0, 60)
            var heading = uniform(0, 360)
            var speed = 0.0
            var accuracy = 10.0
            for k in 0..<fixesPerDevice {
                if k % 40 == 0 { speed = [0, 0, 1.4, 13, 30][Int(rng.next() % 5)] }  // still, walking, driving
                let dt = rng.nextUnit() < 0.1 ? uniform(1, 5) : uniform(10, 60)
                t += dt
                heading += uniform(-40, 40)
                p = destination(from: p, bearing: heading, distance: speed * dt)
                if rng.nextUnit() < 0.2 { accuracy = [3, 8, 15, 40, 80, 150][Int(rng.next() % 6)] }  // 150: gated
                let scale = rng.nextUnit() < 0.02 ? 20.0 : 1.0  // multipath outliers (some jump-rejected)
                let noisy = destination(from: p, bearing: uniform(0, 360), distance: uniform(0, accuracy) * scale)
                fixes.append((Int32(dev * 5 + 1), t, noisy, accuracy))
                if rng.nextUnit() < 0.01 { fixes.append((Int32(dev * 5 + 1), t, noisy, accuracy)) }  // duplicate
                if rng.nextUnit() < 0.01 { fixes.append((Int32(dev * 5 + 1), t - 2, noisy, accuracy)) }  // out of order
            }
        }
        // Stable by time, so a device's duplicate and out-of-order fixes stay where they were.
        let order = fixes.indices.sorted { (fixes[$0].t, $0) < (fixes[$1].t, $1) }
        return (fences, dwell, order.map { fixes[$0] })
    }

    static func run(_ d: inout TransitionDetector, _ fixes: ArraySlice<Fix>) -> [TransitionEvent] {
        var events: [TransitionEvent] = []
        for f in fixes {
            d.process(
                device: f.device, time: f.t, latitude: f.p.latitude, longitude: f.p.longitude, accuracy: f.acc,
                into: &events)
        }
        return events
    }

    /// The detector's own machinery with nothing skipped by distance travelled: a 5,000 km
    /// neighbourhood holds every fence of these worlds, and an odometer quantum too small for
    /// any step makes every fix a rebase, which looks at every entry held (an entry with
    /// clearance left is still only re-armed there).
    static func exhaustive(
        _ fences: [Fence], _ dwell: [Int32: Double],
        _ base: TransitionDetectorConfiguration
    ) throws -> TransitionDetector {
        var config = base
        config.neighborhoodSlackMeters = 5_000_000
        var d = try TransitionDetector(fences: fences, index: PackedRTree(fences), dwellSeconds: dwell, configuration: config)
        d.inverseQuantum = 1e15
        return d
    }

    /// The reference that skips nothing at all: every fence of every device decided by
    /// ``FenceEntry/observe(c2:rc:band:accuracyChord:perSigma:evidenceCap:stillAllowance:time:dwellSeconds:rules:)``
    /// on every accepted fix, with the detector's gates restated plainly (the previous fix kept
    /// in full precision).
    struct NeverSkipping {
        struct Device {
            var lastTime = -Double.infinity
            var fix: UnitVector?
            var fixTime = 0.0
            var fixAccuracy = 0.0
            var rejections = 0
            var entries: [FenceEntry] = []
        }
        let d: TransitionDetector
        var devices: [Int32: Device] = [:]
        var jumps = 0, inaccurate = 0, duplicates = 0

        init(_ fences: [Fence], _ dwell: [Int32: Double], _ config: TransitionDetectorConfiguration) throws {
            d = try TransitionDetector(fences: fences, index: PackedRTree(fences), dwellSeconds: dwell, configuration: config)
        }

        mutating func process(_ f: Fix, into events: inout [TransitionEvent]) {
            let c = d.configuration
            var s = devices[f.device] ?? Device()
            defer { devices[f.device] = s }
            if f.t < s.lastTime { return }
            if f.t == s.lastTime { duplicates += 1; return }
            s.lastTime = f.t
            if f.acc > c.maxAccuracyMeters { inaccurate += 1; return }
            let p = UnitVector(fastLatitude: f.p.latitude, longitude: f.p.longitude)
            var speed = 0.0
            if let previous = s.fix {
                let seconds = f.t - s.fixTime
                let meters = p.chord2(to: previous).squareRoot() * Earth.meanRadius
                let allowed =
                    c.maxSpeedMetersPerSecond * seconds + c.jumpAccuracyFactor * (f.acc + s.fixAccuracy)
                    + c.jumpSlackMeters
                if meters > allowed && s.rejections < c.maxConsecutiveJumpRejections {
                    s.rejections += 1
                    jumps += 1
                    return
                }
                speed = meters / seconds
            } else {
                s.entries = (0..<d.fenceIDs.count).map {
                    FenceEntry(slot: Int32($0), hasDwell: d.geometry.hasDwell($0), state: .unknown)
                }
            }
            let fix = FixContext(d, device: f.device, at: p, time: f.t, accuracy: f.acc, speed: speed, odometer: 0)
            let before = events.count
            d.fenceIDs.withUnsafeBufferPointer { ids in
                for k in s.entries.indices {
                    let g = d.geometry[Int(s.entries[k].slot)]
                    _ = fix.decide(&s.entries[k], g, c2: p.chord2(to: g.center), fenceIDs: ids, into: &events)
                }
            }
            if events.count - before > 1 { TransitionDetector.orderByFence(&events, from: before) }
            s.fix = p
            s.fixTime = f.t
            s.fixAccuracy = f.acc
            s.rejections = 0
        }
    }

    static let configurations: [(String, TransitionDetectorConfiguration)] = {
        var banded = TransitionDetectorConfiguration.hysteresis
        banded.hysteresisMeters = 15
        banded.hysteresisRadiusFraction = 0.02
        banded.enterConfirmations = 2
        banded.minimumDwellSeconds = 30
        return [("default", .default), ("precise", .precise), ("banded hysteresis", banded)]
    }()

    @Test(arguments: Region.allCases)
    func skippingGivesTheEventsOfADetectorThatNeverSkips(_ region: Region) throws {
        for (seed, (name, config)) in zip([UInt64(31), 32, 33], Self.configurations) {
            let world = Self.world(region, seed: seed)
            var never = try NeverSkipping(world.fences, world.dwell, config)
            var expected: [TransitionEvent] = []
            for f in world.fixes { never.process(f, into: &expected) }
            var reference = try Self.exhaustive(world.fences, world.dwell, config)
            #expect(Self.run(&reference, world.fixes[...]) == expected, "\(region) \(name), rebasing every fix")
            // The reference really looked at everything: one index query per device, no skips.
            #expect(reference.counters.neighborhoodQueries == reference.deviceCount, "\(region) \(name)")
            #expect(expected.count >= 40, "\(region) \(name): \(expected.count) events")
            #expect(Set(expected.map(\.kind)) == [.enter, .exit, .dwell], "\(region) \(name)")
            var own = try TransitionDetector(fences: world.fences, dwellSeconds: world.dwell, configuration: config)
            #expect(Self.run(&own, world.fixes[...]) == expected, "\(region) \(name), own grid")
            for slack in [40.0, 3_000] {
                var c = config
                c.neighborhoodSlackMeters = slack
                var shared = try TransitionDetector(
                    fences: world.fences, index: PackedRTree(world.fences),
                    dwellSeconds: world.dwell, configuration: c)
                #expect(Self.run(&shared, world.fixes[...]) == expected, "\(region) \(name), slack \(slack)")
                #expect(shared.counters.accepted == reference.counters.accepted)
                #expect(shared.counters.neighborhoodQueries > shared.deviceCount, "\(region) \(name), slack \(slack)")
            }
            #expect(own.counters.jumps == reference.counters.jumps && own.counters.inaccurate == reference.counters.inaccurate)
            #expect(reference.counters.jumps == never.jumps && reference.counters.inaccurate == never.inaccurate)
            #expect(never.jumps > 0 && never.inaccurate > 0 && never.duplicates > 0, "\(region) \(name)")
        }
    }

    /// Snapshots taken mid-stream (binary form) restore into fresh detectors of the same
    /// configuration (own grid, shared index), whose entries are all looked at on their next
    /// fix, and both continue with the events of the uninterrupted run.
    @Test(arguments: Region.allCases)
    func snapshotsRestoreMidStreamWithIdenticalEvents(_ region: Region) throws {
        let world = Self.world(region, seed: 41, devices: 6, fixesPerDevice: 400)
        let config = TransitionDetectorConfiguration.default
        var whole = try TransitionDetector(fences: world.fences, dwellSeconds: world.dwell, configuration: config)
        let expected = Self.run(&whole, world.fixes[...])
        #expect(expected.count >= 20, "\(region): \(expected.count) events")
        for cut in [world.fixes.count / 4, world.fixes.count / 2 + 3, world.fixes.count - 50] {
            var first = try TransitionDetector(fences: world.fences, dwellSeconds: world.dwell, configuration: config)
            let before = Self.run(&first, world.fixes[..<cut])
            let bytes = first.binarySnapshot()
            var skipping = try TransitionDetector(fences: world.fences, dwellSeconds: world.dwell, configuration: config)
            try skipping.restore(binary: bytes)
            #expect(before + Self.run(&skipping, world.fixes[cut...]) == expected, "\(region), cut \(cut)")
            var shared = try TransitionDetector(
                fences: world.fences, index: PackedRTree(world.fences),
                dwellSeconds: world.dwell, configuration: config)
            try shared.restore(binary: bytes)
            #expect(before + Self.run(&shared, world.fixes[cut...]) == expected, "\(region), cut \(cut), shared index")
        }
    }
}
