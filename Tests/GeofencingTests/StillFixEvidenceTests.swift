import Foundation
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// The still-fix allowance of ``TransitionDetectorConfiguration/precise`` and of the defaults
/// (thresholds 2.5 at 0.3 per fix, plus 0.7 for a fix of a device slower than 0.8 m/s since its
/// previous fix; a fix slower than 8 m/s counts at most 2.5), on a 150 m fence (id 7). Accuracy 20 m throughout
/// (sigma 10 m): a fix at distance d from the center scores (d - 150) / 10 towards an exit.
private let center = try! LatLng(latitude: 40.0, longitude: -75.0)
private let fence = try! Fence(id: 7, center: center, radiusMeters: 150)

/// Feeds `(time s, meters from the center, bearing degrees)` fixes at accuracy 20 m; returns
/// the events.
private func run(_ fixes: [(t: Double, d: Double, bearing: Double)], _ config: TransitionDetectorConfiguration) throws -> [TransitionEvent] {
    var detector = try TransitionDetector(fences: [fence], configuration: config)
    var events: [TransitionEvent] = []
    for f in fixes {
        let p = destination(from: center, bearing: f.bearing, distance: f.d)
        detector.process(device: 1, time: f.t, latitude: p.latitude, longitude: p.longitude, accuracy: 20, into: &events)
    }
    return events
}

private var withoutStillAllowance: TransitionDetectorConfiguration {
    var c = TransitionDetectorConfiguration.precise
    c.stillEvidencePerFix = 0
    return c
}

/// The device drives in (400 m to 100 m in 30 s: an entry at 30 s) and creeps to 145 m (20 m
/// per 30 s: still).
private let arrive: [(t: Double, d: Double, bearing: Double)] = [(0, 400, 90), (30, 100, 90), (60, 120, 90), (90, 140, 90), (120, 145, 90)]

/// Then it stands at 167 m, 1.7 sigmas outside. Each standing fix scores 1.7 - 0.3 - 0.7 = 0.7
/// (kept in eighths: 0.625, 1.25, 1.875, then 2.575): the exit comes on the fourth; without
/// the still allowance (1.4 a fix: 1.375, then 2.775) on the second.
@Test func aStillDeviceNeedsMoreShallowFixesToExit() throws {
    let stand: [(t: Double, d: Double, bearing: Double)] = (1...6).map { (t: 120 + Double($0) * 30, d: 167, bearing: 90) }
    let precise = try run(arrive + stand, .precise)
    #expect(precise.map(\.kind) == [.enter, .exit])
    #expect(precise.map(\.time) == [30, 240])
    #expect(try run(arrive + stand, withoutStillAllowance).map(\.time) == [30, 180])
    // Standing fixes broken by a fix back at 120 m (47 m in 30 s, not still: -3 - 0.3 clears
    // the sum): three (1.875), then two twice (the first after the break is not still:
    // 1.375, then 2.0): no exit. Without the allowance the second fix exits.
    let flicker: [(t: Double, d: Double, bearing: Double)] = [
        (150, 167, 90), (180, 167, 90), (210, 167, 90), (240, 120, 90),
        (270, 167, 90), (300, 167, 90), (330, 120, 90),
        (360, 167, 90), (390, 167, 90)
    ]
    #expect(try run(arrive + flicker, .precise).map(\.kind) == [.enter])
    let without = try run(arrive + flicker, withoutStillAllowance)
    #expect(without.prefix(2).map(\.kind) == [.enter, .exit] && without.count >= 2 && without[1].time == 180)
}

/// A walker (42 m of arc per 30 s: 1.4 m/s, not still) at the same 167 m exits on the second
/// fix with or without the allowance. Deep still fixes still add up: 165 m (0.5), then 185 m
/// twice (capped at 2.5 as slow fixes: 1.5 each) exit on the third, where the allowance-free
/// rule (1.2, then 2.2) exits on the second.
@Test func theStillAllowanceSparesMovingDevicesAndLetsDeepStillFixesAddUp() throws {
    let degreesPerFix = 42 / 167 * 180 / Double.pi
    let walk: [(t: Double, d: Double, bearing: Double)] = (1...4).map {
        (t: 120 + Double($0) * 30, d: 167, bearing: 90 + Double($0) * degreesPerFix)
    }
    #expect(try run(arrive + walk, .precise).map(\.time) == [30, 180])
    #expect(try run(arrive + walk, withoutStillAllowance).map(\.time) == [30, 180])
    let deep: [(t: Double, d: Double, bearing: Double)] = [(150, 165, 90), (180, 185, 90), (210, 185, 90), (240, 185, 90)]
    #expect(try run(arrive + deep, .precise).map(\.time) == [30, 210])
    #expect(try run(arrive + deep, withoutStillAllowance).map(\.time) == [30, 180])
}

