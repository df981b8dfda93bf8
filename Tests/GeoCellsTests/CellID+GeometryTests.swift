import Testing
import Geodesy
@testable import GeoCells

/// Seeded tests of cell centers and (face, i, j) conversion.
@Suite struct CellIDGeometryTests {
    @Test func centerMapsBackIntoTheCell() {
        let seed: UInt64 = 20_261_122
        var rng = SplitMix64(seed: seed)
        for _ in 0..<3000 {
            let lat = 180 * rng.nextUnit() - 90, lng = 360 * rng.nextUnit() - 180
            let ll = LatLng(uncheckedLatitude: lat, longitude: lng)
            let level = Int(rng.next() % 31)
            let cell = CellID(ll).parent(level: level)
            #expect(CellID(cell.centerPoint).parent(level: level) == cell, "seed \(seed) \(ll) level \(level)")
            #expect(CellID(cell.centerLatLng).parent(level: level) == cell, "seed \(seed) \(ll) level \(level)")
            #expect(Cell(cell).contains(ll.unitVector), "seed \(seed) \(ll) level \(level)")
        }
    }

    @Test func centerAccessorsAgree() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<500 {
            let c = randomCell(&rng, level: Int(rng.next() % 31))
            let st = c.centerST, uv = c.centerUV
            #expect(S2Projection.stToUV(st.s) == uv.u && S2Projection.stToUV(st.t) == uv.v)
            let raw = S2Projection.faceUVToXYZ(c.face, uv)
            #expect(raw == c.centerPointRaw)
            #expect(abs(c.centerPoint.norm - 1) < 1e-15)
            #expect(c.boundUV == Cell(c).uvBounds)
            #expect(c.boundUV.contains(uv))
        }
    }
}
