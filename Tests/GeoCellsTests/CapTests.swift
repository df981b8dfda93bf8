import Foundation
import Geodesy
import Testing

@testable import GeoCells

@Suite struct CapTests {
    /// The cap of every fixture row has S2's stored height bit for bit, and the package's
    /// lat/lng -> point conversion and meters -> radians conversion agree with S2's inputs.
    @Test func capsMatchS2Bitwise() throws {
        var seen = Set<Int>()
        for row in CoverFixture.rows where seen.insert(row.cap_id).inserted {
            #expect(row.cap.height == row.cap_height, "cap \(row.cap_id)")
            #expect(abs(row.cap.area - 2 * Double.pi * row.cap_height) <= 1e-15 * row.cap.area)
            #expect(Earth.radians(fromMeters: row.radius_m) == row.angle_rad, "cap \(row.cap_id)")
            let viaLatLng = Cap(center: try LatLng(latitude: row.lat, longitude: row.lon), meters: row.radius_m)
            #expect(viaLatLng.center == row.center, "cap \(row.cap_id)")
            #expect(viaLatLng.radius == row.cap.radius, "cap \(row.cap_id)")
        }
        #expect(seen.count == 500)
    }

    @Test func emptyAndFull() {
        let p = UnitVector(x: 0, y: 0, z: 1)
        #expect(Cap.empty.isEmpty && !Cap.empty.contains(p))
        #expect(Cap.full.isFull && Cap.full.contains(p) && Cap.full.contains(-p))
        #expect(Cap.empty.area == 0)
        #expect(abs(Cap.full.area - 4 * Double.pi) < 1e-15)
        #expect(Cap.empty.complement.isFull && Cap.full.complement.isEmpty)
        #expect(Cap.empty.rectBound.isEmpty)
        #expect(Cap.full.rectBound == LatLngBox.full)
        // A zero-radius cap contains its center and nothing else.
        let point = Cap(center: p, radius: .zero)
        #expect(point.contains(p) && !point.isEmpty)
        #expect(!point.contains(UnitVector(x: 1e-8, y: 0, z: 1).normalized))
        #expect(point.mayIntersect(Cell(CellID(p))))
    }

    @Test func containsPointsByDistance() throws {
        let seed: UInt64 = 31337
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let c = try LatLng(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
            let meters = 1 + rng.nextUnit() * 100_000
            let cap = Cap(center: c, meters: meters)
            let (u, v) = CapSampler.frame(cap.center)
            let angle = meters / Earth.meanRadius
            let az = rng.nextUnit() * 2 * Double.pi
            let inside = CapSampler.point(cap.center, u, v, angle: angle * 0.999, azimuth: az)
            let outside = CapSampler.point(cap.center, u, v, angle: angle * 1.001, azimuth: az)
            #expect(cap.contains(inside), "seed \(seed)")
            #expect(!cap.contains(outside), "seed \(seed)")
            // The complement holds the outside point and not the inside one.
            #expect(cap.complement.contains(outside) && !cap.complement.contains(inside), "seed \(seed)")
            // The lat/lng box holds every point of the cap.
            let box = cap.rectBound
            for p in CapSampler.samples(cap, ring: 32, random: 16, seed: rng.next()) {
                #expect(box.contains(p.latLng), "seed \(seed): \(cap) box \(box) misses \(p.latLng)")
            }
        }
    }

    @Test func rectBoundShapes() throws {
        // Around a pole: every longitude, down to lat 90 - radius.
        let polar = Cap(center: try LatLng(latitude: 89.5, longitude: 10), meters: 100_000)
        let box = polar.rectBound
        #expect(box.spansAllLongitudes && box.north == 90)
        #expect(abs(box.south - (89.5 - 100_000 / Earth.meanRadius * 180 / .pi)) < 1e-9)
        // On the antimeridian: the box crosses it.
        let am = Cap(center: try LatLng(latitude: 0, longitude: 180), meters: 10_000).rectBound
        #expect(am.crossesAntimeridian)
        #expect(abs(am.west - (180 - 10_000 / Earth.meanRadius * 180 / .pi)) < 1e-9)
        // At the equator the half-width in longitude equals the radius.
        let eq = Cap(center: try LatLng(latitude: 0, longitude: 20), meters: 5000).rectBound
        let r = 5000 / Earth.meanRadius * 180 / .pi
        #expect(abs(eq.west - (20 - r)) < 1e-12 && abs(eq.east - (20 + r)) < 1e-12)
    }

    /// Cap–cell predicates against brute force: a cell that holds a point of the cap must
    /// "may-intersect" it; a cell the cap "contains" has all its sampled points inside.
    @Test func cellPredicatesAgreeWithSampling() throws {
        let seed: UInt64 = 808
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let c = try LatLng(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
            let meters = exp(rng.nextUnit() * log(200_000.0))
            let cap = Cap(center: c, meters: meters)
            let level = CellMetric.minWidth.levelForMinValue(cap.radius.radians)
            for dl in -2...3 {
                let l = max(0, min(30, level + dl))
                // The cell holding a point of the cap must may-intersect it.
                for p in CapSampler.samples(cap, ring: 4, random: 4, seed: rng.next()) where cap.contains(p) {
                    #expect(cap.mayIntersect(Cell(CellID(p).parent(level: l))), "seed \(seed)")
                }
                let cell = Cell(CellID(cap.center).parent(level: l))
                #expect(cap.mayIntersect(cell), "seed \(seed)")
                if cap.contains(cell) {
                    for k in 0..<4 { #expect(cap.contains(cell.vertex(k)), "seed \(seed)") }
                    #expect(cap.contains(cell.center), "seed \(seed)")
                }
            }
            // A far-away cell never intersects.
            let far = Cell(CellID(-cap.center).parent(level: 10))
            #expect(!cap.mayIntersect(far) && !cap.contains(far), "seed \(seed)")
        }
    }

    @Test func cellUnionBoundCoversTheCap() throws {
        var cells: [CellID] = []
        let seed: UInt64 = 55
        var rng = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let c = try LatLng(latitude: rng.nextUnit() * 180 - 90, longitude: rng.nextUnit() * 360 - 180)
            let cap = Cap(center: c, meters: exp(rng.nextUnit() * log(5_000_000.0)))
            cap.cellUnionBound(into: &cells)
            #expect((3...6).contains(cells.count), "seed \(seed)")  // 3 at a cube corner
            let union = CellUnion(cells)
            for p in CapSampler.samples(cap, ring: 16, random: 16, seed: rng.next()) where cap.contains(p) {
                #expect(union.contains(p), "seed \(seed): \(cap)")
            }
        }
    }
}
