import Foundation
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// A 150 m fence (id 7) at the origin of these tests.
private let center = try! LatLng(latitude: 40.0, longitude: -75.0)
private let fence150 = try! Fence(id: 7, center: center, radiusMeters: 150)

/// Position `meters` east of the center (negative = west).
private func east(_ meters: Double) -> LatLng { destination(from: center, bearing: 90, distance: meters) }

private func detector(
    _ fences: [Fence] = [fence150], dwell: [Int32: Double] = [:],
    _ config: TransitionDetectorConfiguration = .hysteresis
) throws -> TransitionDetector {
    try TransitionDetector(fences: fences, index: PackedRTree(fences), dwellSeconds: dwell, configuration: config)
}

private func detector(_ config: TransitionDetectorConfiguration) throws -> TransitionDetector {
    try detector([fence150], config)
}

/// Feeds `(time, meters east, accuracy)` fixes of device 1; returns all events.
private func run(_ d: inout TransitionDetector, _ fixes: [(Double, Double, Double)]) -> [TransitionEvent] {
    var events: [TransitionEvent] = []
    for (t, x, a) in fixes {
        let p = east(x)
        d.process(device: 1, time: t, latitude: p.latitude, longitude: p.longitude, accuracy: a, into: &events)
    }
    return events
}

@Test func walkingThroughAFenceEntersOnceAndExitsAfterConfirmation() throws {
    var d = try detector()
    // From 400 m west to 400 m east in 50 m steps every 30 s, accuracy 5 m.
    let fixes = (0...16).map { (Double($0) * 30, -400 + Double($0) * 50, 5.0) }
    let events = run(&d, fixes)
    // Hysteresis margin = 0 m + 0.9 * 5 m = 4.5 m: inside when d < 145.5 m (x = -100 at t = 180),
    // outside when d > 154.5 m (x = 200 at t = 360; confirmed by the second such fix at t = 390).
    #expect(
        events == [
            TransitionEvent(device: 1, fence: 7, kind: .enter, time: 180),
            TransitionEvent(device: 1, fence: 7, kind: .exit, time: 390)
        ])
    #expect(d.counters.accepted == 17)
}

@Test func firstKnownStateIsNotAnEvent() throws {
    var d = try detector()
    let events = run(&d, [(0, 0, 5), (30, 0, 5), (60, 500, 5), (90, 520, 5)])
    #expect(events == [TransitionEvent(device: 1, fence: 7, kind: .exit, time: 90)])
}

@Test func fixesInsideTheHysteresisBandChangeNothing() throws {
    var config = TransitionDetectorConfiguration.hysteresis
    config.hysteresisMeters = 20
    config.accuracyFactor = 1  // band: 150 +- 25 m
    var d = try detector(config)
    // Start well outside, then wander within +-20 m of the boundary for an hour.
    var fixes: [(Double, Double, Double)] = [(0, 400, 5)]
    var rng = SplitMix64(seed: 11)
    for k in 1...120 { fixes.append((Double(k) * 30, 150 + (rng.nextUnit() * 40 - 20), 5)) }
    #expect(run(&d, fixes).isEmpty, "seed 11")
}

@Test func inaccurateFixesAreGated() throws {
    var d = try detector()
    let events = run(&d, [(0, 400, 5), (30, 0, 500), (60, 0, 300), (90, 400, 5)])
    #expect(events.isEmpty)
    #expect(d.counters.inaccurate == 2)
}

@Test func implausibleJumpsAreRejected() throws {
    var d = try detector([try Fence(id: 7, center: east(20_000), radiusMeters: 500)])
    // A multipath fix 20 km away for one sample, between fixes at the origin 30 s apart.
    let events = run(&d, [(0, 0, 10), (30, 20_000, 10), (60, 5, 10), (90, 20_000, 10), (120, 0, 10)])
    #expect(events.isEmpty)
    #expect(d.counters.jumps == 2)
}

@Test func aRealTeleportIsAcceptedAfterTheRejectionLimit() throws {
    var config = TransitionDetectorConfiguration.default
    config.maxConsecutiveJumpRejections = 2
    var d = try detector([try Fence(id: 7, center: east(20_000), radiusMeters: 500)], config)
    let events = run(&d, [(0, 0, 10), (30, 20_000, 10), (60, 20_000, 10), (90, 20_000, 10)])
    // Two rejections, then the third far fix is accepted: first sight of the fence from inside
    // would not be an event, but the fence was known to be outside, so this is an entry.
    #expect(d.counters.jumps == 2)
    #expect(events == [TransitionEvent(device: 1, fence: 7, kind: .enter, time: 90)])
}

