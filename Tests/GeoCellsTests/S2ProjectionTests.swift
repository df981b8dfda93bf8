import Testing
import Geodesy
@testable import GeoCells

@Suite struct S2ProjectionTests {
    typealias P = S2Projection

    @Test func quadraticProjectionEndpointsAndInverse() {
        #expect(P.stToUV(0) == -1 && P.stToUV(0.5) == 0 && P.stToUV(1) == 1)
        #expect(P.uvToST(-1) == 0 && P.uvToST(0) == 0.5 && P.uvToST(1) == 1)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1000 {
            let s = rng.nextUnit()
            #expect(abs(P.uvToST(P.stToUV(s)) - s) <= 4e-16, "seed 5 s \(s)")
            let u = 2 * rng.nextUnit() - 1
            #expect(abs(P.stToUV(P.uvToST(u)) - u) <= 4e-16, "seed 5 u \(u)")
        }
    }

    @Test func stToIJRoundsHalfToEvenAndClamps() {
        // S2 rounds 2^30 s - 0.5 with cvtsd2si (round half to even): at exact grid lines
        // s = k / 2^30 the value is k - 0.5.
        let scale = 1.0 / Double(1 << 30)
        #expect(P.stToIJ(3 * scale) == 2)
        #expect(P.stToIJ(4 * scale) == 4)
        #expect(P.stToIJ(5 * scale) == 4)
        #expect(P.stToIJ(0.5) == 1 << 29)
        #expect(P.stToIJ(0) == 0 && P.stToIJ(-0.25) == 0)
        #expect(P.stToIJ(1) == (1 << 30) - 1 && P.stToIJ(7) == (1 << 30) - 1)
        #expect(P.stToIJ(.nan) == 0)
        // Interior of each leaf maps to that leaf.
        var rng = SplitMix64(seed: 6)
        for _ in 0..<1000 {
            let i = Int(rng.next() % UInt64(1 << 30))
            #expect(P.stToIJ(P.ijToSTMin(i) + 0.5 * scale) == i)
            #expect(P.stToIJ(P.ijToSTMin(i) + 0.1 * scale) == i)
            #expect(P.stToIJ(P.ijToSTMin(i) + 0.9 * scale) == i)
        }
        #expect(P.ijToSTMin(1 << 30) == 1)
        #expect(P.siTiToST(1 << 31) == 1 && P.siTiToST(1 << 30) == 0.5)
        #expect(P.stToSiTi(0.5) == 1 << 30 && P.stToSiTi(1) == 1 << 31)
    }

    @Test func faceSelectionAndTies() {
        #expect(P.face(of: UnitVector(x: 1, y: 0, z: 0)) == 0)
        #expect(P.face(of: UnitVector(x: 0, y: -1, z: 0)) == 4)
        #expect(P.face(of: UnitVector(x: 0, y: 0, z: -1)) == 5)
        // LargestAbsComponent: |x| == |y| picks y unless |y| <= |z|; |x| == |z| picks z.
        #expect(P.face(of: UnitVector(x: 1, y: 1, z: 0)) == 1)
        #expect(P.face(of: UnitVector(x: -1, y: 0, z: 1)) == 2)
        #expect(P.face(of: UnitVector(x: 0, y: 1, z: -1)) == 5)
        #expect(P.face(of: UnitVector(x: -1, y: -1, z: -1)) == 5)
    }

    @Test func uvRoundTripAndFrames() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let p = randomPoint(&rng)
            let (face, uv) = P.xyzToFaceUV(p)
            #expect(abs(uv.u) <= 1 && abs(uv.v) <= 1)
            let q = P.faceUVToXYZ(face, uv).normalized
            #expect(q.chord2(to: p) < 1e-30, "seed 7 \(p)")
            #expect(P.faceXYZToUV(face, p) == uv)
            #expect(P.faceXYZToUV((face + 3) % 6, p) == nil)
            let uvw = P.faceXYZToUVW(face, p)
            #expect(uvw.x == p.dot(P.uAxis(face)) && uvw.y == p.dot(P.vAxis(face)) && uvw.z == p.dot(P.faceNormal(face)))
        }
        for face in 0..<6 {
            #expect(P.faceNormal(face) == P.faceUVToXYZ(face, 0, 0))
            #expect(P.uAxis(face).cross(P.vAxis(face)) == P.faceNormal(face))  // right-handed
            for _ in 0..<50 {
                let u = 2 * rng.nextUnit() - 1, v = 2 * rng.nextUnit() - 1
                let p = P.faceUVToXYZ(face, u, v)
                let q = P.faceNormal(face) + P.uAxis(face) * u + P.vAxis(face) * v
                #expect(p == q)
                // Edge normals are perpendicular to their edge and right-handed along +v / +u.
                #expect(P.uNorm(face, u).dot(p) == 0)
                #expect(P.vNorm(face, v).dot(p) == 0)
                #expect(P.uNorm(face, u).dot(P.faceUVToXYZ(face, u, -1).cross(P.faceUVToXYZ(face, u, 1))) > 0)
                #expect(P.vNorm(face, v).dot(P.faceUVToXYZ(face, -1, v).cross(P.faceUVToXYZ(face, 1, v))) > 0)
            }
        }
    }

    @Test func adjacentFacesMatchS2Table() {
        // S2's kFaceUVWFaces: [face][axis][direction].
        let table = [
            [[4, 1], [5, 2], [3, 0]], [[0, 3], [5, 2], [4, 1]], [[0, 3], [1, 4], [5, 2]],
            [[2, 5], [1, 4], [0, 3]], [[2, 5], [3, 0], [1, 4]], [[4, 1], [3, 0], [2, 5]]
        ]
        for face in 0..<6 {
            for axis in 0..<3 {
                for dir in 0..<2 {
                    #expect(P.uvwFace(face, axis, dir) == table[face][axis][dir])
                }
            }
        }
    }

    /// S2's branchy reference formulas, written out plainly, against the optimized ones.
    @Test func optimizedFormsAreBitIdenticalToS2Reference() {
        func refFace(_ p: UnitVector) -> Int {
            let ax = abs(p.x), ay = abs(p.y), az = abs(p.z)
            var f = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2)
            if [p.x, p.y, p.z][f] < 0 { f += 3 }
            return f
        }
        func refUVToST(_ u: Double) -> Double {
            u >= 0 ? 0.5 * (1 + 3 * u).squareRoot() : 1 - 0.5 * (1 - 3 * u).squareRoot()
        }
        func refSTToIJ(_ s: Double) -> Int {
            max(0, min((1 << 30) - 1, Int((Double(1 << 30) * s - 0.5).rounded(.toNearestOrEven))))
        }
        let seed: UInt64 = 0xB17
        var rng = SplitMix64(seed: seed)
        var points: [UnitVector] = []
        for _ in 0..<4000 { points.append(randomPoint(&rng)) }
        // Ties between components: cube edges and corners, with both signs and zeros.
        for _ in 0..<500 {
            let a = rng.nextUnit(), b = rng.nextUnit()
            let s1: Double = rng.next() & 1 == 0 ? 1 : -1, s2: Double = rng.next() & 1 == 0 ? 1 : -1
            points.append(UnitVector(x: s1 * a, y: s2 * a, z: b))
            points.append(UnitVector(x: b, y: s1 * a, z: s2 * a))
            points.append(UnitVector(x: s1 * a, y: b, z: s2 * a))
            points.append(UnitVector(x: s1 * a, y: s2 * a, z: -a))
            points.append(UnitVector(x: 0, y: s1 * a, z: -0.0))
        }
        for p in points {
            let (face, uv) = P.xyzToFaceUV(p)
            #expect(face == refFace(p), "seed \(seed) \(p)")
            let want = P.validFaceXYZToUV(face, p)
            #expect(uv.u.bitPattern == want.u.bitPattern && uv.v.bitPattern == want.v.bitPattern, "seed \(seed) \(p)")
            #expect(P.face(of: p) == face)
        }
        for _ in 0..<4000 {
            let u = 2 * rng.nextUnit() - 1
            #expect(P.uvToST(u).bitPattern == refUVToST(u).bitPattern, "seed \(seed) u \(u)")
            #expect(P.uvToST(-u).bitPattern == refUVToST(-u).bitPattern, "seed \(seed) u \(-u)")
            let s = 1.1 * rng.nextUnit() - 0.05
            #expect(P.stToIJ(s) == refSTToIJ(s), "seed \(seed) s \(s)")
            let k = Double(rng.next() % (1 << 30))
            #expect(P.stToIJ(k / Double(1 << 30)) == refSTToIJ(k / Double(1 << 30)))
        }
        #expect(P.uvToST(-0.0).bitPattern == refUVToST(-0.0).bitPattern)
    }
}
