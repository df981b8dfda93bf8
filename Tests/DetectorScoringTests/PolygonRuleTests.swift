import GeoCells
import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import DetectorScoring

/// The scores of `configuration` on the embedded generator's polygon world of `seed` (300
/// polygon fences, no circles, 60 devices, 60,000 fixes, realistic noise; not a world the
/// polygon factors were tuned on), polygon truth.
private func polygonScores(_ configuration: TransitionDetectorConfiguration, seed: UInt64) throws -> (TransitionScore, naive: TransitionScore) {
    let w = WorkloadGenerator.make(WorkloadSpec(pois: 0, devices: 60, fixes: 60_000, seed: seed, polygons: 300))
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    let outlines = try FenceOutlines(w.polygons.map { (id: $0.id, polygon: try Polygon(latLngRings: $0.rings)) })
    let index = PackedRTree(fences)
    let truth = try TransitionScoring.trueTransitions(w.fixes, index: index, outlines: outlines)
    var detector = try TransitionDetector(fences: fences, outlines: outlines, configuration: configuration)
    let score = TransitionScoring.score(detected: TransitionScoring.detect(w.fixes, with: &detector), truth: truth)
    let naive = TransitionScoring.score(detected: TransitionScoring.detectNaive(w.fixes, index: index, outlines: outlines), truth: truth)
    return (score, naive)
}

/// Polygon fences are decided by the hysteresis rule with their own margins, whatever the
/// circles' rule: on a seeded polygon world the defaults keep false positives and negatives
/// low, a small exit margin lets devices standing near a wall flap, and a large entry margin
/// misses visits that stand a few meters inside one; each holds for the margins of still fixes
/// alone.
@Test func polygonMarginsTradeFlapsForMissedVisits() throws {
    let (defaults, naive) = try polygonScores(.default, seed: 3)
    #expect(defaults.requiredTransitions > 800, "\(defaults.requiredTransitions) required transitions")
    #expect(defaults.falsePositiveRate < 0.006 && defaults.falseNegativeRate < 0.012, "\(defaults)")
    #expect(defaults.falsePositives * 20 < naive.falsePositives, "\(defaults.falsePositives) against naive \(naive.falsePositives)")
    var loose = TransitionDetectorConfiguration.default
    loose.polygonExitAccuracyFactor = 0.3
    loose.polygonStillExitAccuracyFactor = 0.3
    let flapping = try polygonScores(loose, seed: 3).0
    #expect(flapping.falsePositives > 3 * defaults.falsePositives + 5, "exit 0.3: \(flapping.falsePositives) against \(defaults.falsePositives)")
    var strict = TransitionDetectorConfiguration.default
    strict.polygonEnterAccuracyFactor = 3
    strict.polygonStillEnterAccuracyFactor = 3
    let missing = try polygonScores(strict, seed: 3).0
    #expect(missing.falseNegatives > 2 * defaults.falseNegatives + 5, "entry 3: \(missing.falseNegatives) against \(defaults.falseNegatives)")
    // The still fixes' margins alone (devices slower than 0.8 m/s since their previous fix).
    var looseStill = TransitionDetectorConfiguration.default
    looseStill.polygonStillExitAccuracyFactor = 0.3
    let stillFlapping = try polygonScores(looseStill, seed: 3).0
    #expect(
        stillFlapping.falsePositives > 3 * defaults.falsePositives + 5,
        "still exit 0.3: \(stillFlapping.falsePositives) against \(defaults.falsePositives)")
    var strictStill = TransitionDetectorConfiguration.default
    strictStill.polygonStillEnterAccuracyFactor = 3
    let stillMissing = try polygonScores(strictStill, seed: 3).0
    #expect(
        stillMissing.falseNegatives > defaults.falseNegatives + 5,
        "still entry 3: \(stillMissing.falseNegatives) against \(defaults.falseNegatives)")
    // The circles' rule does not reach polygon fences: the hysteresis preset, whose
    // differences from the defaults are circle settings and the still speed (0: no fix is
    // still), gives the polygon events of the defaults without still fixes.
    var noStill = TransitionDetectorConfiguration.default
    noStill.stillSpeedMetersPerSecond = 0
    #expect(try polygonScores(.hysteresis, seed: 3).0 == polygonScores(noStill, seed: 3).0)
}