@Test func aSingleOutsideFixDoesNotExit() throws {
    var d = try detector()
    let events = run(&d, [(0, 0, 5), (30, 300, 5), (60, 0, 5), (90, 300, 5), (120, 10, 5)])
    #expect(events.isEmpty)
}

@Test func duplicatesOutOfOrderAndInvalidFixesAreCountedAndIgnored() throws {
    var d = try detector()
    var events: [TransitionEvent] = []
    let inside = east(0), outside = east(400)
    d.process(device: 1, time: 100, latitude: outside.latitude, longitude: outside.longitude, accuracy: 5, into: &events)
    d.process(device: 1, time: 100, latitude: inside.latitude, longitude: inside.longitude, accuracy: 5, into: &events)
    d.process(device: 1, time: 50, latitude: inside.latitude, longitude: inside.longitude, accuracy: 5, into: &events)
    d.process(device: 1, time: 130, latitude: .nan, longitude: inside.longitude, accuracy: 5, into: &events)
    d.process(device: 1, time: 130, latitude: 95, longitude: inside.longitude, accuracy: 5, into: &events)
    d.process(device: 1, time: 130, latitude: inside.latitude, longitude: inside.longitude, accuracy: -1, into: &events)
    d.process(device: 1, time: .nan, latitude: inside.latitude, longitude: inside.longitude, accuracy: 5, into: &events)
    #expect(events.isEmpty)
    #expect(d.counters.duplicates == 1)
    #expect(d.counters.outOfOrder == 1)
    #expect(d.counters.invalid == 4)
    #expect(d.counters.accepted == 1)
    #expect(d.counters.fixes == 7)
    // The state was not touched: a real entry still works.
    d.process(device: 1, time: 160, latitude: inside.latitude, longitude: inside.longitude, accuracy: 5, into: &events)
    #expect(events == [TransitionEvent(device: 1, fence: 7, kind: .enter, time: 160)])
}

@Test func dwellFiresOnceAfterItsTimeInside() throws {
    var d = try detector(dwell: [7: 300])
    let fixes: [(Double, Double, Double)] = [(0, 400, 5), (30, 0, 5)] + (2...14).map { (Double($0) * 30, 0, 5) }
    let events = run(&d, fixes)
    #expect(
        events == [
            TransitionEvent(device: 1, fence: 7, kind: .enter, time: 30),
            TransitionEvent(device: 1, fence: 7, kind: .dwell, time: 330)
        ])
}

@Test func minimumDwellDelaysTheEntry() throws {
    var config = TransitionDetectorConfiguration.hysteresis
    config.minimumDwellSeconds = 60
    var d = try detector(config)
    let events = run(&d, [(0, 400, 5), (30, 0, 5), (60, 0, 5), (90, 0, 5), (120, 0, 5)])
    #expect(events == [TransitionEvent(device: 1, fence: 7, kind: .enter, time: 90)])
}

@Test func badConstructionInputThrowsTypedErrors() throws {
    #expect(throws: GeofenceError.duplicateFenceID(7)) { try detector([fence150, fence150]) }
    #expect(throws: GeofenceError.indexMismatch(fences: 1, indexed: 0)) {
        try TransitionDetector(fences: [fence150], index: PackedRTree([Fence]()))
    }
    #expect(throws: GeofenceError.unknownFenceID(99)) { try detector(dwell: [99: 10]) }
    #expect(throws: GeofenceError.invalidDwell(-1)) { try detector(dwell: [7: -1]) }
    var config = TransitionDetectorConfiguration.default
    config.hysteresisMeters = -1
    #expect(throws: GeofenceError.invalidSetting(field: "hysteresisMeters", value: -1)) { try detector(config) }
    config = .default
    config.exitConfirmations = 0
    #expect(throws: GeofenceError.self) { try detector(config) }
}

// MARK: - Random streams: sparse state, slack independence, snapshots

