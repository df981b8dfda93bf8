import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// The defaults' still rule, on a 150 m fence (id 7) and fixes at accuracy 20 m (sigma 10 m):
/// a fix at distance d from the centre scores (150 - d) / 10 towards an entry and (d - 150) / 10
/// towards an exit, less 0.3 per fix, and less 0.7 more when the device moved slower than
/// 0.8 m/s since its previous fix (a still fix). A standing device whose correlated error holds
/// its fixes 0.7-0.95 sigma past the boundary scores 0.7-0.95 - 1 < 0 per fix and never crosses;
/// without the still rule, at 0.5 per fix (``withoutStillRule``), each such fix scores at least
/// 0.2 (0.125 once kept in eighths), so 20 of them cross.
private let center = try! LatLng(latitude: 40.0, longitude: -75.0)
private let fence = try! Fence(id: 7, center: center, radiusMeters: 150)

/// The same evidence rule without the still rule, at the per-fix allowance of 0.5 that suits
/// it (see ``TransitionDetectorConfiguration/enterEvidencePerFix``).
private let withoutStillRule = TransitionDetectorConfiguration(enterEvidencePerFix: 0.5, exitEvidencePerFix: 0.5,
                                                               stillSpeedMetersPerSecond: 0, stillEvidencePerFix: 0)

/// Feeds `(time s, metres from the centre, bearing degrees)` fixes at accuracy 20 m; returns
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

/// A standing device: a first fix decisively on its own side (`start`, more than 0.75 x 20 m
/// from the boundary), its error drifting 10 m per 30 s (0.33 m/s, still) to `drift`, then 40
/// fixes every 30 s wandering (seeded) within `band` metres from the centre and 3 degrees of
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
    let walkIn = [(t: 0.0, d: 170.0, bearing: 90.0)] + (1...8).map {
        (t: Double($0) * 30, d: 141.0, bearing: 90 + Double($0) * degreesPerFix)
    }
    #expect(try run(walkIn, .default) == [TransitionEvent(device: 1, fence: 7, kind: .enter, time: 150)])
    #expect(try run(walkIn, withoutStillRule).map(\.time) == [210])
    let walkOut = [(t: 0.0, d: 120.0, bearing: 90.0)] + (1...8).map {
        (t: Double($0) * 30, d: 159.0, bearing: 90 + Double($0) * 42 / 159 * 180 / Double.pi)
    }
    #expect(try run(walkOut, .default) == [TransitionEvent(device: 1, fence: 7, kind: .exit, time: 150)])
    #expect(try run(walkOut, withoutStillRule).map(\.time) == [210])
}