/// Below the still speed a fix pays `stillEvidencePerFix` on top of the per-fix allowance and
/// keeps its evidence cap; at or above it nothing changes (the defaults and ``precise`` alike).
/// With the still speed 0 (``TransitionDetectorConfiguration/evidence``, or the defaults with
/// it set to 0) no fix is still, whatever its speed.
@Test func stillFixesPayTheStillAllowance() throws {
    for config in [TransitionDetectorConfiguration.default, .precise] {
        let rules = DecisionRules(config)
        for (speed, cap, still) in [
            (0.0, 2.5, true), (0.79, 2.5, true), (0.8, 2.5, false), (7.9, 2.5, false), (8, Double.infinity, false), (1e9, .infinity, false)
        ] {
            #expect(rules.evidenceCap(speed: speed) == cap, "speed \(speed)")
            #expect(rules.stillAllowance(speed: speed) == (still ? 0.7 : 0), "speed \(speed)")
        }
    }
    var noStillSpeed = TransitionDetectorConfiguration.default
    noStillSpeed.stillSpeedMetersPerSecond = 0
    for off in [DecisionRules(.evidence), DecisionRules(noStillSpeed)] {
        for speed in [0.0, 0.5, 8, 1e9] {
            #expect(off.stillAllowance(speed: speed) == 0, "speed \(speed)")
        }
    }
}

/// The still settings are validated (negative, NaN, infinite), round-trip through JSON, and an
/// encoding without them decodes to the rule it was written with: no still fixes.
@Test func stillFixSettingsValidateRoundTripAndDecodeWhenAbsent() throws {
    for bad in [-1.0, .nan, .infinity] {
        var a = TransitionDetectorConfiguration.precise
        a.stillSpeedMetersPerSecond = bad
        #expect(throws: GeofenceError.self) { try a.validate() }
        var b = TransitionDetectorConfiguration.precise
        b.stillEvidencePerFix = bad
        #expect(throws: GeofenceError.self) { try b.validate() }
    }
    let precise = TransitionDetectorConfiguration.precise
    #expect(precise.stillSpeedMetersPerSecond == 0.8 && precise.stillEvidencePerFix == 0.7 && precise.maxAccuracyMeters == 50)
    #expect(precise.enterEvidencePerFix == 0.3 && precise.exitEvidencePerFix == 0.3 && precise.exitEvidence == 2.5)
    // The defaults are ``precise`` with a 100 m gate; the other presets have no still rule.
    var gated = TransitionDetectorConfiguration.default
    gated.maxAccuracyMeters = 50
    #expect(gated == precise && TransitionDetectorConfiguration.default.maxAccuracyMeters == 100)
    #expect(
        TransitionDetectorConfiguration.evidence.stillSpeedMetersPerSecond == 0 && TransitionDetectorConfiguration.evidence.stillEvidencePerFix == 0)
    #expect(
        TransitionDetectorConfiguration.hysteresis.stillSpeedMetersPerSecond == 0
            && TransitionDetectorConfiguration.hysteresis.stillEvidencePerFix == 0)
    #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: try JSONEncoder().encode(precise)) == precise)
    // The still rule's settings are required: a missing one is an error, not a silent default.
    #expect(throws: DecodingError.self) { try decodedWithout(["stillSpeedMetersPerSecond"], from: precise) }
    #expect(throws: DecodingError.self) { try decodedWithout(["stillEvidencePerFix"], from: precise) }
}

// MARK: - The defaults' still rule

// On the same fence and accuracy (sigma 10 m), a fix at distance d from the center scores
// (150 - d) / 10 towards an entry and (d - 150) / 10 towards an exit, less 0.3 per fix, and less 0.7 more when the device moved slower than
// 0.8 m/s since its previous fix (a still fix). A standing device whose correlated error holds
// its fixes 0.7-0.95 sigma past the boundary scores 0.7-0.95 - 1 < 0 per fix and never crosses;
// without the still rule, at 0.5 per fix (``withoutStillRule``), each such fix scores at least
// 0.2 (0.125 once kept in eighths), so 20 of them cross.

