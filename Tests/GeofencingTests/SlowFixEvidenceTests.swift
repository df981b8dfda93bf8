import Foundation
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// The evidence rule with its slow-fix cap and without the still rule, on a 150 m fence (id 7)
/// and fixes at a bearing from its center: entry and exit thresholds 2.5 at 0.5 per fix; a fix
/// of a device slower than 8 m/s since its previous fix counts for at most 2.5 sigmas (so at
/// most 2.5 - 0.5 = 2 towards a threshold of 2.5: a slow device needs two fixes). Accuracy 20 m
/// throughout (sigma 10 m): a fix at distance d scores (150 - d) / 10 towards an entry and
/// (d - 150) / 10 towards an exit. The still rule of the defaults is tested in
/// StillFixEvidenceTests.swift and DefaultStillRuleTests.swift.
private let capped = TransitionDetectorConfiguration(
    enterEvidencePerFix: 0.5, exitEvidencePerFix: 0.5,
    stillSpeedMetersPerSecond: 0, stillEvidencePerFix: 0)
private let center = try! LatLng(latitude: 40.0, longitude: -75.0)
private let fence = try! Fence(id: 7, center: center, radiusMeters: 150)

/// Feeds `(time s, meters from the center, accuracy m)` fixes due east; returns the events.
private func run(
    _ fixes: [(t: Double, d: Double, a: Double)], _ config: TransitionDetectorConfiguration = capped,
    dwell: [Int32: Double] = [:]
) throws -> [TransitionEvent] {
    try run(points: fixes.map { (t: $0.t, p: destination(from: center, bearing: 90, distance: $0.d), a: $0.a) }, config, dwell: dwell)
}

private func run(
    points fixes: [(t: Double, p: LatLng, a: Double)], _ config: TransitionDetectorConfiguration,
    dwell: [Int32: Double] = [:]
) throws -> [TransitionEvent] {
    var d = try TransitionDetector(fences: [fence], dwellSeconds: dwell, configuration: config)
    var events: [TransitionEvent] = []
    for f in fixes {
        d.process(device: 1, time: f.t, latitude: f.p.latitude, longitude: f.p.longitude, accuracy: f.a, into: &events)
    }
    return events
}

private var uncapped: TransitionDetectorConfiguration {
    var c = capped
    c.slowEvidenceCapSigmas = .infinity
    return c
}

/// From 400 m to 100 m in 30 s (10 m/s, not slow): 5 - 0.5 = 4.5 >= 2.5 enters at once. The
/// same depth reached slowly (170 m, then 100 m 30 s later: 2.3 m/s) counts 2 and enters on
/// the second fix there (2 + 2); without the cap it enters on the first.
@Test func aDeepFixEntersAtOnceWhenTheDeviceMovesAndAfterTwoWhenSlow() throws {
    #expect(try run([(0, 400, 20), (30, 100, 20)]).map(\.time) == [30])
    let slow: [(t: Double, d: Double, a: Double)] = [(0, 400, 20), (30, 170, 20), (60, 100, 20), (90, 100, 20)]
    #expect(try run(slow).map(\.time) == [90])
    #expect(try run(slow, uncapped).map(\.time) == [60])
    // Cap 0: a slow fix never counts, a fast one still does.
    var zero = capped
    zero.slowEvidenceCapSigmas = 0
    let standing: [(t: Double, d: Double, a: Double)] = (4...40).map { (t: Double($0) * 30, d: 100, a: 20) }
    #expect(try run(slow + standing, zero).isEmpty)
    #expect(try run([(0, 400, 20), (30, 100, 20)], zero).map(\.time) == [30])
}

/// A standing device inside (50 m) gets one multipath fix at 230 m (a 180 m jump in 30 s:
/// 6 m/s, slow): it counts 2 < 2.5 and the next fix back inside (-10.5) clears it, twice over.
/// Mirrored outside: standing at 220 m, one fix at 80 m. Without the cap each outlier flaps.
@Test func aLoneOutlierOfAStandingDeviceIsForgiven() throws {
    let inside: [(t: Double, d: Double, a: Double)] = [
        (0, 400, 20), (30, 100, 20), (60, 50, 20), (90, 230, 20),
        (120, 50, 20), (150, 230, 20), (180, 50, 20)
    ]
    #expect(try run(inside).map(\.kind) == [.enter])
    #expect(try run(inside, uncapped).map(\.kind) == [.enter, .exit, .enter, .exit, .enter])
    let outside: [(t: Double, d: Double, a: Double)] = [(0, 220, 20), (30, 220, 20), (60, 80, 20), (90, 220, 20)]
    #expect(try run(outside).isEmpty)
    #expect(try run(outside, uncapped).map(\.kind) == [.enter, .exit])
}

