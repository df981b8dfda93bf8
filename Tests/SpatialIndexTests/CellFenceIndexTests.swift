import Foundation
import GeoCells
import Geodesy
import Testing
@testable import SpatialIndex

/// Seeded random polygon fences: stars (simple, concave) of 3 m to 300 km around random places,
/// the poles and the antimeridian, a ring around each pole, a polygon with a hole.
enum PolygonWorld {
    static func star(around center: LatLng, radius: Double, vertices n: Int, _ rng: inout SplitMix64) -> [LatLng] {
        let turn = rng.nextUnit() * 360
        return (0..<n).map { k in
            TestWorld.destination(
                center, bearingDegrees: turn + Double(k) * 360 / Double(n),
                meters: radius * (0.35 + 0.65 * rng.nextUnit()))
        }
    }

    static func polygons(_ count: Int, firstID: Int32, _ rng: inout SplitMix64) -> [PolygonFence] {
        var rings: [[[LatLng]]] = [
            // Around the North Pole and around the South Pole (latitude 89.9 and -89.5).
            [(0..<12).map { LatLng(uncheckedLatitude: 89.9, longitude: Double($0) * 30 - 180) }],
            [(0..<7).map { LatLng(uncheckedLatitude: -89.5, longitude: Double($0) * 360 / 7 - 180) }],
            // Astride the antimeridian, with a hole.
            [
                [
                    LatLng(uncheckedLatitude: -1, longitude: 179), LatLng(uncheckedLatitude: -1, longitude: -179),
                    LatLng(uncheckedLatitude: 1, longitude: -179), LatLng(uncheckedLatitude: 1, longitude: 179)
                ],
                [
                    LatLng(uncheckedLatitude: -0.5, longitude: 179.5), LatLng(uncheckedLatitude: 0.5, longitude: 179.5),
                    LatLng(uncheckedLatitude: 0.5, longitude: -179.5), LatLng(uncheckedLatitude: -0.5, longitude: -179.5)
                ]
            ]
        ]
        var out: [PolygonFence] = []
        func add(_ r: [[LatLng]]) {
            // A star whose spikes wrap around a pole can cross itself: such rings are skipped.
            if let polygon = try? Polygon(latLngRings: r) {
                out.append(try! PolygonFence(id: firstID + Int32(out.count), polygon: polygon))
            }
        }
        for r in rings { add(r) }
        while out.count < count {
            let center: LatLng
            switch rng.next() % 4 {
            case 0: center = TestWorld.specialPlaces[Int(rng.next() % UInt64(TestWorld.specialPlaces.count))]
            case 1:
                let base = TestWorld.specialPlaces[Int(rng.next() % UInt64(TestWorld.specialPlaces.count))]
                center = TestWorld.destination(base, bearingDegrees: rng.nextUnit() * 360, meters: rng.nextUnit() * 50_000)
            default: center = TestWorld.uniform(&rng)
            }
            let radius = exp(log(3.0) + rng.nextUnit() * (log(300_000.0) - log(3.0)))
            let n = [3, 4, 7, 12, 40][Int(rng.next() % 5)]
            add([star(around: center, radius: radius, vertices: n, &rng)])
        }
        return out
    }

    /// Points on, near and far from the polygons: vertices, centroids, points a little off the
    /// vertices, uniform points and the special places.
    static func points(_ count: Int, near polygons: [PolygonFence], circles: [Fence], _ rng: inout SplitMix64) -> [LatLng] {
        var out = TestWorld.points(count / 3, near: circles, &rng)
        while out.count < count {
            let polygon = polygons[Int(rng.next() % UInt64(polygons.count))].polygon
            let vertex = polygon.vertices[Int(rng.next() % UInt64(polygon.vertices.count))]
            let v = latLng(vertex)
            switch rng.next() % 4 {
            case 0: out.append(v)
            case 1: out.append(latLng(polygon.centroid ?? vertex))
            default:
                out.append(TestWorld.destination(v, bearingDegrees: rng.nextUnit() * 360, meters: rng.nextUnit() * 300))
            }
        }
        return out
    }

