import FastCSV
import Foundation
import Geodesy
import Geofencing
import SpatialIndex
import Testing
import Workloads
@testable import DetectorScoring

private func ev(_ device: Int32, _ fence: Int32, _ kind: TransitionKind, _ t: Double) -> TransitionEvent {
    TransitionEvent(device: device, fence: fence, kind: kind, time: t)
}

@Test func brushesReversedWithinSixtySecondsAreOptionalInPairs() {
    let truth = TransitionScoring.markBrushes([
        ev(1, 5, .enter, 100), ev(1, 5, .exit, 160),  // 60 s: a brush (both optional)
        ev(1, 5, .enter, 1000), ev(1, 5, .exit, 1061),  // 61 s: real
        ev(2, 5, .enter, 130)  // other device: real
    ])
    #expect(truth.map(\.optional) == [true, true, false, false, false])
}

@Test func matchingWindowIs120SecondsEarlyTo600SecondsLate() {
    let truth = TransitionScoring.markBrushes([ev(1, 5, .enter, 1000), ev(1, 6, .enter, 1000), ev(1, 7, .enter, 1000)])
    let detected = [
        ev(1, 5, .enter, 880),  // 120 s early: matches
        ev(1, 6, .enter, 1600.5),  // 600.5 s late: too late
        ev(1, 7, .exit, 1010),  // wrong kind
        ev(1, 7, .dwell, 1010)
    ]  // dwell: not scored
    let s = TransitionScoring.score(detected: detected, truth: truth)
    #expect(s.detected == 3)
    #expect(s.matched == 1)
    #expect(s.falsePositives == 2)
    #expect(s.falseNegatives == 2)
    #expect(s.latencyP50 == -120)
    #expect(abs(s.falsePositiveRate - 2.0 / 3) < 1e-12 && abs(s.falseNegativeRate - 2.0 / 3) < 1e-12)
    #expect(TransitionScoring.score(detected: [ev(1, 6, .enter, 1600)], truth: truth).matched == 1)
    #expect(TransitionScoring.score(detected: [ev(1, 6, .enter, 879.9)], truth: truth).matched == 0)
}

@Test func eachTruthMatchesOnceAndBrushesAreOptionalButMatchable() {
    // A brush (enter 100, exit 130) and a real enter at 400.
    let truth = TransitionScoring.markBrushes([ev(1, 5, .enter, 100), ev(1, 5, .exit, 130), ev(1, 5, .enter, 400)])
    // Missing the brush costs nothing.
    var s = TransitionScoring.score(detected: [ev(1, 5, .enter, 430)], truth: truth)
    #expect(s.falseNegatives == 0 && s.falsePositives == 0 && s.matched == 1)
    #expect(s.trueTransitions == 3 && s.optionalTransitions == 2 && s.requiredTransitions == 1)
    // The detection at 430 is in the window of both enters: it goes to the required one,
    // and a second detection may take the brush.
    s = TransitionScoring.score(detected: [ev(1, 5, .enter, 120), ev(1, 5, .enter, 430)], truth: truth)
    #expect(s.matched == 2 && s.falsePositives == 0 && s.falseNegatives == 0)
    #expect(s.latencyP50 == 20 && s.latencyP95 == 30)
    // Two detections of one transition: one is a false positive.
    s = TransitionScoring.score(detected: [ev(1, 5, .enter, 410), ev(1, 5, .enter, 420)], truth: truth)
    #expect(s.matched == 2 && s.falsePositives == 0)  // the second takes the optional brush enter
    s = TransitionScoring.score(detected: [ev(1, 5, .enter, 410), ev(1, 5, .enter, 420), ev(1, 5, .enter, 425)], truth: truth)
    #expect(s.matched == 2 && s.falsePositives == 1)
    #expect(abs(s.flapsPerTrueTransition - 1) < 1e-12)
}

@Test func eventsCSVIsDeviceFenceKindTime() {
    let out = CSVWriter(collectingWithCapacity: 64)
    TransitionScoring.writeCSV([ev(3, 12, .enter, 1.5), ev(4, 0, .exit, 20)], header: true, to: out)
    #expect(out.text == "device,fence,kind,t\n3,12,enter,1.500\n4,0,exit,20.000\n")
}

@Test func naiveDetectorReportsEveryRawCrossingButNotTheFirstState() throws {
    let c = try LatLng(latitude: 10, longitude: 10)
    let fences = [try Fence(id: 4, center: c, radiusMeters: 100)]
    var naive = NaiveDetector(index: PackedRTree(fences))
    var events: [TransitionEvent] = []
    for (t, x) in [(0.0, 0.0), (10, 150), (20, 99), (30, 101), (40, 50)] {
        let p = destination(from: c, bearing: 0, distance: x)
        naive.process(device: 9, time: t, latitude: p.latitude, longitude: p.longitude, into: &events)
    }
    #expect(events == [ev(9, 4, .exit, 10), ev(9, 4, .enter, 20), ev(9, 4, .exit, 30), ev(9, 4, .enter, 40)])
}

