import Geodesy
import Testing

@Suite struct LatLngBoxOperationsTests {
    /// A random box: sometimes crossing the antimeridian, sometimes full-longitude, sometimes a
    /// single meridian, sometimes empty.
    static func randomBox(_ rng: inout SplitMix64) -> LatLngBox {
        let kind = rng.next() % 10
        if kind == 0 { return .empty }
        let a = 180 * rng.nextUnit() - 90, b = 180 * rng.nextUnit() - 90
        let s = min(a, b), n = max(a, b)
        if kind == 1 { return LatLngBox(south: s, north: n, west: -180, east: 180) }
        let west = (360 * rng.nextUnit() - 180).rounded()  // whole degrees: edges meet often
        let width = kind == 2 ? 0 : (kind == 3 ? 300 + 60 * rng.nextUnit() : 120 * rng.nextUnit())
        var east = west + width
        if east > 180 { east -= 360 }
        return LatLngBox(south: s, north: n, west: west, east: east)
    }

    /// Longitudes sampled on a 0.5° grid plus both antimeridian spellings.
    static let sampleLongitudes = stride(from: -180.0, through: 180, by: 0.5).map { $0 }

    @Test func intersectsMatchesSampling() {
        let seed: UInt64 = 0xB0C5
        var rng = SplitMix64(seed: seed)
        for i in 0..<2000 {
            let a = Self.randomBox(&rng), b = Self.randomBox(&rng)
            // Sampling oracle: a shared longitude (0.5° grid and every box edge) and overlapping latitudes.
            let latOverlap = !a.isEmpty && !b.isEmpty && max(a.south, b.south) <= min(a.north, b.north)
            let probes = Self.sampleLongitudes + [a.west, a.east, b.west, b.east]
            let lonOverlap = probes.contains { a.containsLongitude($0) && b.containsLongitude($0) }
            #expect(a.intersects(b) == (latOverlap && lonOverlap), "seed \(seed) sample \(i): \(a) \(b)")
            #expect(a.intersects(b) == b.intersects(a))
        }
    }

    @Test func unionContainsBothAndIsMinimal() throws {
        let seed: UInt64 = 0x5E7
        var rng = SplitMix64(seed: seed)
        for i in 0..<2000 {
            let a = Self.randomBox(&rng), b = Self.randomBox(&rng)
            let u = a.union(b)
            let context = "seed \(seed) sample \(i): \(a) ∪ \(b) = \(u)"
            if a.isEmpty { #expect(u == b, "\(context)"); continue }
            if b.isEmpty { #expect(u == a, "\(context)"); continue }
            #expect(u.south == min(a.south, b.south) && u.north == max(a.north, b.north), "\(context)")
            for lng in Self.sampleLongitudes + [a.west, a.east, b.west, b.east] {
                if a.containsLongitude(lng) || b.containsLongitude(lng) {
                    #expect(u.containsLongitude(lng), "\(context): misses \(lng)")
                }
            }
            // Minimal: no wider than either way of joining the arcs, nor than 360.
            #expect(u.longitudeWidth <= 360)
            #expect(u.longitudeWidth >= max(a.longitudeWidth, b.longitudeWidth) - 1e-9, "\(context)")
            let joinAB = LatLngBox(south: u.south, north: u.north, west: a.west, east: b.east)
            let joinBA = LatLngBox(south: u.south, north: u.north, west: b.west, east: a.east)
            let candidates = [joinAB, joinBA, a, b].filter { c in
                [a.west, a.east, b.west, b.east].allSatisfy { c.containsLongitude($0) }
                    && c.longitudeWidth >= max(a.longitudeWidth, b.longitudeWidth)
            }
            if !u.spansAllLongitudes, let best = candidates.map(\.longitudeWidth).min() {
                #expect(u.longitudeWidth <= best + 1e-9, "\(context): width \(u.longitudeWidth) > \(best)")
            }
        }
        // Across the antimeridian the short way round wins.
        let west = LatLngBox(south: 0, north: 1, west: 170, east: 175)
        let east = LatLngBox(south: 0, north: 1, west: -175, east: -170)
        #expect(west.union(east) == LatLngBox(south: 0, north: 1, west: 170, east: -170))
        #expect(east.union(west) == LatLngBox(south: 0, north: 1, west: 170, east: -170))
    }

    @Test func expanded() {
        let box = LatLngBox(south: 10, north: 20, west: 179, east: -179)
        let grown = box.expanded(byDegrees: 1.5)
        #expect(grown == LatLngBox(south: 8.5, north: 21.5, west: 177.5, east: -177.5))
        #expect(LatLngBox(south: 80, north: 89, west: 0, east: 1).expanded(byDegrees: 2) == LatLngBox(south: 78, north: 90, west: -180, east: 180))
        #expect(LatLngBox(south: 0, north: 1, west: -170, east: 170).expanded(byDegrees: 10).spansAllLongitudes)
        #expect(LatLngBox.empty.expanded(byDegrees: 1).isEmpty)
        #expect(LatLngBox(south: 0, north: 0, west: -180, east: -180).expanded(byDegrees: 1) == LatLngBox(south: -1, north: 1, west: 179, east: -179))
    }

    @Test func longitudeWidth() {
        #expect(LatLngBox(south: 0, north: 0, west: 10, east: 20).longitudeWidth == 10)
        #expect(LatLngBox(south: 0, north: 0, west: 170, east: -170).longitudeWidth == 20)
        #expect(LatLngBox.full.longitudeWidth == 360)
        #expect(LatLngBox(south: 0, north: 0, west: 5, east: 5).longitudeWidth == 0)
    }
}