/// 60 fences of 150 m to 8 km on a 0.1-degree grid, and `devices` random walks with noise,
/// interleaved in time order.
private func randomWorld(seed: UInt64, devices: Int = 6, fixesPerDevice: Int = 400)
    -> (fences: [Fence], fixes: [(device: Int32, t: Double, p: LatLng, acc: Double)])
{
    var rng = SplitMix64(seed: seed)
    var fences: [Fence] = []
    for k in 0..<60 {
        let c = try! LatLng(latitude: 40 + Double(k / 8) * 0.1, longitude: -75 + Double(k % 8) * 0.1)
        fences.append(try! Fence(id: Int32(k * 3 + 1), center: c, radiusMeters: [150, 1609.344, 8046.72][k % 3]))
    }
    var fixes: [(device: Int32, t: Double, p: LatLng, acc: Double)] = []
    for dev in 0..<devices {
        var p = try! LatLng(latitude: 40 + rng.nextUnit() * 0.7, longitude: -75 + rng.nextUnit() * 0.7)
        var t = rng.nextUnit() * 60
        var heading = rng.nextUnit() * 360
        for _ in 0..<fixesPerDevice {
            let dt = 15 + rng.nextUnit() * 45
            t += dt
            heading += (rng.nextUnit() - 0.5) * 60
            p = destination(from: p, bearing: heading, distance: dt * (rng.nextUnit() < 0.5 ? 1.4 : 13))
            let acc = 3 + rng.nextUnit() * 60
            let noisy = destination(from: p, bearing: rng.nextUnit() * 360, distance: rng.nextUnit() * acc * (rng.nextUnit() < 0.03 ? 20 : 1))
            fixes.append((Int32(dev), t, noisy, acc))
        }
    }
    fixes.sort { $0.t < $1.t }
    return (fences, fixes)
}

private func runAll(_ d: inout TransitionDetector, _ fixes: ArraySlice<(device: Int32, t: Double, p: LatLng, acc: Double)>) -> [TransitionEvent] {
    var events: [TransitionEvent] = []
    for f in fixes { d.process(device: f.device, time: f.t, latitude: f.p.latitude, longitude: f.p.longitude, accuracy: f.acc, into: &events) }
    return events
}

/// A refresh leads a moving device: the new anchor is 0.8 of the slack ahead along its last
/// step, so a straight drive asks the index every 1.8 slacks, not every slack; a walk (steps
/// under a tenth of the slack) is not led. Events are the same either way (the slack tests
/// above run with the lead at every slack).
@Test func aRefreshAnchorsAMovingDeviceAheadAlongItsLastStep() throws {
    func queries(stepMeters: Double, fixes: Int) throws -> Int {
        let start = -Double(fixes - 1) / 2 * stepMeters
        var d = try detector(.default)
        var events: [TransitionEvent] = []
        for k in 0..<fixes {
            let p = east(start + Double(k) * stepMeters)
            d.process(
                device: 1, time: Double(k) * 30, latitude: p.latitude, longitude: p.longitude, accuracy: 5,
                into: &events)
        }
        // The drive crosses the 150 m fence once each way.
        #expect(events.map(\.kind) == [.enter, .exit], "step \(stepMeters)")
        return d.counters.neighborhoodQueries
    }
    // 40 km east in 500 m steps: the first fix, the first step past 3 km, then one query per
    // 5.5 km (11 steps past the 5.4 km of slack and lead; every 3.5 km without the lead: 12).
    let driving = try queries(stepMeters: 500, fixes: 81)
    #expect(driving == 8, "\(driving)")
    // 4 km in 100 m steps (under 300 m): the first fix, then one query per 3 km.
    let walking = try queries(stepMeters: 100, fixes: 41)
    #expect(walking == 2, "\(walking)")
}

@Test func eventsDoNotDependOnTheNeighborhoodSlack() throws {
    for seed: UInt64 in [1, 2, 3] {
        let world = randomWorld(seed: seed)
        var results: [[TransitionEvent]] = []
        for slack in [1.0, 100, 2000, 30_000] {
            var config = TransitionDetectorConfiguration.default
            config.neighborhoodSlackMeters = slack
            var d = try detector(world.fences, dwell: [1: 120], config)
            results.append(runAll(&d, world.fixes[...]))
        }
        #expect(!results[0].isEmpty, "seed \(seed)")
        #expect(results[0] == results[1], "seed \(seed)")
        #expect(results[0].count > 5, "seed \(seed)")
        #expect(results[1] == results[2], "seed \(seed)")
        #expect(results[2] == results[3], "seed \(seed)")
    }
}