    static func latLng(_ v: UnitVector) -> LatLng {
        LatLng(
            uncheckedLatitude: atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * 180 / .pi,
            longitude: atan2(v.y, v.x) * 180 / .pi)
    }
}

/// The definitions the index must match: every fence tested, distances by the type's comment.
struct MixedReference {
    let circles: [Fence]
    let polygons: [PolygonFence]

    func containing(_ p: UnitVector) -> [Int32] {
        (circles.filter { $0.contains(p) }.map(\.id) + polygons.filter { $0.contains(p) }.map(\.id)).sorted()
    }

    func distances(_ p: UnitVector, by measure: FenceDistance) -> [FenceNeighbor] {
        circles.map { f in
            let d = meters(forChord2: p.chord2(to: f.centerVector))
            return FenceNeighbor(id: f.id, distanceMeters: measure == .edge ? d - f.radiusMeters : d)
        }
            + polygons.map { f in
                FenceNeighbor(
                    id: f.id,
                    distanceMeters: measure == .edge ? f.signedBoundaryDistanceMeters(to: p) : f.distanceMeters(to: p))
            }
    }

    func within(_ meters: Double, of p: UnitVector) -> [Int32] {
        let limit = Fence.chord2(forRadiusMeters: meters)
        return
            (circles.filter { p.chord2(to: $0.centerVector) <= limit }.map(\.id)
            + polygons.filter { $0.distanceMeters(to: p) <= meters }.map(\.id)).sorted()
    }

    func nearest(_ p: UnitVector, k: Int, by measure: FenceDistance, max: Double) -> [FenceNeighbor] {
        Array(distances(p, by: measure).filter { $0.distanceMeters <= max }.sorted(by: FenceNeighbor.precedes).prefix(k))
    }
}

