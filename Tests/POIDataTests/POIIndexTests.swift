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
        let centers = [LatLng(uncheckedLatitude: 60.171, longitude: 24.944), LatLng(uncheckedLatitude: 43.735, longitude: 7.42)]
        let categories: [POICategory?] = [nil] + POICategory.allCases
        for trial in 0..<200 {
            let c = centers[trial % 2]
            let p = LatLng(
                uncheckedLatitude: c.latitude + (rng.nextUnit() - 0.5) * 0.05,
                longitude: c.longitude + (rng.nextUnit() - 0.5) * 0.08)
            let category = categories[trial % categories.count]
            let k = [1, 3, 10][trial % 3]
            let max = trial % 4 == 0 ? 800.0 : .infinity
            let got = Self.index.nearest(category, to: p, k: k, maxDistanceMeters: max)
            let want = bruteForce(category, to: [p], k: k, max: max)
            #expect(got.map(\.poi) == want.map(\.0), "seed \(seed) trial \(trial)")
            for (g, w) in zip(got, want) {
                // 1e-6 m: chord and haversine distances agree to nanometers at city scale.
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

    /// k above the growing-radius limit (64) takes the best-first path: same answers.
    @Test func largeKAgreesWithBruteForce() {
        let here = LatLng(uncheckedLatitude: 43.735, longitude: 7.42)
        for k in [64, 65, 200, 3000] {
            let got = Self.index.nearest(nil, to: here, k: k)
            let want = bruteForce(nil, to: [here], k: k, max: .infinity)
            #expect(got.map(\.poi) == want.map(\.0), "k \(k)")
        }
        // Far from every POI (mid-Pacific): the radius grows to the whole sphere.
        let far = LatLng(uncheckedLatitude: -40, longitude: -150)
        #expect(Self.index.nearest(.fuel, to: far, k: 10).map(\.poi) == bruteForce(.fuel, to: [far], k: 10, max: .infinity).map(\.0))
    }

    /// POIs at identical coordinates tie on distance: the smaller catalog index comes first,
    /// also when the tie straddles the k-th place.
    @Test func tiesGoToTheSmallerIndex() throws {
        var text = "lat,lon,name,amenity\n"
        for i in 0..<40 { text += "\(i % 2 == 0 ? "10.5" : "10.5001"),20.25,p\(i),atm\n" }
        let catalog = try POICatalog(csv: text)
        let index = POIIndex(catalog)
        let got = index.nearest(.atm, to: LatLng(uncheckedLatitude: 10.5, longitude: 20.25), k: 3)
        #expect(got.map(\.poi) == [0, 2, 4])
        #expect(got.allSatisfy { $0.distanceMeters == 0 })
        let big = index.nearest(.atm, to: LatLng(uncheckedLatitude: 10.5, longitude: 20.25), k: 70)
        #expect(big.map(\.poi) == Array(stride(from: 0, to: 40, by: 2)) + Array(stride(from: 1, to: 40, by: 2)))
    }

    @Test func mortonKeysPreserveLocality() {
        let a = POIIndex.mortonKey(LatLng(uncheckedLatitude: 60.17, longitude: 24.94))
        let b = POIIndex.mortonKey(LatLng(uncheckedLatitude: 60.1701, longitude: 24.9401))
        let c = POIIndex.mortonKey(LatLng(uncheckedLatitude: -33.9, longitude: 151.2))
        #expect(a ^ b < a ^ c)
        #expect(POIIndex.mortonKey(LatLng(uncheckedLatitude: -90, longitude: -180)) == 0)
        #expect(POIIndex.mortonKey(LatLng(uncheckedLatitude: 90, longitude: 180)) == (1 << 42) - 1)
    }
}