@Test func denseIdsInOrderGiveTheSameEventsAsSparseIds() throws {
    // Ids 0..<n in input order and ids 3k + 1 name the same fences: the events differ only in
    // the ids (slots follow the centers' Z-order, not the ids).
    for seed: UInt64 in [8, 9] {
        let world = randomWorld(seed: seed)
        let dense = try world.fences.map { try Fence(id: ($0.id - 1) / 3, center: $0.center, radiusMeters: $0.radiusMeters) }
        var sparse = try TransitionDetector(fences: world.fences, dwellSeconds: [1: 120])
        var compact = try TransitionDetector(fences: dense, dwellSeconds: [0: 120])
        let expected = runAll(&sparse, world.fixes[...]).map {
            TransitionEvent(device: $0.device, fence: ($0.fence - 1) / 3, kind: $0.kind, time: $0.time)
        }
        #expect(expected.count > 5, "seed \(seed)")
        #expect(runAll(&compact, world.fixes[...]) == expected, "seed \(seed)")
    }
}

@Test func stateIsSparse() throws {
    let world = randomWorld(seed: 4)
    var d = try detector(world.fences)
    _ = runAll(&d, world.fixes[...])
    // Six devices, 60 fences: each device holds only the fences whose edge is near it.
    #expect(d.deviceCount == 6)
    #expect(d.stateEntryCount < 6 * 60 / 2, "seed 4: \(d.stateEntryCount) entries")
    // A device far from every fence holds nothing.
    var events: [TransitionEvent] = []
    d.process(device: 99, time: 0, latitude: -30, longitude: 100, accuracy: 5, into: &events)
    #expect(d.snapshot(device: 99)?.fences.isEmpty == true)
}

@Test func snapshotRestoredInAFreshDetectorGivesIdenticalEvents() throws {
    for seed: UInt64 in [5, 6, 7] {
        let world = randomWorld(seed: seed)
        var whole = try detector(world.fences, dwell: [1: 120, 4: 600])
        let expected = runAll(&whole, world.fixes[...])
        for cut in [1, world.fixes.count / 3, world.fixes.count / 2 + 7] {
            var first = try detector(world.fences, dwell: [1: 120, 4: 600])
            var events = runAll(&first, world.fixes[..<cut])
            let data = try JSONEncoder().encode(first.devices.map { first.snapshot(device: $0)! })
            var second = try detector(world.fences, dwell: [1: 120, 4: 600])
            for s in try JSONDecoder().decode([DeviceSnapshot].self, from: data) { try second.restore(s) }
            events += runAll(&second, world.fixes[cut...])
            #expect(events == expected, "seed \(seed), cut \(cut)")
        }
        #expect(!expected.isEmpty, "seed \(seed)")
    }
}

/// One fix stamped far in the future must not silence a device for good: the next fixes are
/// out of order, and after `outOfOrderRestart` of them in a row the next one restarts the
/// device's time, so the walk out of the fence still exits. A lone late fix is still dropped.
@Test func aClockThatStepsBackRestartsTheDevicesTimeAfterThreeOutOfOrderFixes() throws {
    var d = try detector()
    // Inside at the center, then one fix stamped 31 years ahead at the same place.
    var events = run(&d, [(0, 0, 5), (30, 0, 5), (1e9, 0, 5)])
    #expect(events.map(\.kind) == [])  // the first decisive state sets it without an event
    #expect(d.snapshot(device: 1)?.fences.map(\.state) == [.inside])
    // The device walks out east, 50 m every 30 s, on the real clock.
    let walk = (2...12).map { (Double($0) * 30, Double($0 - 1) * 50, 5.0) }
    events = run(&d, walk)
    #expect(d.counters.outOfOrder == TransitionDetector.outOfOrderRestart)
    #expect(d.counters.clockRestarts == 1)
    #expect(events.map(\.kind) == [.exit])  // 200 m out by t = 150 + confirmation
    #expect(d.counters.accepted + d.counters.outOfOrder == 14)
    // A single late fix among good ones is dropped, and the run starts again.
    events = run(&d, [(100, 0, 5), (400, 550, 5)])
    #expect(events.isEmpty && d.counters.outOfOrder == TransitionDetector.outOfOrderRestart + 1)
    #expect(d.counters.clockRestarts == 1)
}

