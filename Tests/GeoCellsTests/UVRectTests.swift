import Testing
@testable import GeoCells

@Suite struct UVRectTests {
    @Test func verticesContainmentAndExpansion() {
        let r = UVRect(uLo: -0.5, uHi: 0.25, vLo: 0, vHi: 1)
        #expect(r.vertex(0) == UVPoint(u: -0.5, v: 0))
        #expect(r.vertex(1) == UVPoint(u: 0.25, v: 0))
        #expect(r.vertex(2) == UVPoint(u: 0.25, v: 1))
        #expect(r.vertex(3) == UVPoint(u: -0.5, v: 1))
        #expect(r.center == UVPoint(u: -0.125, v: 0.5))
        #expect(r.contains(UVPoint(u: 0.25, v: 1)) && !r.contains(UVPoint(u: 0.26, v: 0.5)))
        #expect(r.expanded(by: 0.01).contains(UVPoint(u: 0.26, v: 0.5)))
        #expect(r[0, 0] == -0.5 && r[0, 1] == 0.25 && r[1, 0] == 0 && r[1, 1] == 1)
        var m = r
        m[1, 1] = 0.5
        #expect(m.vHi == 0.5)
    }
}
