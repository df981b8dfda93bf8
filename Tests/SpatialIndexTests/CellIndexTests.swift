import Foundation
import Geodesy
import GeoCells
import Testing
@testable import SpatialIndex

@Suite struct CellIndexTests {
    /// Random fences (poles, antimeridian, duplicate centres, radii 0 m ... whole sphere) and
    /// points (centres, boundaries, near boundaries, special places): every query equals brute
    /// force, for several cell densities.
    @Test(arguments: [(UInt64(11), 0), (12, 1), (13, 17), (14, 300), (15, 1500)])
    func matchesBruteForce(seed: UInt64, count: Int) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(count == 1500 ? 300 : 200, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for cellsPerRadius in [2.0, 0.7, 4, 5] {
            let index = CellIndex(fences, cellsPerRadius: cellsPerRadius)
            IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: seed, "cells(\(cellsPerRadius))")
        }
    }

    /// Concentric tiers (the product's 1/3/5-mile fences), more than `maxGroupSize` fences on
    /// one centre, equal radii and a zero radius on a shared centre.
    @Test func concentricAndDuplicateCentres() {
        var rng = SplitMix64(seed: 21)
        var fences: [Fence] = []
        var id: Int32 = 0
        for _ in 0..<60 {
            let centre = TestWorld.uniform(&rng)
            let tiers = Int(rng.next() % 12) + 1  // up to 12: groups split at maxGroupSize
            for t in 0..<tiers {
                let radius = t % 4 == 3 ? 0 : [1609.344, 4828.032, 8046.72, 1609.344][t % 4] * Double(t / 4 + 1)
                fences.append(try! Fence(id: id, centre: centre, radiusMeters: radius))
                id += 1
            }
        }
        let points = TestWorld.points(400, near: fences, &rng)
        let index = CellIndex(fences)
        #expect(index.groupCount >= 60 && index.groupCount <= 120, "groups \(index.groupCount)")
        IndexOracle.expectSameAnswers(index, as: BruteForceIndex(fences), at: points, seed: 21, "concentric")
    }

    /// Points exactly on cell vertices and edges of the index's own grid (and of S2's cells),
    /// with fences whose boundaries pass through them.
    @Test func cellEdgesAndVertices() {
        var rng = SplitMix64(seed: 31)
        var points: [LatLng] = []
        var fences: [Fence] = []
        var id: Int32 = 0
        for _ in 0..<40 {
            let face = Int(rng.next() % 6)
            let level = Int(rng.next() % 12) + 1
            let cells = 1 << level
            let i = Int(rng.next() % UInt64(cells + 1)), j = Int(rng.next() % UInt64(cells + 1))
            let step = 2 / Double(cells)
            // A vertex of the linear grid (face corners included), and a point on an edge.
            let vertex = S2Projection.faceUVToXYZ(face, -1 + Double(i) * step, -1 + Double(j) * step).normalized
            let onEdge = S2Projection.faceUVToXYZ(face, -1 + Double(i) * step,
                                                  -1 + (Double(j) + rng.nextUnit()) * step).normalized
            let s2Vertex = Cell(CellID(vertex).parent(level: level)).vertex(Int(rng.next() % 4))
            for v in [vertex, onEdge, s2Vertex] {
                let ll = v.latLng
                points.append(ll)
                // Fences through the point: the point is (within rounding) on their boundary.
                for radius in [0.0, 1, 1609.344, 8046.72, 300_000] {
                    let centre = TestWorld.destination(ll, bearingDegrees: rng.nextUnit() * 360, meters: radius)
                    let exact = Earth.meanRadius * 2 * asin(min(1, (centre.unitVector - v).norm / 2))
                    fences.append(try! Fence(id: id, centre: centre, radiusMeters: exact))
                    id += 1
                }
                fences.append(try! Fence(id: id, centre: ll, radiusMeters: 0))
                id += 1
            }
        }
        let brute = BruteForceIndex(fences)
        let index = CellIndex(fences)
        IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: 31, "edges")
        // Every point is the centre of a zero-radius fence, so each has at least one hit.
        for point in points {
            #expect(!index.fencesContaining(point.unitVector).isEmpty, "no hit at \(point)")
        }
    }

    /// The shared geofence oracle (fences.csv, queries.csv of the shared test data).
    @Test func fixtureOracle() throws {
        let fences = try GeofenceFixture.fences()
        let index = CellIndex(fences)
        for q in try GeofenceFixture.queries() {
            #expect(index.fencesContaining(q.point.unitVector) == q.hits.sorted(), "query \(q.qid) (\(q.category))")
        }
    }

    /// Interior cells: fixes deep inside a large fence are answered without a distance test,
    /// and the statistics count them as accepted without a test.
    @Test func interiorCellsNeedNoTest() throws {
        let fence = try Fence(id: 7, latitude: 40, longitude: -100, radiusMeters: 8046.72)
        let index = CellIndex([fence])
        #expect(index.entryCount > 4 && index.cellCount == index.entryCount)
        var stats = QueryStats()
        var hits: [Int32] = []
        let centre = LatLng(uncheckedLatitude: 40, longitude: -100)
        for k in 0..<36 {  // a ring 3 km out: inside the fence, in several cells
            let p = TestWorld.destination(centre, bearingDegrees: Double(k) * 10, meters: 3000).unitVector
            index.forEachContaining(p, stats: &stats) { hits.append($0) }
        }
        #expect(hits == Array(repeating: 7, count: 36) && stats.hits == 36)
        #expect(stats.acceptedWithoutTest > 0 && stats.candidates == 36, "\(stats)")
        let outside = LatLng(uncheckedLatitude: 41, longitude: -100).unitVector  // 111 km away
        #expect(index.fencesContaining(outside).isEmpty)
    }

    /// More hits than the gather buffer holds: the buffer is flushed, nothing is lost.
    @Test func manyHitsPerPoint() throws {
        let centre = LatLng(uncheckedLatitude: -33.9, longitude: 151.2)
        var fences: [Fence] = []
        for k in 0..<500 {
            let offset = k % 2 == 0 ? 0 : 1e-4 * Double(k)  // degrees: up to 5.5 km north
            let at = LatLng(uncheckedLatitude: -33.9 + offset, longitude: 151.2)
            fences.append(try Fence(id: Int32(k), centre: at, radiusMeters: 6000 + Double(k)))
        }
        let index = CellIndex(fences)
        let got = index.fencesContaining(centre.unitVector)
        #expect(got == BruteForceIndex(fences).fencesContaining(centre.unitVector))
        #expect(got.count == 500)
    }

    @Test func emptyAndSingle() throws {
        let empty = CellIndex([Fence]())
        #expect(empty.count == 0 && empty.fencesContaining(LatLng(uncheckedLatitude: 0, longitude: 0).unitVector).isEmpty)
        #expect(empty.nearest(to: LatLng(uncheckedLatitude: 0, longitude: 0).unitVector, k: 3).isEmpty)
        let one = CellIndex([try Fence(id: 3, latitude: 90, longitude: 0, radiusMeters: 1)])
        #expect(one.fencesContaining(LatLng(uncheckedLatitude: 90, longitude: 123).unitVector) == [3])
        #expect(one.fencesContaining(LatLng(uncheckedLatitude: 89.9, longitude: 0).unitVector).isEmpty)
    }

    @Test func defaultCellsPerRadiusGrowsWithTheIndex() {
        #expect(CellIndex.defaultCellsPerRadius(fenceCount: 0) == 2)
        #expect(CellIndex.defaultCellsPerRadius(fenceCount: CellIndex.largeIndexFences - 1) == 2)
        #expect(CellIndex.defaultCellsPerRadius(fenceCount: CellIndex.largeIndexFences) == 4)
        var rng = SplitMix64(seed: 16)
        #expect(CellIndex(TestWorld.fences(50, &rng)).cellsPerRadius == 2)
    }

    @Test func isDeterministicAndSized() {
        var rng = SplitMix64(seed: 41)
        let fences = TestWorld.fences(400, &rng)
        let a = CellIndex(fences), b = CellIndex(fences.reversed())
        #expect(a.entries == b.entries || a.count == b.count)  // same cells; ids may differ in order
        let c = CellIndex(fences)
        #expect(a.entries == c.entries && a.records == c.records && a.slots.map(\.key) == c.slots.map(\.key))
        #expect(a.memoryBytes >= a.entryCount * 4 + a.count * 8)
    }

    /// The point -> cell mapping: column boundaries, clamping and NaN.
    @Test func cellCoordinates() {
        #expect(CellIndex.cellCoordinate(-1, level: 3) == 0)
        #expect(CellIndex.cellCoordinate(1, level: 3) == 7)
        #expect(CellIndex.cellCoordinate(-0.75, level: 3) == 1)
        #expect(CellIndex.cellCoordinate(-0.75 - 1e-12, level: 3) == 0)  // (u + 1) rounds: 1 ulp below -0.75 is not enough
        #expect(CellIndex.cellCoordinate(.nan, level: 3) == 0)
        #expect(CellIndex.cellCoordinate(0, level: 0) == 0)
        #expect(CellIndex.cellKey(level: 1, face: 0, i: 0, j: 0) != CellIndex.cellKey(level: 0, face: 4, i: 0, j: 0))
    }

    /// The cell distance bounds hold for sampled points of the cell.
    @Test func chord2RangeBoundsSamples() {
        var rng = SplitMix64(seed: 51)
        for _ in 0..<300 {
            let face = Int(rng.next() % 6)
            let level = Int(rng.next() % 10)
            let i = Int(rng.next() % UInt64(1 << level)), j = Int(rng.next() % UInt64(1 << level))
            let rect = CellGeometry.rect(i: i, j: j, level: level)
            let c = TestWorld.uniform(&rng).unitVector
            let range = CellGeometry.chord2Range(from: c, face: face, rect: rect)
            #expect(range.min <= range.max)
            for _ in 0..<20 {
                let u = rect.uLo + (rect.uHi - rect.uLo) * rng.nextUnit()
                let v = rect.vLo + (rect.vHi - rect.vLo) * rng.nextUnit()
                let x = S2Projection.faceUVToXYZ(face, u, v).normalized
                let d = squaredChord(x.x, x.y, x.z, c.x, c.y, c.z)
                #expect(d >= range.min - 1e-13 && d <= range.max + 1e-13,
                        "face \(face) level \(level) (\(i), \(j)): \(d) not in \(range), seed 51")
            }
        }
    }
}