@Test func restoreRejectsUnknownFencesAndMalformedState() throws {
    var d = try detector()
    var events: [TransitionEvent] = []
    d.process(device: 3, time: 0, latitude: center.latitude, longitude: center.longitude, accuracy: 5, into: &events)
    var s = try #require(d.snapshot(device: 3))
    #expect(s.fences.map(\.fence) == [7])
    s.fences[0].fence = 8
    #expect(throws: GeofenceError.unknownFenceID(8)) { try d.restore(s) }
    s.fences[0].fence = 7
    s.fences.append(s.fences[0])
    #expect(throws: GeofenceError.duplicateFenceID(7)) { try d.restore(s) }
    s.fences.removeLast()
    // A state outside 0...2 does not decode.
    let text = String(decoding: try JSONEncoder().encode(s), as: UTF8.self).replacingOccurrences(of: "\"state\":2", with: "\"state\":9")
    #expect(text.contains("\"state\":9"))
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeviceSnapshot.self, from: Data(text.utf8)) }
    s.fences[0].state = .inside
    let good = s
    // Vectors that are not unit vectors, times and accuracies that are not finite: refused,
    // naming the field, rather than restored into a state no fix could have made.
    s.fix = [1, 2]
    #expect(throws: GeofenceError.self) { try d.restore(s) }
    s.fix = [0, 0.6, 0.81]  // norm 1.005
    #expect(throws: GeofenceError.invalidSetting(field: "snapshot.fix", value: (0.36 + 0.81 * 0.81).squareRoot())) { try d.restore(s) }
    s = good
    s.anchor = [0, 0, 0]
    #expect(throws: GeofenceError.invalidSetting(field: "snapshot.anchor", value: 0)) { try d.restore(s) }
    s = good
    s.fixTime = .nan
    #expect(throws: GeofenceError.self) { try d.restore(s) }
    s = good
    s.fixAccuracy = -1
    #expect(throws: GeofenceError.invalidSetting(field: "snapshot.fixAccuracy", value: -1)) { try d.restore(s) }
    s = good
    s.fences[0].enteredAt = .infinity
    #expect(throws: GeofenceError.invalidSetting(field: "snapshot.fences[0].enteredAt", value: .infinity)) { try d.restore(s) }
    s = good
    try d.restore(s)  // the good one still restores
    #expect(d.snapshot(device: 3)?.fences.map(\.state) == [.inside])
    // Fence states without a fix (and anchor) to measure from are malformed.
    s.fix = nil
    s.anchor = nil
    #expect(throws: GeofenceError.invalidSetting(field: "snapshot.fences", value: 1)) { try d.restore(s) }
    #expect(d.snapshot(device: 4) == nil)
}

/// A finite accuracy past Float's range (the track keeps it in single precision) was restored
/// as infinity, so the detector's own snapshot then named an infinite accuracy and no detector,
/// this one included, would restore it (`scripts/fuzz-libs snapshot`, from binary bytes whose
/// accuracy was Double.greatestFiniteMagnitude). It is refused, naming the field.
@Test func restoreRefusesAnAccuracyTheTrackCannotHold() throws {
    var d = try detector()
    var events: [TransitionEvent] = []
    d.process(device: 3, time: 0, latitude: center.latitude, longitude: center.longitude, accuracy: 5, into: &events)
    let good = try #require(d.snapshot(device: 3))
    for accuracy in [1e39, .greatestFiniteMagnitude] {
        var s = good
        s.fixAccuracy = accuracy
        var bytes = Array("GFS1".utf8) + [1]
        s.appendBinary(to: &bytes)
        var fresh = try detector()
        #expect(throws: GeofenceError.invalidSetting(field: "snapshot.fixAccuracy", value: accuracy)) { try fresh.restore(binary: bytes) }
        // Whatever was restored, the detector's own snapshot restores.
        var again = try detector()
        try again.restore(binary: fresh.binarySnapshot())
    }
    var s = good
    s.fixAccuracy = 3e38  // within Float's range: kept
    try d.restore(s)
    #expect(d.snapshot(device: 3)?.fixAccuracy == Double(Float(3e38)))
}

