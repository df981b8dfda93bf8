import Geodesy
import Testing
@testable import SpatialIndex

/// The production build of ``LatLngGridIndex`` (radix-sorted keys, trigonometry hoisted per row
/// and column) against ``LatLngGridReferenceBuild`` (the plain one): identical records, kinds,
/// entries and cell tables, so identical answers, memory and speed.
@Suite struct LatLngGridIndexBuildTests {
    /// Random fences (poles, antimeridian, duplicate centers, radii 0 m ... the whole sphere)
    /// at several cell densities.
    @Test(arguments: [(UInt64(41), 0), (42, 1), (43, 2), (44, 60), (45, 400), (46, 1200)])
    func randomFencesMatchReference(seed: UInt64, count: Int) {
        var rng = SplitMix64(seed: seed)
        let fences = TestWorld.fences(count, &rng)
        for cellsPerRadius in [2.25, 0.7, 4] {
            expectSameBuild(fences, cellsPerRadius: cellsPerRadius, "seed \(seed), \(count) fences, cells \(cellsPerRadius)")
        }
    }

    /// The product's shape: POIs with 1/3/5-mile tiers (some with fewer tiers, some with more
    /// than a group holds), crowded near the poles and the antimeridian, and centers a meter
    /// apart (equal Hilbert keys, different centers: the sort's tie-breaks).
    @Test(arguments: [UInt64(51), 52, 53])
    func tieredFencesMatchReference(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let places: [LatLng] = [
            LatLng(uncheckedLatitude: 89.9, longitude: 10), LatLng(uncheckedLatitude: -89.95, longitude: -170),
            LatLng(uncheckedLatitude: 51.5, longitude: 179.99), LatLng(uncheckedLatitude: -12, longitude: -179.995),
            LatLng(uncheckedLatitude: 40.7, longitude: -74), LatLng(uncheckedLatitude: 75.6, longitude: 30)
        ]
        var fences: [Fence] = []
        var id: Int32 = 0
        for _ in 0..<900 {
            let base = places[Int(rng.next() % UInt64(places.count))]
            var center = TestWorld.destination(base, bearingDegrees: rng.nextUnit() * 360, meters: rng.nextUnit() * 60_000)
            if rng.next() % 4 == 0, let last = fences.last {
                center = TestWorld.destination(last.center, bearingDegrees: rng.nextUnit() * 360, meters: 1)
            }
            let tiers = [3, 3, 3, 1, 2, 5][Int(rng.next() % 6)]
            for t in 0..<tiers {
                let radius = [1609.344, 4828.032, 8046.72, 300, 8046.72][t]
                fences.append(try! Fence(id: id, center: center, radiusMeters: radius))
                id += 1
            }
        }
        // Shuffle: the build must not depend on input order beyond its documented tie-break.
        for i in stride(from: fences.count - 1, to: 0, by: -1) { fences.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        for cellsPerRadius in [2.25, 2.5, 4] {
            expectSameBuild(fences, cellsPerRadius: cellsPerRadius, "seed \(seed), cells \(cellsPerRadius)")
        }
    }

    /// Keys sorted by a bit range: ascending in those bits, stable (input order among equal
    /// digits), a permutation of the input; empty and one-key inputs unchanged.
    @Test(arguments: [UInt64(61), 62])
    func radixSortIsStableByBits(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let cases: [(count: Int, bits: Range<Int>)] = [
            (0, 0..<64), (1, 3..<40), (5000, 26..<62), (3000, 29..<64),
            (2000, 0..<64), (700, 10..<11)
        ]
        for (count, bits) in cases {
            // Few distinct values in bits 40..<43 (ties), random high bits, the position below.
            var keys: [UInt64] = []
            for position in 0..<count {
                let few: UInt64 = (rng.next() % 7) << 40
                let high: UInt64 = (rng.next() & 0xffff) << 48
                keys.append(UInt64(position) | few | high)
            }
            var sorted = keys
            RadixSort.sort(&sorted, bits: bits)
            let width = UInt64(bits.count)
            let mask: UInt64 = (width == 64 ? UInt64.max : (1 << width) - 1) << UInt64(bits.lowerBound)
            let expected: [UInt64] = keys.indices.sorted { a, b in
                let ka = keys[a] & mask, kb = keys[b] & mask
                return ka != kb ? ka < kb : a < b
            }.map { keys[$0] }
            #expect(sorted == expected, "seed \(seed), \(count) keys, bits \(bits)")
        }
    }

    func expectSameBuild(_ fences: [Fence], cellsPerRadius: Double, _ context: String) {
        guard let index = try? LatLngGridIndex(fences, cellsPerRadius: cellsPerRadius) else {
            Issue.record("the grid refused \(fences.count) fences (\(context))")
            return
        }
        let reference = LatLngGridReferenceBuild.build(fences, cellsPerRadius: cellsPerRadius)
        #expect(index.records == reference.records, "records: \(context)")
        #expect(index.kinds == reference.kinds, "kinds: \(context)")
        #expect(index.kindRadii == reference.kindRadii, "kind radii: \(context)")
        #expect(index.entries == reference.entries, "entries: \(context)")
        #expect(index.levelMask == reference.levelMask, "levels: \(context)")
        #expect(cellPairs(index) == reference.cells, "cells: \(context)")
        let table = CellTable(levels: reference.cells.map { $0.map { (UInt32($0 >> 32), UInt32(truncatingIfNeeded: $0)) } })
        #expect(
            index.cells.words == table.words && index.cells.bases == table.bases && index.cells.counts == table.counts,
            "cell table: \(context)")
    }

    /// Per level, the table's (key << 32 | first entry) pairs in key order.
    func cellPairs(_ index: LatLngGridIndex) -> [[UInt64]] {
        (0...LatLngGrid.maxLevel).map { level in
            let base = Int(index.cells.bases[level]), count = Int(index.cells.counts[level])
            var pairs: [UInt64] = []
            for b in base..<(base + count) {
                for lane in 0..<4 where index.cells.words[b * 8 + lane] != 0 {
                    pairs.append(UInt64(index.cells.words[b * 8 + lane]) << 32 | UInt64(index.cells.words[b * 8 + 4 + lane]))
                }
            }
            return pairs.sorted()
        }
    }
}

/// The grid's limits are thrown errors naming them, not traps.
@Suite struct LatLngGridIndexLimitTests {
    @Test(arguments: [0.0, -1, .nan, .infinity])
    func cellsPerRadiusMustBeFinitePositive(value: Double) throws {
        let fence = try Fence(id: 0, latitude: 1, longitude: 2, radiusMeters: 100)
        #expect {
            try LatLngGridIndex([fence], cellsPerRadius: value)
        } throws: { error in
            guard case .invalidCellsPerRadius = error as? IndexCapacityError else { return false }
            return "\(error)".contains("cells per radius")
        }
    }

    @Test func limitsAreNamedInTheMessages() {
        #expect(IndexCapacityError.tooManyFences(count: 1 << 29, limit: 1 << 29).description.contains("2^29"))
        #expect(IndexCapacityError.tooManyGroups(count: 1 << 24, limit: 1 << 24).description.contains("2^24"))
    }
}