/// The same evidence rule without the still rule, at the per-fix allowance of 0.5 that suits
/// it (see ``TransitionDetectorConfiguration/enterEvidencePerFix``).
private let withoutStillRule = TransitionDetectorConfiguration(
    enterEvidencePerFix: 0.5, exitEvidencePerFix: 0.5,
    stillSpeedMetersPerSecond: 0, stillEvidencePerFix: 0)

/// A standing device: a first fix decisively on its own side (`start`, more than 0.75 x 20 m
/// from the boundary), its error drifting 10 m per 30 s (0.33 m/s, still) to `drift`, then 40
/// fixes every 30 s wandering (seeded) within `band` meters from the center and 3 degrees of
/// bearing: at most 15 m apart, under 0.8 m/s.
private func standing(start: Double, drift: [Double], band: ClosedRange<Double>, seed: UInt64) -> [(t: Double, d: Double, bearing: Double)] {
    var rng = SplitMix64(seed: seed)
    var fixes = ([start] + drift).enumerated().map { (t: Double($0.offset) * 30, d: $0.element, bearing: 90.0) }
    for k in 1...40 {
        let d = band.lowerBound + rng.nextUnit() * (band.upperBound - band.lowerBound)
        let bearing = 90 + (rng.nextUnit() * 6 - 3)
        fixes.append((t: Double(drift.count + k) * 30, d: d, bearing: bearing))
    }
    return fixes
}

/// Outside at 170 m, the error carries the fixes to 140.5-143 m (0.7-0.95 sigma inside): the
/// defaults never enter; without the still rule the device enters. Mirrored inside (120 m,
/// then 157-159.5 m): the defaults never exit; without it the device exits. Seeds 1-20.
@Test(arguments: UInt64(1)...20)
func theDefaultsIgnoreAStandingDevicesCorrelatedShallowFixes(seed: UInt64) throws {
    let outside = standing(start: 170, drift: [160, 150], band: 140.5...143, seed: seed)
    #expect(try run(outside, .default).isEmpty, "seed \(seed)")
    #expect(try run(outside, withoutStillRule).map(\.kind) == [.enter], "seed \(seed)")
    let inside = standing(start: 120, drift: [130, 140, 150], band: 157...159.5, seed: seed)
    #expect(try run(inside, .default).isEmpty, "seed \(seed)")
    #expect(try run(inside, withoutStillRule).map(\.kind) == [.exit], "seed \(seed)")
}

/// A walker (42 m of arc per 30 s: 1.4 m/s, not still) at the same depth, 141 m (0.9 sigma
/// inside), after a first fix outside at 170 m: each fix is fresh evidence. The defaults score
/// 0.9 - 0.3 = 0.6 a fix (kept in eighths: 0.5, 1.0, 1.5, 2.0, then 2.6) and enter on the fifth
/// fix inside; without the still rule, 0.4 a fix (0.375, 0.75, 1.125, 1.5, 1.875, 2.25, then
/// 2.65), on the seventh. Mirrored (inside at 120 m, then walking at 159 m) the exits come on
/// the same fixes.
@Test func aMovingDeviceStillCrossesOnShallowFixes() throws {
    let degreesPerFix = 42 / 141 * 180 / Double.pi
    let walkIn =
        [(t: 0.0, d: 170.0, bearing: 90.0)]
        + (1...8).map {
            (t: Double($0) * 30, d: 141.0, bearing: 90 + Double($0) * degreesPerFix)
        }
    #expect(try run(walkIn, .default) == [TransitionEvent(device: 1, fence: 7, kind: .enter, time: 150)])
    #expect(try run(walkIn, withoutStillRule).map(\.time) == [210])
    let walkOut =
        [(t: 0.0, d: 120.0, bearing: 90.0)]
        + (1...8).map {
            (t: Double($0) * 30, d: 159.0, bearing: 90 + Double($0) * 42 / 159 * 180 / Double.pi)
        }
    #expect(try run(walkOut, .default) == [TransitionEvent(device: 1, fence: 7, kind: .exit, time: 150)])
    #expect(try run(walkOut, withoutStillRule).map(\.time) == [210])
}
