import Foundation
import Geodesy
import Testing

@testable import GeoCells

@Suite struct RegionCovererTests {
    /// Every one of the 2000 fixture coverings (500 caps x 4 settings) is identical, cell for
    /// cell, to the one Google S2 0.14 produced.
    @Test func matchesS2CellForCell() {
        var total: [String: Int] = [:], same: [String: Int] = [:]
        var firstMismatches: [String] = []
        for row in CoverFixture.rows {
            let ours = row.cover(row.coverer)
            total[row.setting, default: 0] += 1
            if ours == row.s2Cells {
                same[row.setting, default: 0] += 1
            } else if firstMismatches.count < 5 {
                firstMismatches.append(
                    "cap \(row.cap_id) \(row.setting): ours \(ours.map(\.token)) s2 \(row.s2Cells.map(\.token))")
            }
        }
        for setting in CoverFixture.settings {
            let t = total[setting, default: 0], s = same[setting, default: 0]
            print("S2 match \(setting): \(s)/\(t) (\(Double(s) / Double(max(t, 1)) * 100)%)")
            #expect(t == 500)
            #expect(s == t, "setting \(setting): \(s) of \(t) identical; first mismatches: \(firstMismatches)")
        }
    }

    /// Coverings contain the center, a ring at 0.9999999 x radius and random inside points;
    /// every exterior cell may intersect the cap; every interior cell is inside it; the level
    /// limits and (where S2 keeps it) the cell budget are respected.
    @Test func coveringsAreValid() {
        for row in CoverFixture.rows {
            let cap = row.cap
            let cells = row.cover(row.coverer)
            let union = CellUnion(unnormalized: cells)
            let context = "cap \(row.cap_id) \(row.setting)"
            #expect(union.isValid, "\(context): not sorted / overlapping")
            for id in cells {
                #expect(id.level >= row.min_level && id.level <= row.max_level, "\(context): level \(id.level)")
            }
            if row.min_level == 0 {
                #expect(cells.count <= row.max_cells, "\(context): \(cells.count) cells")
            }
            if row.interior {
                for id in cells { #expect(cap.contains(Cell(id)), "\(context): \(id.token) not inside") }
            } else {
                for id in cells { #expect(cap.mayIntersect(Cell(id)), "\(context): \(id.token) misses the cap") }
                let seed = UInt64(row.cap_id)
                var missed = 0
                for p in CapSampler.samples(cap, seed: seed) where cap.contains(p) && !union.contains(p) {
                    missed += 1
                }
                #expect(missed == 0, "\(context) seed \(seed): \(missed) sample points not covered")
            }
        }
    }

    /// Median covering-area / cap-area ratio per setting, ours beside S2's.
    @Test func areaRatios() {
        for setting in CoverFixture.settings {
            var ours: [Double] = [], theirs: [Double] = []
            for row in CoverFixture.rows where row.setting == setting {
                let cells = row.cover(row.coverer)
                ours.append(CellUnion(unnormalized: cells).exactArea() / row.cap.area)
                theirs.append(row.area_ratio)
            }
            ours.sort()
            theirs.sort()
            let mo = ours[ours.count / 2], mt = theirs[theirs.count / 2]
            print("area ratio median \(setting): ours \(mo), S2 \(mt)")
            #expect(abs(mo - mt) <= 1e-6 * mt, "\(setting): median area ratio \(mo) vs S2 \(mt)")
        }
    }

    /// Property test: the covering of a cap contains the leaf cell of every random point in it,
    /// for caps at the poles, on the antimeridian, at cube-face corners, anywhere, with radii
    /// from 0 (a point) and 1 m to 500 km; interior cells lie inside.
    @Test func coveringsContainRandomInsidePoints() throws {
        let seed: UInt64 = 20_261_122
        var rng = SplitMix64(seed: seed)
        let corner = 35.26438968275465  // latitude of the cube corners, degrees
        let centers: [(Double, Double)] = [
            (90, 0), (-90, 0), (89.9999, 45), (-89.99, -120), (0, 180), (10, -180), (-45, 179.9999),
            (corner, 45), (-corner, -135), (corner, 135), (0, 0), (0, 45), (45, 90), (51.5, -0.12)
        ]
        var caps: [Cap] = []
        for (lat, lon) in centers {
            for meters in [0, 1, 30, 1609.344, 25_000, 500_000] {
                caps.append(Cap(center: try LatLng(latitude: lat, longitude: lon), meters: Double(meters)))
            }
        }
        for _ in 0..<40 {
            let ll = try LatLng(latitude: asin(2 * rng.nextUnit() - 1) * 180 / .pi, longitude: rng.nextUnit() * 360 - 180)
            let meters = exp(rng.nextUnit() * log(500_000.0))  // log-uniform 1 m ... 500 km
            caps.append(Cap(center: ll, meters: meters))
        }
        let coverers = [
            RegionCoverer.default, try RegionCoverer(maxCells: 16, minLevel: 10, maxLevel: 16),
            try RegionCoverer(maxCells: 4, minLevel: 3, maxLevel: 25, levelMod: 2),
            try RegionCoverer(maxCells: 20, levelMod: 3), try RegionCoverer(maxCells: 1)
        ]
        for (ci, cap) in caps.enumerated() {
            for coverer in coverers {
                let cells = coverer.covering(of: cap)
                let union = CellUnion(unnormalized: cells)
                let context = "seed \(seed) cap \(ci) \(cap) coverer \(coverer)"
                #expect(!cells.isEmpty, "\(context)")
                #expect(union.isValid, "\(context)")
                for id in cells {
                    #expect(id.level >= coverer.minLevel && id.level <= coverer.trueMaxLevel, "\(context)")
                    #expect((id.level - coverer.minLevel) % coverer.levelMod == 0, "\(context)")
                }
                #expect(union.contains(CellID(cap.center)), "\(context): center")
                for p in CapSampler.samples(cap, ring: 16, random: 48, seed: seed &+ UInt64(ci))
                where cap.contains(p) {
                    #expect(union.contains(CellID(p)), "\(context): point \(p)")
                }
                for id in coverer.interiorCovering(of: cap) {
                    #expect(cap.contains(Cell(id)), "\(context): interior \(id.token)")
                }
            }
        }
    }

    @Test func emptyAndFullCaps() {
        #expect(RegionCoverer.default.covering(of: .empty).isEmpty)
        #expect(RegionCoverer.default.interiorCovering(of: .empty).isEmpty)
        let faces = (0..<6).map { CellID(face: $0) }
        #expect(RegionCoverer.default.covering(of: .full) == faces)
        #expect(RegionCoverer.default.interiorCovering(of: .full) == faces)
    }

    @Test func scratchReuseGivesSameResult() throws {
        let coverer = try RegionCoverer(maxCells: 12)
        var scratch = RegionCoverer.Scratch()
        var out: [CellID] = []
        for row in CoverFixture.rows.prefix(200) {
            if row.interior {
                coverer.interiorCovering(of: row.cap, into: &out, scratch: &scratch)
                #expect(out == coverer.interiorCovering(of: row.cap), "cap \(row.cap_id)")
            } else {
                coverer.covering(of: row.cap, into: &out, scratch: &scratch)
                #expect(out == coverer.covering(of: row.cap), "cap \(row.cap_id)")
            }
        }
    }

    @Test func optionsAreValidated() {
        #expect(throws: RegionCoverer.OptionsError.maxCellsNotPositive(0)) { try RegionCoverer(maxCells: 0) }
        #expect(throws: RegionCoverer.OptionsError.levelOutOfRange(31)) { try RegionCoverer(maxLevel: 31) }
        #expect(throws: RegionCoverer.OptionsError.levelOutOfRange(-1)) { try RegionCoverer(minLevel: -1) }
        #expect(throws: RegionCoverer.OptionsError.minLevelAboveMaxLevel(min: 12, max: 10)) {
            try RegionCoverer(minLevel: 12, maxLevel: 10)
        }
        #expect(throws: RegionCoverer.OptionsError.levelModOutOfRange(4)) { try RegionCoverer(levelMod: 4) }
        let c = try? RegionCoverer(maxCells: 5, minLevel: 2, maxLevel: 11, levelMod: 3)
        #expect(c?.trueMaxLevel == 11)
        let d = try? RegionCoverer(maxCells: 5, minLevel: 2, maxLevel: 10, levelMod: 3)
        #expect(d?.trueMaxLevel == 8)
    }

    /// The libstdc++ heap replica pops equal priorities in the order std::priority_queue does
    /// (hand-traced): pushes of priorities [5, 5, 7, 5] tagged 0...3 pop as 2, 0, 1, 3.
    @Test func heapTieOrder() {
        var heap = CandidateHeap()
        for (i, p) in [5, 5, 7, 5].enumerated() { heap.push(.init(priority: Int32(p), candidate: Int32(i))) }
        var order: [Int32] = []
        while !heap.isEmpty { order.append(heap.pop().candidate) }
        #expect(order == [2, 0, 1, 3])
    }
}