/// Slow shallow fixes at 135 m score 1.5 - 0.5 = 1 each (kept in eighths, a hair under 1 as a
/// chord): two stay below 2.5, the third enters; a fix back outside (200 m: -5.5) between them
/// resets the sum, so 135, 135, 200, 135, 135 never enters.
@Test func evidenceAccumulatesAndResetsOnAFixBackOnTheOwnSide() throws {
    let start: [(t: Double, d: Double, a: Double)] = [(0, 400, 20)]
    #expect(try run(start + [(30, 135, 20), (60, 135, 20)]).isEmpty)
    #expect(try run(start + [(30, 135, 20), (60, 135, 20), (90, 135, 20)]).map(\.time) == [90])
    #expect(try run(start + [(30, 135, 20), (60, 135, 20), (90, 200, 20), (120, 135, 20), (150, 135, 20)]).isEmpty)
}

/// A walker (1.4 m/s) following the boundary 5 m outside it for an hour, each fix off by up to
/// +-10 m radially (seeded): every fix scores at most 0.5 - 0.5 = 0, so no event; the raw
/// boundary test (no defenses) flaps on the same fixes.
@Test func aSlowWalkAlongTheBoundaryDoesNotFlap() throws {
    var rng = SplitMix64(seed: 21)
    var fixes: [(t: Double, p: LatLng, a: Double)] = []
    for k in 0...120 {
        let bearing = Double(k) * 1.4 * 30 / 155 * 180 / .pi  // 42 m of arc per 30 s
        let d = 155 + (rng.nextUnit() * 20 - 10)
        fixes.append((Double(k) * 30, destination(from: center, bearing: bearing, distance: d), 20))
    }
    #expect(try run(points: fixes, capped).isEmpty, "seed 21")
    let raw = TransitionDetectorConfiguration(accuracyFactor: 0, enterEvidence: 0, exitEvidence: 0, slowEvidenceCapSigmas: .infinity)
    var rawRule = raw
    rawRule.exitConfirmations = 1
    #expect(try run(points: fixes, rawRule).count > 10, "seed 21: the raw rule flaps")
}

/// Dwell still fires under the evidence rule: an entry at 30 s on a fence with a 300 s dwell,
/// then a standing device, gives `dwell` at 330 s, once.
@Test func dwellFiresAfterAnEvidenceEntry() throws {
    let fixes: [(t: Double, d: Double, a: Double)] = [(0, 400, 5)] + (1...14).map { (Double($0) * 30, 0, 5) }
    let events = try run(fixes, dwell: [7: 300])
    #expect(
        events == [
            TransitionEvent(device: 1, fence: 7, kind: .enter, time: 30),
            TransitionEvent(device: 1, fence: 7, kind: .dwell, time: 330)
        ])
}

