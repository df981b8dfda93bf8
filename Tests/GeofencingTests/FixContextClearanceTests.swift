import Testing
@testable import Geofencing
import Geodesy
import SpatialIndex

/// `FixContext.clearance` computes the state's side of the boundary with no branch (the sign
/// bit of `c - rc` flipped for an entry inside). It must equal the plain two-sided formula bit
/// for bit, since the visiting rule's due readings come from it.
@Suite struct FixContextClearanceTests {
    /// The two-sided formula the branch-free one replaces.
    static func reference(_ e: FenceEntry, c2: Double, _ g: FenceGeometry) -> Double {
        let c = c2.squareRoot()
        return (e.state == .outside ? c - g.radiusChord : g.radiusChord - c) + g.band - 1e-12
    }

    /// Seeded random fences and fixes near their boundaries (including fixes exactly on the
    /// boundary, where `c - rc` is zero), for settled entries in either state.
    @Test func matchesTheTwoSidedFormulaExactly() {
        var random = SplitMix64(seed: 20_261_125)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var onBoundary = 0
        for k in 0..<20_000 {
            let radiusMeters = 10 + uniform() * 20_000
            let rc = Fence.chord2(forRadiusMeters: radiusMeters).squareRoot()
            let band = (k % 3 == 0 ? 0 : uniform() * 200) / Earth.meanRadius
            let g = FenceGeometry(
                center: UnitVector(fastLatitude: 0, longitude: 0), radiusChord: rc, band: band,
                dwellSeconds: .infinity)
            // Distances within 300 m of the boundary; every 50th exactly on it.
            let c = k % 50 == 0 ? rc : Swift.max(0, rc + (uniform() - 0.5) * 600 / Earth.meanRadius)
            if c == rc { onBoundary += 1 }
            let c2 = c * c
            for state in [FenceEntry.State.outside, .inside] {
                let e = FenceEntry(slot: 0, hasDwell: false, state: state)
                #expect(e.isSettled)
                let got = FixContext.clearance(e, c2: c2, g)
                let want = Self.reference(e, c2: c2, g)
                #expect(got.bitPattern == want.bitPattern, "state \(state), c \(c), rc \(rc), band \(band)")
            }
        }
        #expect(onBoundary >= 400)
    }

    /// The sides: an entry outside has clearance left until the fix is more than the band
    /// inside the boundary; an entry inside, until it is more than the band outside.
    @Test func clearanceRunsOutPastTheBoundaryOnTheOtherSide() {
        let rc = Fence.chord2(forRadiusMeters: 1_000).squareRoot()
        let band = 20 / Earth.meanRadius
        let g = FenceGeometry(
            center: UnitVector(fastLatitude: 0, longitude: 0), radiusChord: rc, band: band,
            dwellSeconds: .infinity)
        let outside = FenceEntry(slot: 0, hasDwell: false, state: .outside)
        let inside = FenceEntry(slot: 0, hasDwell: false, state: .inside)
        func c2(meters: Double) -> Double { let c = rc + meters / Earth.meanRadius; return c * c }
        // 10 m outside the boundary: 30 m (in chord units) to go for the outside entry, 10 m
        // past for the inside one is still within its band (both less the 6.4 µm allowance
        // for rounding).
        #expect(abs(FixContext.clearance(outside, c2: c2(meters: 10), g) * Earth.meanRadius - 30 + 6.371e-6) < 1e-8)
        #expect(abs(FixContext.clearance(inside, c2: c2(meters: 10), g) * Earth.meanRadius - 10 + 6.371e-6) < 1e-8)
        // 25 m outside: the inside entry may change; 25 m inside: the outside entry may.
        #expect(FixContext.clearance(inside, c2: c2(meters: 25), g) < 0)
        #expect(FixContext.clearance(outside, c2: c2(meters: -25), g) < 0)
        #expect(FixContext.clearance(inside, c2: c2(meters: -25), g) > 0)
    }
}
