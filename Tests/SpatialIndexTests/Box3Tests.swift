import Foundation
import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct Box3Tests {
    /// The farthest point of the cap along +axis k (or -axis): the center rotated by the angular
    /// radius toward the axis, or the axis itself when the cap contains it.
    func extreme(_ c: UnitVector, angle a: Double, axis k: Int, sign: Double) -> Double {
        let comps = [c.x, c.y, c.z]
        let ck = comps[k] * sign
        if ck >= cos(a) { return sign }  // the axis end lies inside the cap
        var t = [0.0, 0.0, 0.0]
        t[k] = sign
        let tangent = UnitVector(x: t[0] - ck * c.x, y: t[1] - ck * c.y, z: t[2] - ck * c.z)
            .normalized
        let p = c * cos(a) + tangent * sin(a)
        return [p.x, p.y, p.z][k]
    }

    @Test func capBoxIsTightAndContainsTheCap() {
        let seed: UInt64 = 21
        var rng = SplitMix64(seed: seed)
        for trial in 0..<3000 {
            let center = trial < TestWorld.specialPlaces.count ? TestWorld.specialPlaces[trial] : TestWorld.uniform(&rng)
            let r = TestWorld.radius(&rng)
            let f = try! Fence(id: 0, center: center, radiusMeters: r)
            let box = Box3(capCenter: f.centerVector, chord2: f.chord2)
            let a = min(r / Earth.meanRadius, .pi)
            let lo = [box.minX, box.minY, box.minZ], hi = [box.maxX, box.maxY, box.maxZ]
            for k in 0..<3 {
                let top = extreme(f.centerVector, angle: a, axis: k, sign: 1)
                let bottom = extreme(f.centerVector, angle: a, axis: k, sign: -1)
                // Contains (with its slack) and is tight to Float precision plus the slack.
                #expect(Double(hi[k]) >= top && Double(hi[k]) - top < 1e-6, "axis \(k) max, \(f), seed \(seed)")
                #expect(Double(lo[k]) <= bottom && bottom - Double(lo[k]) < 1e-6, "axis \(k) min, \(f), seed \(seed)")
            }
            // Points on the boundary circle and inside are in the box.
            for _ in 0..<8 {
                let p = TestWorld.destination(center, bearingDegrees: rng.nextUnit() * 360, meters: r * rng.nextUnit())
                let v = p.unitVector
                #expect(box.contains(x: Float(v.x), y: Float(v.y), z: Float(v.z)), "\(p) in box of \(f), seed \(seed)")
            }
        }
    }

    @Test func queryCubeContainsTheBall() {
        var rng = SplitMix64(seed: 22)
        for _ in 0..<1000 {
            let p = TestWorld.uniform(&rng)
            let d = rng.nextUnit() * 1_000_000
            let cube = Box3(around: p.unitVector, chord2: Fence.chord2(forRadiusMeters: d))
            let q = TestWorld.destination(p, bearingDegrees: rng.nextUnit() * 360, meters: d).unitVector
            #expect(cube.contains(x: Float(q.x), y: Float(q.y), z: Float(q.z)), "seed 22")
        }
    }

    @Test func distanceIsZeroInsideAndALowerBoundOutside() {
        let b = Box3(minX: 0, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1)
        #expect(b.distance(to: UnitVector(x: 0.5, y: 0.5, z: 0.5)) == 0)
        #expect(b.distance(to: UnitVector(x: 2, y: 0.5, z: 0.5)) == 1)
        #expect(abs(b.distance(to: UnitVector(x: -1, y: -1, z: 0.5)) - 2.0.squareRoot()) < 1e-15)
    }
}
