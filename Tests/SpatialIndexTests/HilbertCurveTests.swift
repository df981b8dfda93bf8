import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct HilbertCurveTests {
    /// The first 4^8 indices of the order-16 curve fill the 256 x 256 block at the origin, and
    /// consecutive indices are neighboring cells: the defining property of a Hilbert curve.
    @Test func curveIsContinuousAndBijectiveOnABlock() {
        var cellOf = [(UInt32, UInt32)?](repeating: nil, count: 65536)
        for x in UInt32(0)..<256 {
            for y in UInt32(0)..<256 {
                let d = Int(HilbertCurve.index(x: x, y: y))
                #expect(d < 65536, "(\(x), \(y)) -> \(d) leaves the block")
                if d < 65536 {
                    #expect(cellOf[d] == nil, "index \(d) used twice")
                    cellOf[d] = (x, y)
                }
            }
        }
        for d in 1..<65536 {
            guard let a = cellOf[d - 1], let b = cellOf[d] else { continue }
            let step = abs(Int(a.0) - Int(b.0)) + abs(Int(a.1) - Int(b.1))
            #expect(step == 1, "indices \(d - 1) and \(d) are not neighbors")
        }
        #expect(HilbertCurve.index(x: 0, y: 0) == 0)
        #expect(HilbertCurve.index(x: 65535, y: 65535) <= UInt32.max)
    }

    @Test func keysSeparateFacesAndKeepNeighborsClose() {
        let a = LatLng(uncheckedLatitude: 0, longitude: 0).unitVector
        let b = LatLng(uncheckedLatitude: 0, longitude: 90).unitVector
        let n = LatLng(uncheckedLatitude: 90, longitude: 0).unitVector
        #expect(HilbertCurve.key(a) >> 32 == 0)
        #expect(HilbertCurve.key(b) >> 32 == 1)
        #expect(HilbertCurve.key(n) >> 32 == 2)
        #expect(HilbertCurve.key(-a) >> 32 == 3)
        let near = LatLng(uncheckedLatitude: 0.0001, longitude: 0.0001).unitVector
        #expect(HilbertCurve.key(near) >> 32 == 0)
        #expect(HilbertCurve.key(near) == HilbertCurve.key(a))  // 0.0001 degrees: same 16-bit cell
    }

    /// The degree key: the corners of the latitude/longitude rectangle map to the curve's
    /// corners, out-of-range degrees clamp, NaN gives 0, and points a step apart (of the 16-bit
    /// grid) are neighbors on the curve more often than not.
    @Test func degreeKeys() {
        let last = UInt64(1) << 32 - 1
        #expect(HilbertCurve.key(latitude: -90, longitude: -180) == 0)
        #expect(HilbertCurve.key(latitude: -90, longitude: 180) == last)  // the curve ends at (max, 0)
        #expect(HilbertCurve.key(latitude: 95, longitude: 200) == HilbertCurve.key(latitude: 90, longitude: 180))
        #expect(HilbertCurve.key(latitude: .nan, longitude: .nan) == 0)
        var rng = SplitMix64(seed: 44)
        var adjacent = 0
        for _ in 0..<1000 {
            let lat = rng.nextUnit() * 170 - 85, lon = rng.nextUnit() * 350 - 175
            let a = HilbertCurve.key(latitude: lat, longitude: lon)
            let b = HilbertCurve.key(latitude: lat, longitude: lon + 360.0 / 65535)
            #expect(a <= last && b <= last && a != b)
            if (a > b ? a - b : b - a) == 1 { adjacent += 1 }
        }
        #expect(adjacent > 300)
    }
}