/// The binary form keeps every Double bit for bit, as its documentation says: a fix time or
/// accuracy of -0 without a fix was compared to 0 with `!=`, left out, and read back as +0
/// (`scripts/fuzz-libs snapshot`).
@Test func aSnapshotWithoutAFixKeepsNegativeZeroTimes() throws {
    for (time, accuracy) in [(-0.0, 0.0), (0.0, -0.0)] {
        let s = DeviceSnapshot(
            device: 0, lastTime: 0, fix: nil, fixTime: time, fixAccuracy: accuracy, rejections: 0, anchor: nil, fences: [])
        var bytes: [UInt8] = []
        s.appendBinary(to: &bytes)
        var offset = 0
        let back = try DeviceSnapshot(binary: bytes, offset: &offset)
        #expect(offset == bytes.count)
        #expect(back.fixTime.bitPattern == time.bitPattern && back.fixAccuracy.bitPattern == accuracy.bitPattern)
    }
}

@Test func idsTheIndexReportsButTheDetectorLacksAreCountedAndIgnored() throws {
    let stranger = try Fence(id: 8, center: center, radiusMeters: 150)
    var d = try TransitionDetector(fences: [fence150], index: PackedRTree([stranger]))
    let events = run(&d, [(0, 400, 5), (30, 0, 5)])
    #expect(events.isEmpty)
    #expect(d.counters.unknownFenceIDs >= 1)
    #expect(d.stateEntryCount == 0)
}

@Test func ownEnlargedIndexAndASharedIndexGiveTheSameEvents() throws {
    for seed: UInt64 in [8, 9] {
        for config in [TransitionDetectorConfiguration.default, .hysteresis] {
            let world = randomWorld(seed: seed)
            var shared = try detector(world.fences, dwell: [4: 300], config)
            var own = try TransitionDetector(fences: world.fences, dwellSeconds: [4: 300], configuration: config)
            let a = runAll(&shared, world.fixes[...]), b = runAll(&own, world.fixes[...])
            #expect(!a.isEmpty, "seed \(seed)")
            #expect(a == b, "seed \(seed)")
        }
    }
}

/// Settings each in range but too large together: the own-index initializer trapped on the
/// enlarged fence's infinite radius; now it is a typed error naming the fence.
@Test func settingsThatOverflowTheNeighborhoodAreATypedError() throws {
    var config = TransitionDetectorConfiguration.default
    config.accuracyFactor = 1e300
    config.maxAccuracyMeters = 1e300
    #expect(throws: GeofenceError.invalidSetting(field: "neighborhood radius of fence 7", value: .infinity)) {
        try TransitionDetector(fences: [fence150], configuration: config)
    }
    config.accuracyFactor = 1
    config.maxAccuracyMeters = 1e6  // large but finite: accepted
    #expect(throws: Never.self) { try TransitionDetector(fences: [fence150], configuration: config) }
}

/// The renamed slack and neighborhood count keep their encoded keys: JSON written before the
/// rename (key `neighborhoodSlackMeters`, `neighborhoodQueries`) decodes to the same values.
@Test func renamedPropertiesKeepTheirCodingKeys() throws {
    var config = TransitionDetectorConfiguration.default
    config.neighborhoodSlackMeters = 1234.5
    let text = String(decoding: try JSONEncoder().encode(config), as: UTF8.self)
    #expect(text.contains("\"neighborhoodSlackMeters\":1234.5"))
    #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: Data(text.utf8)) == config)
    var counters = TransitionCounters()
    counters.neighborhoodQueries = 17
    let counted = String(decoding: try JSONEncoder().encode(counters), as: UTF8.self)
    #expect(counted.contains("\"neighborhoodQueries\":17"))
    #expect(try JSONDecoder().decode(TransitionCounters.self, from: Data(counted.utf8)).neighborhoodQueries == 17)
}

// MARK: - A committed snapshot fixture

/// The fixture's world: `randomWorld(seed: 5)` cut after this many fixes, dwells of 120 s on
/// fence 1 and 600 s on fence 4.
private let fixtureCut = 1207
private let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// Writes `Fixtures/detector_snapshots_seed5.json` when GEOFENCE_WRITE_SNAPSHOT_FIXTURE=1 (how
/// the committed file was made); otherwise checks that the world still has the fixture's size.
@Test func snapshotFixtureWorldIsStable() throws {
    let world = randomWorld(seed: 5)
    #expect(world.fixes.count == 2_400 && fixtureCut < world.fixes.count)
    guard ProcessInfo.processInfo.environment["GEOFENCE_WRITE_SNAPSHOT_FIXTURE"] == "1" else { return }
    var first = try detector(world.fences, dwell: [1: 120, 4: 600])
    _ = runAll(&first, world.fixes[..<fixtureCut])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(first.devices.map { first.snapshot(device: $0)! })
    try data.write(to: fixtureFolder.appendingPathComponent("detector_snapshots_seed5.json"))
}

