import Foundation
import Geodesy
import Testing
@testable import SpatialIndex

@Suite struct LatLngGridIndexTests {
    /// Random fences (poles, antimeridian, duplicate centers, radii 0 m ... whole sphere) and
    /// points (centers, boundaries, near boundaries, special places): every query equals brute
    /// force, for several cell densities.
    @Test(arguments: [(UInt64(11), 0), (12, 1), (13, 17), (14, 300), (15, 1500)])
    func matchesBruteForce(seed: UInt64, count: Int) throws {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        let points = TestWorld.points(count == 1500 ? 300 : 200, near: fences, &rng)
        let brute = BruteForceIndex(fences)
        for cellsPerRadius in [2.0, 0.7, 4, 5] {
            let index = try LatLngGridIndex(fences, cellsPerRadius: cellsPerRadius)
            IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: seed, "cells(\(cellsPerRadius))")
        }
    }

    /// Concentric tiers (the product's 1/3/5-mile fences), more than `maxGroupSize` fences on
    /// one center, equal radii and a zero radius on a shared center.
    @Test func concentricAndDuplicateCenters() throws {
        var rng = SplitMix64(seed: 21)
        var fences: [Fence] = []
        var id: Int32 = 0
        for _ in 0..<60 {
            let center = TestWorld.uniform(&rng)
            let tiers = Int(rng.next() % 12) + 1  // up to 12: groups split at maxGroupSize
            for t in 0..<tiers {
                let radius = t % 4 == 3 ? 0 : [1609.344, 4828.032, 8046.72, 1609.344][t % 4] * Double(t / 4 + 1)
                fences.append(try! Fence(id: id, center: center, radiusMeters: radius))
                id += 1
            }
        }
        let points = TestWorld.points(400, near: fences, &rng)
        let index = try LatLngGridIndex(fences)
        #expect(index.groupCount >= 60 && index.groupCount <= 240, "groups \(index.groupCount)")
        IndexOracle.expectSameAnswers(index, as: BruteForceIndex(fences), at: points, seed: 21, "concentric")
    }

    /// Points exactly on cell corners and edges of the index's own grid (rows, columns, band
    /// changes, the poles, the antimeridian), with fences whose boundaries pass through them.
    @Test func cellEdgesAndVertices() throws {
        var rng = SplitMix64(seed: 31)
        var points: [LatLng] = []
        var fences: [Fence] = []
        var id: Int32 = 0
        for n in 0..<60 {
            let level = Int(rng.next() % UInt64(LatLngGrid.maxLevel + 1))
            // Rows near 60, 75.5, 82.8 degrees change band; some rows at the poles.
            let latitude =
                n % 5 == 0
                ? [60.0, -75.5224878140701, 82.81924421854174, 90, -90][n / 5 % 5]
                : -90 + 180 * rng.nextUnit()
            let row = LatLngGrid.row(latitude: latitude, level: level)
            let column = Int(rng.next() % UInt64(LatLngGrid.columnCount(band: LatLngGrid.band(row: row, level: level), level: level)))
            let cell = LatLngGrid.bounds(level: level, row: row, column: column)
            let corner = LatLng(uncheckedLatitude: cell.south, longitude: cell.west)
            let onEdge = LatLng(
                uncheckedLatitude: cell.south + (cell.north - cell.south) * rng.nextUnit(),
                longitude: n % 7 == 0 ? 180 : cell.east)
            let onParallel = LatLng(
                uncheckedLatitude: cell.north,
                longitude: cell.west + (cell.east - cell.west) * rng.nextUnit())
            for ll in [corner, onEdge, onParallel] {
                points.append(ll)
                let v = ll.unitVector
                // Fences through the point: the point is (within rounding) on their boundary.
                for radius in [0.0, 1, 1609.344, 8046.72, 300_000] {
                    let center = TestWorld.destination(ll, bearingDegrees: rng.nextUnit() * 360, meters: radius)
                    let exact = Earth.meanRadius * 2 * asin(min(1, (center.unitVector - v).norm / 2))
                    fences.append(try! Fence(id: id, center: center, radiusMeters: exact))
                    id += 1
                }
                fences.append(try! Fence(id: id, center: ll, radiusMeters: 0))
                id += 1
            }
        }
        let brute = BruteForceIndex(fences)
        for cellsPerRadius in [2.0, 30] {
            let index = try LatLngGridIndex(fences, cellsPerRadius: cellsPerRadius)
            IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: 31, "edges(\(cellsPerRadius))")
            // Every point is the center of a zero-radius fence, so each has at least one hit.
            for point in points {
                #expect(!index.fencesContaining(point.unitVector).isEmpty, "no hit at \(point)")
            }
        }
    }

    /// The geofence oracle (`Fixtures/fences.csv`, `Fixtures/queries.csv`).
    @Test func fixtureOracle() throws {
        let fences = try GeofenceFixture.fences()
        let index = try LatLngGridIndex(fences)
        for q in try GeofenceFixture.queries() {
            #expect(index.fencesContaining(q.point.unitVector) == q.hits.sorted(), "query \(q.qid) (\(q.category))")
        }
    }

    /// Interior cells: fixes deep inside a large fence are answered without a distance test,
    /// and the statistics count them as accepted without a test.
    @Test func interiorCellsNeedNoTest() throws {
        let fence = try Fence(id: 7, latitude: 40, longitude: -100, radiusMeters: 8046.72)
        let index = try LatLngGridIndex([fence])
        #expect(index.entryCount > 4 && index.cellCount == index.entryCount)
        var stats = QueryStats()
        var hits: [Int32] = []
        let center = LatLng(uncheckedLatitude: 40, longitude: -100)
        for k in 0..<36 {  // a ring 3 km out: inside the fence, in several cells
            let p = TestWorld.destination(center, bearingDegrees: Double(k) * 10, meters: 3000).unitVector
            index.forEachContaining(p, stats: &stats) { hits.append($0) }
        }
        #expect(hits == Array(repeating: 7, count: 36) && stats.hits == 36)
        #expect(stats.acceptedWithoutTest > 0 && stats.candidates == 36, "\(stats)")
        let outside = LatLng(uncheckedLatitude: 41, longitude: -100).unitVector  // 111 km away
        #expect(index.fencesContaining(outside).isEmpty)
    }

    /// More hits than the gather buffer holds: the buffer is flushed, nothing is lost.
    @Test func manyHitsPerPoint() throws {
        let center = LatLng(uncheckedLatitude: -33.9, longitude: 151.2)
        var fences: [Fence] = []
        for k in 0..<500 {
            let offset = k % 2 == 0 ? 0 : 1e-4 * Double(k)  // degrees: up to 5.5 km north
            let at = LatLng(uncheckedLatitude: -33.9 + offset, longitude: 151.2)
            fences.append(try Fence(id: Int32(k), center: at, radiusMeters: 6000 + Double(k)))
        }
        let index = try LatLngGridIndex(fences)
        let got = index.fencesContaining(center.unitVector)
        #expect(got == BruteForceIndex(fences).fencesContaining(center.unitVector))
        #expect(got.count == 500)
        // The batch query flushes its (fix, fence) buffer many times: 10 fixes x 500 hits.
        let lat = [Double](repeating: center.latitude, count: 10), lon = [Double](repeating: center.longitude, count: 10)
        var perFix = [[Int32]](repeating: [], count: 10)
        var chunks = 0
        lat.withUnsafeBufferPointer { la in
            lon.withUnsafeBufferPointer { lo in
                index.forEachContaining(latitudes: la, longitudes: lo) { chunk in
                    chunks += 1
                    for hit in chunk { perFix[Int(hit.fix)].append(hit.fence) }
                }
            }
        }
        #expect(chunks >= 5 && perFix.allSatisfy { $0.sorted() == got })
    }

    /// The degree entry point: invalid latitudes and non-finite coordinates match nothing;
    /// longitudes beyond ±180 wrap; every index agrees with the cell index.
    @Test func degreeEntryPoint() throws {
        let fences = [
            try Fence(id: 1, latitude: 10, longitude: 179.99, radiusMeters: 5000),
            try Fence(id: 2, latitude: 90, longitude: 0, radiusMeters: 2000)
        ]
        let cells = try LatLngGridIndex(fences), packed = PackedRTree(fences), brute = BruteForceIndex(fences)
        func ids(_ index: some FenceIndex, _ lat: Double, _ lon: Double) -> [Int32] {
            var out: [Int32] = []
            index.forEachContaining(latitude: lat, longitude: lon) { out.append($0) }
            return out.sorted()
        }
        let cases: [(Double, Double, [Int32])] = [
            (10, 179.99, [1]), (10, -179.99, [1]), (10, 179.99 + 360, [1]), (10, -180.01 - 720, [1]),
            (89.99, 123, [2]), (90, -180, [2]), (.nan, 0, []), (91, 0, []), (-90.5, 0, []),
            (10, .nan, []), (10, .infinity, []), (0, 0, [])
        ]
        for (lat, lon, expected) in cases {
            #expect(ids(cells, lat, lon) == expected, "cells at (\(lat), \(lon))")
            #expect(ids(packed, lat, lon) == expected && ids(brute, lat, lon) == expected, "(\(lat), \(lon))")
        }
    }

    @Test func emptyAndSingle() throws {
        let empty = try LatLngGridIndex([Fence]())
        #expect(empty.count == 0 && empty.fencesContaining(LatLng(uncheckedLatitude: 0, longitude: 0).unitVector).isEmpty)
        #expect(empty.nearest(to: LatLng(uncheckedLatitude: 0, longitude: 0).unitVector, k: 3).isEmpty)
        let one = try LatLngGridIndex([try Fence(id: 3, latitude: 90, longitude: 0, radiusMeters: 1)])
        #expect(one.fencesContaining(LatLng(uncheckedLatitude: 90, longitude: 123).unitVector) == [3])
        #expect(one.fencesContaining(LatLng(uncheckedLatitude: 89.9, longitude: 0).unitVector).isEmpty)
    }

    @Test func defaultCellsPerRadiusFollowsTheIndexSize() throws {
        #expect(LatLngGridIndex.defaultCellsPerRadius(fenceCount: 0) == 4)
        #expect(LatLngGridIndex.defaultCellsPerRadius(fenceCount: LatLngGridIndex.mediumIndexFences - 1) == 4)
        #expect(LatLngGridIndex.defaultCellsPerRadius(fenceCount: LatLngGridIndex.mediumIndexFences) == 2.5)
        #expect(LatLngGridIndex.defaultCellsPerRadius(fenceCount: LatLngGridIndex.largeIndexFences - 1) == 2.5)
        #expect(LatLngGridIndex.defaultCellsPerRadius(fenceCount: LatLngGridIndex.largeIndexFences) == 2.25)
        var rng = SplitMix64(seed: 16)
        #expect(try LatLngGridIndex(TestWorld.fences(50, &rng)).cellsPerRadius == 4)
        // 8 km fences: 48, 32 and 28 rows per degree by default, as the index grows.
        #expect(LatLngGrid.rowsPerDegree(LatLngGridIndex.level(radiusMeters: 8046.72, cellsPerRadius: 4)) == 48)
        #expect(LatLngGrid.rowsPerDegree(LatLngGridIndex.level(radiusMeters: 8046.72, cellsPerRadius: 2.5)) == 32)
        #expect(LatLngGrid.rowsPerDegree(LatLngGridIndex.level(radiusMeters: 8046.72, cellsPerRadius: 2.25)) == 28)
        #expect(LatLngGrid.rowsPerDegree(LatLngGridIndex.level(radiusMeters: 8046.72, cellsPerRadius: 2)) == 24)
        #expect(LatLngGridIndex.level(radiusMeters: 0, cellsPerRadius: 2) == LatLngGridIndex.maxIndexLevel)
        #expect(LatLngGridIndex.level(radiusMeters: 1e9, cellsPerRadius: 2) == 0)
    }

    /// Many groups in the same cells: a cell's consecutive groups become runs of at most
    /// ``LatLngGridIndex/maxRun``, and answers stay exact.
    @Test func runsOfGroups() throws {
        var rng = SplitMix64(seed: 17)
        let fences = (0..<600).map { i in
            try! Fence(
                id: Int32(i), latitude: 52.5 + rng.nextUnit() * 0.001, longitude: 13.4 + rng.nextUnit() * 0.001,
                radiusMeters: [1609.344, 4828.032, 8046.72][i % 3])
        }
        let index = try LatLngGridIndex(fences)
        #expect(index.groupCount == 600)  // distinct centers
        #expect(index.entries.contains { $0 & 31 == UInt32(LatLngGridIndex.maxRun - 1) })  // a full run
        #expect(index.entryCount * 8 < index.cellCount * 600 / 2, "runs, not one entry per (cell, group)")
        let brute = BruteForceIndex(fences)
        let points = (0..<300).map { _ in
            TestWorld.destination(
                LatLng(uncheckedLatitude: 52.5005, longitude: 13.4005),
                bearingDegrees: rng.nextUnit() * 360, meters: rng.nextUnit() * 9000)
        }
        IndexOracle.expectSameAnswers(index, as: brute, at: points, seed: 17, "runs")
    }

    @Test func isDeterministicAndSized() throws {
        var rng = SplitMix64(seed: 41)
        let fences = TestWorld.fences(400, &rng)
        let a = try LatLngGridIndex(fences), b = try LatLngGridIndex(fences.reversed())
        #expect(a.entries == b.entries || a.count == b.count)  // same cells; ids may differ in order
        let c = try LatLngGridIndex(fences)
        #expect(a.entries == c.entries && a.records == c.records && a.cells.words == c.cells.words)
        #expect(a.memoryBytes >= a.entryCount * 4 + a.groupCount * LatLngGridIndex.recordWords * 8)
    }

    /// The fix -> cell mapping: rows, bands, columns, clamping at 90 and 180, keys.
    @Test func gridCoordinates() {
        #expect(
            (0...LatLngGrid.maxLevel).map { LatLngGrid.rowsPerDegree($0) }
                == [1, 1.5, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128])
        #expect(LatLngGrid.row(latitude: -90, level: 3) == 0)
        #expect(LatLngGrid.row(latitude: 90, level: 3) == 180 * 3 - 1)
        #expect(LatLngGrid.row(latitude: 0, level: 0) == 90 && LatLngGrid.row(latitude: -1e-9, level: 0) == 89)
        #expect(LatLngGrid.row(latitude: -1e-300, level: 0) == 90)  // -1e-300 + 90 rounds to 90: inside the margin
        #expect(LatLngGrid.band(row: 90, level: 0) == 0)  // [0, 1] degrees
        #expect(LatLngGrid.band(row: 150, level: 0) == 1)  // [60, 61]: cos 60 = 1/2 (rounded up)
        #expect(LatLngGrid.band(row: 29, level: 0) == 1)  // [-61, -60]
        #expect(LatLngGrid.band(row: 179, level: 0) == 5 && LatLngGrid.band(row: 0, level: 16) == 10)  // 32 rows per degree; cos 89 = 2^-5.84
        // A polar row keeps at least 7 columns (2^k <= 57.3 D), far from the cap.
        for level in 0...LatLngGrid.maxLevel {
            #expect(LatLngGrid.columnCount(band: LatLngGrid.band(row: 0, level: level), level: level) >= 7, "level \(level)")
        }
        #expect(LatLngGrid.columnCount(band: 0, level: 0) == 360 && LatLngGrid.columnCount(band: 9, level: 0) == 1)
        #expect(LatLngGrid.columnCount(band: 4, level: 0) == 23)  // 22.5: a narrower last column
        #expect(LatLngGrid.column(longitude: 180, band: 0, level: 4) == 360 * 4 - 1)
        #expect(LatLngGrid.column(longitude: -180, band: 0, level: 4) == 0)
        #expect(LatLngGrid.row(latitude: 0, level: 5) == 450 && LatLngGrid.row(latitude: 89.999, level: 5) == 899)
        #expect(LatLngGrid.column(longitude: 179.99, band: 4, level: 0) == 22)
        // Keys: rows below 2^15 and columns below 2^16 at every level.
        #expect(LatLngGrid.rowCount(level: LatLngGrid.maxLevel) <= 1 << 15)
        #expect(LatLngGrid.columnCount(band: 0, level: LatLngGrid.maxLevel) <= 1 << 16)
        #expect(LatLngGrid.key(row: 1, column: 0) != LatLngGrid.key(row: 0, column: 1) && LatLngGrid.key(row: 0, column: 0) != 0)
        // Widths stay within [1/2, 1] of the row height at the row's equatorward edge.
        for level in [3, 4] {
            let height = LatLngGrid.degreesPerRow(level)
            for row in 0..<LatLngGrid.rowCount(level: level) {
                let cell = LatLngGrid.bounds(level: level, row: row, column: 0)
                let near = min(abs(cell.south), abs(cell.north))
                let width = (cell.east - cell.west) * cos(near * .pi / 180)
                #expect(width <= height * (1 + 1e-12) && width >= height / 2 * (1 - 1e-12), "level \(level) row \(row): \(width)")
            }
        }
        // The per-level fast path gives the static mapping's keys, at every latitude band.
        var rng = SplitMix64(seed: 61)
        for level in 0...LatLngGrid.maxLevel {
            let fast = LatLngGrid.Level(level)
            for n in 0..<400 {
                let lat = n < 4 ? [-90.0, 90, 60, -60][n] : -90 + 180 * rng.nextUnit()
                let lon = n % 9 == 0 ? 180 : -180 + 360 * rng.nextUnit()
                #expect(
                    fast.key(latitude: lat, longitude: lon) == LatLngGrid.key(latitude: lat, longitude: lon, level: level),
                    "level \(level) (\(lat), \(lon)), seed 61")
            }
        }
    }

    /// The cell table finds every key it holds at its level, and no other key.
    @Test func cellTableFindsItsKeys() {
        var rng = SplitMix64(seed: 71)
        var levels = [[(key: UInt32, value: UInt32)]](repeating: [], count: LatLngGrid.maxLevel + 1)
        for level in [0, 3, 9] {
            var seen = Set<UInt32>()
            for n in 0..<(level == 0 ? 1 : 5000) {
                let key = UInt32(1) << 31 | UInt32(truncatingIfNeeded: rng.next()) >> 1
                if seen.insert(key).inserted { levels[level].append((key, UInt32(n))) }
            }
        }
        let table = CellTable(levels: levels)
        #expect(table.count == levels.reduce(0) { $0 + $1.count })
        table.words.withUnsafeBufferPointer { words in
            for (level, pairs) in levels.enumerated() where !pairs.isEmpty {
                for pair in pairs {
                    let got = table.lookup(pair.key, level: level, words)
                    #expect(got.found && got.value == pair.value, "level \(level) key \(pair.key), seed 71")
                }
                for _ in 0..<2000 {
                    let key = UInt32(1) << 31 | UInt32(truncatingIfNeeded: rng.next()) >> 1
                    if pairs.contains(where: { $0.key == key }) { continue }
                    #expect(!table.lookup(key, level: level, words).found, "absent key \(key), seed 71")
                }
            }
        }
        // Tiny tables, where a key's two buckets are often the same bucket.
        for size in 1...12 {
            var tiny = [[(key: UInt32, value: UInt32)]](repeating: [], count: LatLngGrid.maxLevel + 1)
            for k in 0..<size {
                let key: UInt32 = 1 << 31 | UInt32(k * 7919 + 1)
                tiny[1].append((key, UInt32(100 + k)))
            }
            let small = CellTable(levels: tiny)
            small.words.withUnsafeBufferPointer { words in
                for pair in tiny[1] {
                    let got = small.lookup(pair.key, level: 1, words)
                    #expect(got.found && got.value == pair.value, "size \(size) key \(pair.key)")
                }
            }
        }
        // About 90% full.
        #expect(Double(table.count) >= 0.8 * Double(table.words.count / 2), "\(table.count) in \(table.words.count / 2) slots")
    }

    /// The cell distance bounds hold for sampled points of random cells, at any latitude, for
    /// centers anywhere (the antipodal meridian included).
    @Test func chord2RangeBoundsSamples() {
        var rng = SplitMix64(seed: 51)
        for n in 0..<400 {
            let level = Int(rng.next() % UInt64(LatLngGrid.maxLevel + 1))
            let row = Int(rng.next() % UInt64(LatLngGrid.rowCount(level: level)))
            let columns = LatLngGrid.columnCount(band: LatLngGrid.band(row: row, level: level), level: level)
            let column = Int(rng.next() % UInt64(columns))
            let cell = LatLngGrid.bounds(level: level, row: row, column: column)
            // Centers: anywhere, or near the cell, or on its antipodal meridian.
            var center = TestWorld.uniform(&rng)
            if n % 3 == 1 {
                center = LatLng(
                    uncheckedLatitude: max(-90, min(90, cell.south + rng.nextUnit() * 3 - 1)),
                    longitude: cell.west + (rng.nextUnit() * 3 - 1) * (cell.east - cell.west))
            } else if n % 3 == 2 {
                center = LatLng(
                    uncheckedLatitude: -90 + 180 * rng.nextUnit(),
                    longitude: (cell.west + 180 + rng.nextUnit() * (cell.east - cell.west)).remainder(dividingBy: 360))
            }
            let c = center.unitVector
            let range = CellGeometry.chord2Range(from: c, center: center, cell: cell)
            #expect(range.min <= range.max)
            var lowest = Double.infinity, highest = 0.0
            for k in 0..<40 {
                // Corners and edges too: k < 4 corners, then random interior and edge points.
                let fu = k < 4 ? Double(k & 1) : (k % 5 == 0 ? 0 : rng.nextUnit())
                let fv = k < 4 ? Double(k >> 1) : (k % 7 == 0 ? 1 : rng.nextUnit())
                let x = LatLng(
                    uncheckedLatitude: cell.south + (cell.north - cell.south) * fv,
                    longitude: cell.west + (cell.east - cell.west) * fu
                ).unitVector
                let d = squaredChord(x.x, x.y, x.z, c.x, c.y, c.z)
                lowest = min(lowest, d)
                highest = max(highest, d)
                #expect(
                    d >= range.min - 1e-13 && d <= range.max + 1e-13,
                    "level \(level) (\(row), \(column)) center \(center): \(d) not in \(range), seed 51")
            }
            // Tight where it matters: the bound is attained up to sampling.
            #expect(range.min <= lowest + 1e-13)
        }
    }
}
