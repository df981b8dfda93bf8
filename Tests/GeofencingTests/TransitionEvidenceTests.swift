import Foundation
import Geodesy
import SpatialIndex
import Testing
@testable import Geofencing

/// A 150 m fence (id 7) and fixes east of its center, for the evidence (CUSUM) entry and exit modes.
private let center = try! LatLng(latitude: 40.0, longitude: -75.0)
private let fence = try! Fence(id: 7, center: center, radiusMeters: 150)

private func run(_ config: TransitionDetectorConfiguration, _ fixes: [(t: Double, east: Double, accuracy: Double)])
    throws -> [TransitionEvent]
{
    var d = try TransitionDetector(fences: [fence], configuration: config)
    var events: [TransitionEvent] = []
    for f in fixes {
        let p = destination(from: center, bearing: 90, distance: f.east)
        d.process(device: 1, time: f.t, latitude: p.latitude, longitude: p.longitude, accuracy: f.accuracy, into: &events)
    }
    return events
}

/// Evidence 1.5 with 1 per fix, accuracy 20 m (sigma 10 m): a fix at distance d scores
/// (150 - d) / 10 - 1. Hand-computed cases: one deep fix (d = 100: 5 - 1 = 4 >= 1.5) enters at
/// once; one shallow fix (d = 130: 2 - 1 = 1) does not, two in a row (1 + 1 = 2) do; a lone
/// outlier deep inside (d = 120: 3 - 1 = 2 >= 1.5) enters too, but a shallow one (d = 135,
/// 0.5) is forgotten after one fix outside (d = 200: -5 - 1 < 0), while three at d = 134
/// (0.6 each, kept in eighths: 0.5, then 1.0, then 1.6) enter on the third.
@Test func evidenceAccumulatesOverFixesAndForgetsOutliers() throws {
    var config = TransitionDetectorConfiguration.hysteresis
    config.enterEvidence = 1.5
    config.enterEvidencePerFix = 1
    let start: [(t: Double, east: Double, accuracy: Double)] = [(0, 400, 20)]  // decisively outside first
    #expect(try run(config, start + [(30, 100, 20)]).map(\.time) == [30])
    #expect(try run(config, start + [(30, 130, 20)]).isEmpty)
    #expect(try run(config, start + [(30, 130, 20), (60, 130, 20)]).map(\.time) == [60])
    #expect(try run(config, start + [(30, 135, 20), (60, 200, 20), (90, 135, 20)]).isEmpty)
    #expect(try run(config, start + [(30, 134, 20), (60, 134, 20), (90, 134, 20)]).map(\.time) == [90])
    // The hysteresis rule enters on the single shallow fix (130 < 150 - 0.9 * 20 = 132).
    #expect(try run(.hysteresis, start + [(30, 130, 20)]).map(\.time) == [30])
    // Exits are unchanged: two decisive fixes outside.
    let exit = try run(config, start + [(30, 100, 20), (60, 300, 20), (90, 300, 20)])
    #expect(exit.map(\.kind) == [.enter, .exit] && exit.map(\.time) == [30, 90])
}

/// The evidence settings are validated, and configurations encoded without the entry evidence
/// fields decode with entry evidence off (threshold 0, 1 per fix); with them, they round-trip.
@Test func evidenceSettingsValidateAndDecode() throws {
    for bad in [-1.0, .nan, .infinity] {
        var c = TransitionDetectorConfiguration.default
        c.enterEvidence = bad
        #expect(throws: GeofenceError.self) { try c.validate() }
        c = .default
        c.enterEvidencePerFix = bad
        #expect(throws: GeofenceError.self) { try c.validate() }
    }
    var config = TransitionDetectorConfiguration.default
    config.enterEvidence = 2.5
    config.enterEvidencePerFix = 0.75
    let data = try JSONEncoder().encode(config)
    #expect(try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: data) == config)
    // Every evidence setting is required: a missing one is an error, not a silent default.
    for key in ["enterEvidence", "enterEvidencePerFix", "exitEvidence", "exitEvidencePerFix", "accuracyFactor"] {
        #expect(throws: DecodingError.self, "\(key)") { try decodedWithout([key], from: .default) }
    }
}

/// Exit evidence 3 with 1 per fix, accuracy 20 m (sigma 10 m): a fix at distance d scores
/// (d - 150) / 10 - 1. One fix at d = 200 (4 >= 3) exits at once; one at d = 180 (2, a hair
/// less as a chord, kept as 15/8) does not, a second (15/8 + 2) does; a lone outlier at 185
/// (2.5) followed by a fix back inside (d = 100: -6) is forgotten.
@Test func exitEvidenceAccumulatesOverFixesAndForgetsOutliers() throws {
    var config = TransitionDetectorConfiguration.hysteresis
    config.exitEvidence = 3
    config.exitEvidencePerFix = 1
    let start: [(t: Double, east: Double, accuracy: Double)] = [(0, 400, 20), (30, 50, 20)]  // outside, then enter
    #expect(try run(config, start).map(\.kind) == [.enter])
    #expect(try run(config, start + [(60, 200, 20)]).map(\.time) == [30, 60])
    #expect(try run(config, start + [(60, 180, 20)]).map(\.time) == [30])
    #expect(try run(config, start + [(60, 180, 20), (90, 180, 20)]).map(\.time) == [30, 90])
    #expect(try run(config, start + [(60, 185, 20), (90, 100, 20), (120, 185, 20)]).map(\.time) == [30])
    // The hysteresis rule needs two decisive fixes (d > 150 + 18), so 200 alone does not exit.
    #expect(try run(.hysteresis, start + [(60, 200, 20)]).map(\.time) == [30])
}