/// The sparse-state invariant of ``FenceEntry/observe``, over random rules and entries (seeded):
/// an entry with `pending == 0`, `dwellDone` and a known state is unchanged, and decides
/// nothing, for every fix further than `band + accuracyFactor * maxAccuracyMeters` from the
/// boundary on its own side, whatever the fix's accuracy, speed (still or not) and time.
@Test func observeLeavesSettledEntriesAloneBeyondTheBound() throws {
    var rng = SplitMix64(seed: 99)
    func pick(_ values: [Double]) -> Double { values[Int(rng.nextUnit() * Double(values.count)) % values.count] }
    let R = Earth.meanRadius
    func chord(_ meters: Double) -> Double { 2 * sin(meters / (2 * R)) }
    var checked = 0
    for _ in 0..<20_000 {
        var c = TransitionDetectorConfiguration.default
        c.hysteresisMeters = pick([0, 10, rng.nextUnit() * 50])
        c.accuracyFactor = pick([0, 0.75, 0.9, rng.nextUnit() * 2])
        c.maxAccuracyMeters = pick([1, 100, rng.nextUnit() * 300])
        c.enterEvidence = pick([0, 2.5, rng.nextUnit() * 10])
        c.exitEvidence = pick([0, 2.5, rng.nextUnit() * 10])
        c.enterEvidencePerFix = pick([0, 0.5, rng.nextUnit() * 3])
        c.exitEvidencePerFix = pick([0, 0.5, rng.nextUnit() * 3])
        c.slowEvidenceCapSigmas = pick([0, 2.5, .infinity, rng.nextUnit() * 20])
        c.slowSpeedMetersPerSecond = pick([0, 8, rng.nextUnit() * 40])
        c.stillSpeedMetersPerSecond = pick([0, 0.8, rng.nextUnit() * 10])
        c.stillEvidencePerFix = pick([0, 0.25, rng.nextUnit() * 3])
        try c.validate()
        let rules = DecisionRules(c)
        let radius = pick([1, 150, 1609.344, 8046.72, rng.nextUnit() * 20_000])
        let band = c.hysteresisMeters
        let state: FenceEntry.State = rng.nextUnit() < 0.5 ? .inside : .outside
        let gap = band + c.accuracyFactor * c.maxAccuracyMeters + pick([0.01, 1, rng.nextUnit() * 2000])
        let d = state == .outside ? radius + gap : radius - gap
        if d < 0 { continue }
        var entry = FenceEntry(slot: 3, hasDwell: rng.nextUnit() < 0.5, state: state)
        let rc = chord(radius)
        entry.since = pick([0, -1e9, rng.nextUnit() * 1e6])
        entry.dwellDone = true
        let before = entry
        let accuracy = pick([0, c.maxAccuracyMeters, rng.nextUnit() * c.maxAccuracyMeters])
        let speed = pick([0, c.slowSpeedMetersPerSecond, 1e9, rng.nextUnit() * 50])
        let cd = chord(d)
        let kind = entry.observe(
            c2: cd * cd, rc: rc, band: band / R,
            accuracyChord: c.accuracyFactor * accuracy / R, exitAccuracyChord: c.accuracyFactor * accuracy / R,
            perSigma: R / Swift.max(0.5, accuracy / 2), evidenceCap: rules.evidenceCap(speed: speed),
            stillAllowance: rules.stillAllowance(speed: speed),
            time: pick([0, 1e9, rng.nextUnit() * 1e6]), dwellSeconds: pick([0, 60, .infinity]), rules: rules)
        #expect(kind == nil, "seed 99: \(c) r \(radius) d \(d)")
        let unchanged = entry.state == before.state && entry.pending == 0 && entry.since == before.since
        #expect(
            unchanged && entry.dwellDone && entry.hasDwell == before.hasDwell && entry.slot == before.slot,
            "seed 99: \(c) r \(radius) d \(d)")
        checked += 1
    }
    #expect(checked > 10_000)
}

/// The new settings are validated (NaN and negative values; an infinite speed), round-trip
/// through JSON, and an encoding without them decodes to the rule it was written with: no cap.
@Test func slowFixSettingsValidateRoundTripAndDecodeWhenAbsent() throws {
    for bad in [-1.0, .nan] {
        var c = TransitionDetectorConfiguration.default
        c.slowEvidenceCapSigmas = bad
        #expect(throws: GeofenceError.self) { try c.validate() }
    }
    for bad in [-1.0, .nan, .infinity] {
        var c = TransitionDetectorConfiguration.default
        c.slowSpeedMetersPerSecond = bad
        #expect(throws: GeofenceError.self) { try c.validate() }
    }
    for preset in [TransitionDetectorConfiguration.default, .precise, .hysteresis, .evidence] {
        try preset.validate()
        let data = try JSONEncoder().encode(preset)
        #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: data) == preset)
    }
    var config = TransitionDetectorConfiguration.default
    config.slowEvidenceCapSigmas = 3.25
    config.slowSpeedMetersPerSecond = 0
    #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: try JSONEncoder().encode(config)) == config)
    // An absent cap is no cap (how an infinite one is encoded); the slow speed is required.
    var expected = config
    expected.slowEvidenceCapSigmas = .infinity
    #expect(try decodedWithout(["slowEvidenceCapSigmas"], from: config) == expected)
    #expect(throws: DecodingError.self) { try decodedWithout(["slowSpeedMetersPerSecond"], from: config) }
    // The presets differ where documented.
    #expect(TransitionDetectorConfiguration.evidence.exitEvidencePerFix == 0.5 && TransitionDetectorConfiguration.default.exitEvidencePerFix == 0.3)
}
