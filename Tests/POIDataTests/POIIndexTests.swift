import Geodesy
@testable import POIData
import Testing

/// Category search against brute force over the real extract.
@Suite struct POIIndexTests {
    static let catalog = try! load("pois_osm_all.csv").get()
    static let index = POIIndex(catalog)

    /// Brute force: every POI of the category by haversine distance, then index.
    func bruteForce(_ category: POICategory?, to points: [LatLng], k: Int, max: Double) -> [(Int, Double)] {
        var all: [(Int, Double)] = []
        for i in 0..<Self.catalog.count where category == nil || Self.catalog.category(at: i) == category {
            let d = points.map { haversineDistance($0, Self.catalog.location(at: i)) }.min()!
            if d <= max { all.append((i, d)) }
        }
        all.sort { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        return Array(all.prefix(k))
    }

    @Test func nearestAgreesWithBruteForce() {
        let seed: UInt64 = 20261122
        var rng = SplitMix64(seed: seed)
        let centres = [LatLng(uncheckedLatitude: 60.171, longitude: 24.944), LatLng(uncheckedLatitude: 43.735, longitude: 7.42)]
        let categories: [POICategory?] = [nil] + POICategory.allCases
        for trial in 0..<200 {
            let c = centres[trial % 2]
            let p = LatLng(uncheckedLatitude: c.latitude + (rng.nextUnit() - 0.5) * 0.05,
                           longitude: c.longitude + (rng.nextUnit() - 0.5) * 0.08)
            let category = categories[trial % categories.count]
            let k = [1, 3, 10][trial % 3]
            let max = trial % 4 == 0 ? 800.0 : .infinity
            let got = Self.index.nearest(category, to: p, k: k, maxDistanceMeters: max)
            let want = bruteForce(category, to: [p], k: k, max: max)
            #expect(got.map(\.poi) == want.map(\.0), "seed \(seed) trial \(trial)")
            for (g, w) in zip(got, want) {
                // 1e-6 m: chord and haversine distances agree to nanometres at city scale.
                #expect(abs(g.distanceMeters - w.1) < 1e-6, "seed \(seed) trial \(trial)")
                #expect(category == nil || Self.catalog.category(at: g.poi) == category)
            }
        }
    }

    @Test func nearestToAnyOfSeveralLocationsAgreesWithBruteForce() {
        let seed: UInt64 = 7
        var rng = SplitMix64(seed: seed)
        for trial in 0..<60 {
            let places = (0..<3).map { j in
                j % 2 == 0
                    ? LatLng(uncheckedLatitude: 60.165 + rng.nextUnit() * 0.015, longitude: 24.935 + rng.nextUnit() * 0.02)
                    : LatLng(uncheckedLatitude: 43.72 + rng.nextUnit() * 0.03, longitude: 7.40 + rng.nextUnit() * 0.04)
            }
            let category = POICategory.allCases[trial % 6]
            let max = trial % 3 == 0 ? 1_000.0 : .infinity
            let got = Self.index.nearest(category, toAnyOf: places, k: 5, maxDistanceMeters: max)
            let want = bruteForce(category, to: places, k: 5, max: max)
            #expect(got.map(\.poi) == want.map(\.0), "seed \(seed) trial \(trial)")
            for g in got {
                let d = places.map { haversineDistance($0, Self.catalog.location(at: g.poi)) }
                #expect(abs(d[g.origin] - d.min()!) < 1e-6, "origin is the nearest location; seed \(seed) trial \(trial)")
            }
        }
    }

    @Test func pharmaciesNearHelsinkiCentralPostOffice() {
        // Pääposti, the central post office (node 56431331).
        let here = LatLng(uncheckedLatitude: 60.1716419, longitude: 24.9385433)
        let got = Self.index.nearest(.pharmacy, to: here, k: 3, maxDistanceMeters: 2_000)
        #expect(got.count == 3)
        #expect(got.allSatisfy { Self.catalog.category(at: $0.poi) == .pharmacy && $0.distanceMeters <= 2_000 })
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.distanceMeters <= $1.distanceMeters })
        #expect(Self.index.nearest(.fuel, to: here, k: 3, maxDistanceMeters: 10).isEmpty)
        #expect(Self.index.nearest(.pharmacy, to: here, k: 0).isEmpty)
        #expect(Self.index.count(of: .fuel) == 3 && Self.index.count(of: nil) == 2649)
    }
}
