import Foundation
import Geodesy
import Testing

@testable import GeoCells

@Suite struct ChordAngleTests {
    @Test func specialValuesAreOrdered() {
        #expect(ChordAngle.negative < .zero)
        #expect(ChordAngle.zero < .right)
        #expect(ChordAngle.right < .straight)
        #expect(ChordAngle.straight < .infinity)
        #expect(ChordAngle.negative.isSpecial && ChordAngle.infinity.isSpecial)
        #expect(!ChordAngle.straight.isSpecial)
        #expect(ChordAngle.negative.radians == -1)
        #expect(ChordAngle.infinity.radians == .infinity)
        #expect(ChordAngle(radians: -0.5) == .negative)
        #expect(ChordAngle(radians: .infinity) == .infinity)
    }

    @Test func knownAngles() {
        #expect(ChordAngle(radians: 0).length2 == 0)
        #expect(abs(ChordAngle(radians: .pi / 2).length2 - 2) < 1e-15)
        #expect(ChordAngle(radians: .pi).length2 == 4)
        // Angles beyond π are clamped to π.
        #expect(ChordAngle(radians: 7).length2 == 4)
        #expect(ChordAngle(length2: 9).length2 == 4)
        #expect(abs(ChordAngle.right.radians - .pi / 2) < 1e-15)
        #expect(ChordAngle.straight.radians == .pi)
        // 1 km on the sphere of radius 6,371,008.8 m.
        let km = ChordAngle(meters: 1000)
        #expect(abs(km.meters - 1000) < 1e-9)  // 1 nm
    }

    @Test func radiansRoundTrip() {
        let seed: UInt64 = 0xC0FFEE
        var rng = SplitMix64(seed: seed)
        for _ in 0..<2000 {
            // Log-uniform angles from 1e-9 rad (6 mm) to π.
            let a = exp(log(1e-9) + rng.nextUnit() * (log(Double.pi) - log(1e-9)))
            let back = ChordAngle(radians: a).radians
            // asin loses relative precision near π: compare the chord instead there.
            let tolerance = a > 3 ? 1e-7 : (a > 1 ? 1e-14 : a * 1e-15)
            #expect(abs(back - a) <= tolerance, "seed \(seed): \(a) -> \(back)")
            // Monotone: a slightly larger angle never has a smaller chord.
            #expect(ChordAngle(radians: a * (1 + 1e-12)) >= ChordAngle(radians: a), "seed \(seed)")
        }
    }

    @Test func pointConstructorMatchesAngle() {
        let seed: UInt64 = 7
        var rng = SplitMix64(seed: seed)
        for _ in 0..<500 {
            let a = try! LatLng(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
            let b = try! LatLng(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
            let pa = a.unitVector, pb = b.unitVector
            let angle = atan2(pa.cross(pb).norm, pa.dot(pb))
            let chord = ChordAngle(pa, pb)
            #expect(abs(chord.radians - angle) < 1e-7, "seed \(seed)")
            #expect(abs(chord.length2 - ChordAngle(radians: angle).length2) < 1e-14, "seed \(seed)")
        }
    }

    @Test func additionMatchesAngleSum() {
        let seed: UInt64 = 99
        var rng = SplitMix64(seed: seed)
        for _ in 0..<1000 {
            let a = rng.nextUnit() * 1.5, b = rng.nextUnit() * 1.5
            let sum = ChordAngle(radians: a) + ChordAngle(radians: b)
            #expect(abs(sum.radians - min(.pi, a + b)) < 1e-7, "seed \(seed): \(a) + \(b)")
            let diff = ChordAngle(radians: max(a, b)) - ChordAngle(radians: min(a, b))
            #expect(abs(diff.radians - abs(a - b)) < 1e-7, "seed \(seed): \(a) - \(b)")
        }
        #expect(ChordAngle.right + .right == .straight)
        #expect(ChordAngle.right + .zero == .right)
    }

    @Test func errorAndNeighbors() {
        let a = ChordAngle(length2: 1)
        #expect(a.plusError(0.5).length2 == 1.5)
        #expect(a.plusError(-2).length2 == 0)
        #expect(a.plusError(10).length2 == 4)
        #expect(ChordAngle.negative.plusError(1) == .negative)
        #expect(a.successor.length2 == (1.0).nextUp)
        #expect(a.predecessor.length2 == (1.0).nextDown)
        #expect(ChordAngle.zero.predecessor == .negative)
        #expect(ChordAngle.negative.successor == .zero)
        #expect(ChordAngle.straight.successor == .infinity)
        #expect(ChordAngle.infinity.predecessor == .straight)
        #expect(a.sinSquared == 0.75)
        #expect(a.cosine == 0.5)  // 60 degrees
    }
}