/// With every defense off, the detector must agree with the naive rule (its oracle).
@Test func detectorWithDefensesOffMatchesTheNaiveDetector() throws {
    let spec = WorkloadSpec(pois: 300, devices: 20, fixes: 20_000, seed: 77)
    let w = WorkloadGenerator.make(spec)
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    let index = PackedRTree(fences)
    var config = TransitionDetectorConfiguration(
        hysteresisMeters: 0, accuracyFactor: 0, maxAccuracyMeters: 1e9,
        enterConfirmations: 1, exitConfirmations: 1,
        maxSpeedMetersPerSecond: 1e12, enterEvidence: 0, exitEvidence: 0)
    config.neighborhoodSlackMeters = 1500
    var detector = try TransitionDetector(fences: fences, index: index, configuration: config)
    let order: (TransitionEvent, TransitionEvent) -> Bool = { ($0.device, $0.time, $0.fence) < ($1.device, $1.time, $1.fence) }
    let got = TransitionScoring.detect(w.fixes, with: &detector).sorted(by: order)
    let want = TransitionScoring.detectNaive(w.fixes, index: index).sorted(by: order)
    #expect(want.count > 100, "seed 77")
    #expect(got == want, "seed 77")
}

/// On a realistic-noise world the default detector must beat the naive one by a wide margin.
@Test func defaultDetectorBeatsNaiveOnRealisticNoise() throws {
    let spec = WorkloadSpec(pois: 300, devices: 30, fixes: 30_000, seed: 5)
    let w = WorkloadGenerator.make(spec)
    let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
    let index = PackedRTree(fences)
    let truth = try TransitionScoring.trueTransitions(w.fixes, index: index)
    var detector = try TransitionDetector(fences: fences, index: index)
    let score = TransitionScoring.score(detected: TransitionScoring.detect(w.fixes, with: &detector), truth: truth)
    let naive = TransitionScoring.score(detected: TransitionScoring.detectNaive(w.fixes, index: index), truth: truth)
    #expect(truth.count > 500, "seed 5")
    #expect(naive.falsePositiveRate > 0.05, "seed 5: naive FP \(naive.falsePositiveRate)")
    #expect(score.falsePositiveRate < naive.falsePositiveRate / 10, "seed 5: FP \(score.falsePositiveRate)")
    #expect(score.falseNegativeRate < 0.02, "seed 5: FN \(score.falseNegativeRate)")
    #expect(score.latencyP95 < 180, "seed 5: p95 \(score.latencyP95)")
}

@Test func falseNegativeBreakdownBucketsMissesByKindHoldAndPreviousMiss() {
    let truth = TransitionScoring.markBrushes([
        ev(1, 5, .enter, 1000), ev(1, 5, .exit, 1100),  // enter held 100 s, missed
        ev(1, 5, .enter, 5000),  // re-enter, held forever, missed after a caught exit
        ev(2, 6, .enter, 1000), ev(2, 6, .exit, 1500),  // enter held 500 s, caught; exit held forever, missed
        ev(3, 7, .enter, 1000), ev(3, 7, .exit, 1030)  // a brush: optional, never counted
    ])
    let detected = [ev(1, 5, .exit, 1110), ev(2, 6, .enter, 1010)]
    let breakdown = TransitionScoring.falseNegativeBreakdown(detected: detected, truth: truth)
    #expect(
        breakdown.map(\.key) == [
            "enter held<120s prevMissed=false", "enter held>=900s prevMissed=false",
            "exit held>=900s prevMissed=false"
        ])
    #expect(breakdown.map(\.count) == [1, 1, 1])
    #expect(breakdown.reduce(0) { $0 + $1.count } == TransitionScoring.score(detected: detected, truth: truth).falseNegatives)
    // Nothing detected: every required transition is a miss; the second of a pair follows a miss.
    let none = TransitionScoring.falseNegativeBreakdown(detected: [], truth: truth)
    #expect(none.first?.key == "exit held>=900s prevMissed=true" && none.first?.count == 2)
    #expect(none.reduce(0) { $0 + $1.count } == 5)
    #expect(none.contains { $0.key == "enter held>=900s prevMissed=true" })
    #expect(TransitionScoring.falseNegativeBreakdown(detected: [], truth: []).isEmpty)
}