/// The committed snapshots decode, restore into a new detector and continue the stream with
/// exactly the events of an uninterrupted run.
@Test func committedSnapshotsRestoreAndContinueIdentically() throws {
    let world = randomWorld(seed: 5)
    var whole = try detector(world.fences, dwell: [1: 120, 4: 600])
    let expected = runAll(&whole, world.fixes[...])
    var first = try detector(world.fences, dwell: [1: 120, 4: 600])
    var events = runAll(&first, world.fixes[..<fixtureCut])
    let data = try Data(contentsOf: fixtureFolder.appendingPathComponent("detector_snapshots_seed5.json"))
    let snapshots = try JSONDecoder().decode([DeviceSnapshot].self, from: data)
    #expect(snapshots.count == 6)
    #expect(snapshots.contains { !$0.fences.isEmpty })
    var second = try detector(world.fences, dwell: [1: 120, 4: 600])
    for s in snapshots { try second.restore(s) }
    events += runAll(&second, world.fixes[fixtureCut...])
    #expect(events == expected)
    #expect(expected.count > 5)
}

@Test func eventsDoNotDependOnSlackOrIndexWithHysteresisBands() throws {
    // Fences with a band (hysteresisMeters plus a radius fraction) move the clearance that
    // re-arms settled entries; the detector's own grid and a shared index must agree.
    var banded = TransitionDetectorConfiguration.hysteresis
    banded.hysteresisMeters = 15
    banded.hysteresisRadiusFraction = 0.05
    var evidenceBanded = TransitionDetectorConfiguration.default
    evidenceBanded.hysteresisMeters = 40
    for (name, base) in [
        ("default", TransitionDetectorConfiguration.default), ("banded", banded),
        ("evidence banded", evidenceBanded)
    ] {
        let world = randomWorld(seed: 11)
        var results: [[TransitionEvent]] = []
        for slack in [1.0, 3000] {
            var config = base
            config.neighborhoodSlackMeters = slack
            var shared = try detector(world.fences, dwell: [1: 120], config)
            var own = try TransitionDetector(fences: world.fences, dwellSeconds: [1: 120], configuration: config)
            results.append(runAll(&shared, world.fixes[...]))
            results.append(runAll(&own, world.fixes[...]))
        }
        #expect(results[0].count > 5, "\(name)")
        for k in 1..<results.count { #expect(results[k] == results[0], "\(name), run \(k)") }
    }
}

@Test func aDeviceJitteringOnABoundaryGivesTheSameEventsWhateverItsSlack() throws {
    // A standing device whose noisy fixes straddle the edge of fence 7 travels four slacks of
    // path without leaving one (the odometer fills and every entry is looked at again, with no
    // index query); with a 1 m slack every fix refreshes instead.
    var rng = SplitMix64(seed: 21)
    var fixes: [(Double, Double, Double)] = []
    for k in 0..<3_000 {
        let accuracy = 8 + rng.nextUnit() * 20
        fixes.append((Double(k) * 5, 150 + (rng.nextUnit() - 0.5) * 2 * accuracy * 1.5, accuracy))
    }
    let inner = try Fence(id: 8, center: center, radiusMeters: 400)
    let far = try Fence(id: 9, center: east(2_000), radiusMeters: 300)
    var results: [[TransitionEvent]] = []
    for slack in [1.0, 50, 3000] {
        var config = TransitionDetectorConfiguration.default
        config.neighborhoodSlackMeters = slack
        var d = try detector([fence150, inner, far], dwell: [7: 60], config)
        results.append(run(&d, fixes))
    }
    #expect(results[0].filter { $0.fence == 7 }.count >= 4, "\(results[0].count) events")
    #expect(results[0].allSatisfy { $0.fence == 7 })
    #expect(results[1] == results[0])
    #expect(results[2] == results[0])
}