@Suite struct CellFenceIndexTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func circlesAloneAnswerAsBruteForce(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(300, &rng)
        let points = TestWorld.points(400, near: fences, &rng)
        IndexOracle.expectSameAnswers(
            CellFenceIndex(circles: fences), as: BruteForceIndex(fences), at: points, seed: seed, "cell")
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func mixedCirclesAndPolygonsAnswerAsTheDefinition(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let circles = TestWorld.fences(150, &rng)
        let polygons = PolygonWorld.polygons(150, firstID: 1_000, &rng)
        let reference = MixedReference(circles: circles, polygons: polygons)
        // Level 18 keys the small polygons by many cells, some of them wholly inside.
        for level in [16, 18] {
            let index = CellFenceIndex(circles: circles, polygons: polygons, level: level)
            #expect(index.count == 300)
            var stats = QueryStats()
            for (n, point) in PolygonWorld.points(900, near: polygons, circles: circles, &rng).enumerated() {
                let p = point.unitVector
                let expected = reference.containing(p)
                var got: [Int32] = []
                index.forEachContaining(p, stats: &stats) { got.append($0) }
                #expect(got.sorted() == expected, "stab at \(point) (#\(n)), level \(level), seed \(seed)")
                guard n % 3 == 0 else { continue }
                let d = [0, 10, 1000, 100_000, 3_000_000][Int(rng.next() % 5)] * rng.nextUnit()
                #expect(index.fences(withinMeters: d, of: p) == reference.within(d, of: p), "within \(d) m of \(point)")
                let k = [1, 3, 10][Int(rng.next() % 3)]
                let measure: FenceDistance = rng.next() % 2 == 0 ? .center : .edge
                let maxD: Double = rng.next() % 3 == 0 ? rng.nextUnit() * 2_000_000 : .infinity
                #expect(
                    index.nearest(to: p, k: k, by: measure, maxDistanceMeters: maxD)
                        == reference.nearest(p, k: k, by: measure, max: maxD),
                    "nearest k=\(k) by \(measure) max \(maxD) at \(point), seed \(seed)")
            }
            #expect(stats.hits > 0 && stats.candidates > stats.hits)
        }
    }

    @Test func polesAndAntimeridianPolygons() {
        var rng = SplitMix64(seed: 9)
        let polygons = PolygonWorld.polygons(3, firstID: 0, &rng)
        let index = CellFenceIndex(polygons: polygons)
        let at = { (lat: Double, lon: Double) in index.fencesContaining(LatLng(uncheckedLatitude: lat, longitude: lon).unitVector) }
        #expect(at(90, 0) == [0])
        #expect(at(89.95, 123) == [0])
        #expect(at(89.8, 123) == [])
        #expect(at(-90, 0) == [1])
        #expect(at(-89.7, -3) == [1])
        #expect(at(0.8, 180) == [2])
        #expect(at(-0.8, -179.9) == [2])
        #expect(at(0, 180) == [])  // in the hole
        #expect(at(0, 178.5) == [])
    }

    @Test func aPolygonSharingAnEdgeWithAnotherIsHitByExactlyOneOfThem() {
        // Two squares sharing the meridian 24.94 between latitudes 60.17 and 60.171: S2's
        // semi-open model puts every point of the shared edge in exactly one of them.
        let a = [(60.17, 24.939), (60.17, 24.94), (60.171, 24.94), (60.171, 24.939)]
        let b = [(60.17, 24.94), (60.17, 24.941), (60.171, 24.941), (60.171, 24.94)]
        let fences = [a, b].enumerated().map { k, ring in
            try! PolygonFence(
                id: Int32(k),
                polygon: try! Polygon(latLngRings: [ring.map { LatLng(uncheckedLatitude: $0.0, longitude: $0.1) }]))
        }
        let index = CellFenceIndex(polygons: fences, level: 20)
        // The edge's interior (its endpoints are corners of the union, in neither at times).
        for k in 1...9 {
            let p = Polygon.interpolateForTest(fences[0].polygon.vertices[1], fences[0].polygon.vertices[2], Double(k) / 10)
            #expect(index.fencesContaining(p).count == 1, "edge point \(k)")
        }
    }

    @Test func aPointInAnInteriorKeyCellIsAHitWithoutTheExactTest() {
        // A square of about 1.1 km keyed by up to 1,024 cells (about 100 m): some lie wholly inside.
        let ring = [(60.16, 24.93), (60.16, 24.95), (60.17, 24.95), (60.17, 24.93)]
        let fence = try! PolygonFence(
            id: 7, polygon: try! Polygon(latLngRings: [ring.map { LatLng(uncheckedLatitude: $0.0, longitude: $0.1) }]))
        let index = CellFenceIndex(polygons: [fence], level: 18, maxKeysPerFence: 1024)
        var stats = QueryStats()
        var hits: [Int32] = []
        index.forEachContaining(LatLng(uncheckedLatitude: 60.165, longitude: 24.94).unitVector, stats: &stats) { hits.append($0) }
        #expect(hits == [7] && stats.acceptedWithoutTest == 1 && stats.exactTests == 0)
        // Near the boundary the key cell is only partly inside: the exact test decides.
        hits = []
        index.forEachContaining(LatLng(uncheckedLatitude: 60.16001, longitude: 24.94).unitVector, stats: &stats) { hits.append($0) }
        #expect(hits == [7] && stats.exactTests == 1)
    }

    @Test func negativeIDsAreRejected() {
        let polygon = try! Polygon(latLngRings: [
            [LatLng(uncheckedLatitude: 0, longitude: 0), LatLng(uncheckedLatitude: 0, longitude: 1), LatLng(uncheckedLatitude: 1, longitude: 0)]
        ])
        #expect(throws: FenceError.negativeID(-1)) { try PolygonFence(id: -1, polygon: polygon) }
    }
}

extension Polygon {
    /// The point at `t` of the way from `a` to `b` (normalized chord interpolation).
    static func interpolateForTest(_ a: UnitVector, _ b: UnitVector, _ t: Double) -> UnitVector {
        UnitVector(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t).normalized
    }
}
