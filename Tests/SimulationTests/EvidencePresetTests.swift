import Geodesy
import Geofencing
import SpatialIndex
import Testing
@testable import Simulation

/// The documented evidence preset on a realistic-noise world (seeded, not the one it was tuned
/// on): valid, far fewer false positives than the naive detector, few false negatives, and
/// exits no later than the defaults' (p95 latency at most theirs).
@Test(arguments: [UInt64(5), 8])
func evidencePresetBeatsNaiveOnRealisticNoise(seed: UInt64) throws {
    try TransitionDetectorConfiguration.evidence.validate()
    let spec = WorkloadSpec(pois: 300, devices: 30, fixes: 30_000, seed: seed)
    let w = WorkloadGenerator.make(spec)
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    let index = PackedRTree(fences)
    let truth = try TransitionScoring.trueTransitions(w.fixes, index: index)
    var evidence = try TransitionDetector(fences: fences, configuration: .evidence)
    var defaults = try TransitionDetector(fences: fences)
    let score = TransitionScoring.score(detected: TransitionScoring.detect(w.fixes, with: &evidence), truth: truth)
    let base = TransitionScoring.score(detected: TransitionScoring.detect(w.fixes, with: &defaults), truth: truth)
    let naive = TransitionScoring.score(detected: TransitionScoring.detectNaive(w.fixes, index: index), truth: truth)
    #expect(truth.count > 300, "seed \(seed): \(truth.count) true transitions")
    #expect(score.falsePositiveRate < naive.falsePositiveRate / 10, "seed \(seed): FP \(score.falsePositiveRate)")
    #expect(score.falseNegativeRate < 0.02, "seed \(seed): FN \(score.falseNegativeRate)")
    #expect(score.latencyP95 <= base.latencyP95, "seed \(seed): p95 \(score.latencyP95) against \(base.latencyP95)")
}
