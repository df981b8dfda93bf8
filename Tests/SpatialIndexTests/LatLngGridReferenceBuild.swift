import Geodesy
@testable import SpatialIndex

/// The plain build of ``LatLngGridIndex``, written for clarity, not speed: a closure-compared
/// sort of the fences, one array per group, a dictionary of radius lists for the kinds, every
/// cell classified with ``CellGeometry/chord2Range(from:center:cell:)`` (trigonometry per
/// corner), and an index permutation sorted by (level, cell, entry). The production build must
/// produce exactly its records, kinds, entries and cells (`LatLngGridIndexBuildTests`).
enum LatLngGridReferenceBuild {
    struct Parts: Equatable {
        var records: [UInt64]
        var kinds: [Double]
        var kindRadii: [Double]
        var entries: [UInt32]
        /// Per level, the (cell key, first entry) pairs in key order.
        var cells: [[UInt64]]
        var levelMask: UInt32
    }

    static func build(_ input: [Fence], cellsPerRadius: Double) -> Parts {
        let n = input.count
        var order = input.indices.map { (key: HilbertCurve.key(input[$0].centerVector), index: $0) }
        order.sort { l, r in
            if l.key != r.key { return l.key < r.key }
            let a = input[l.index], b = input[r.index]
            let ac = a.centerVector, bc = b.centerVector
            if ac.x.bitPattern != bc.x.bitPattern { return ac.x.bitPattern < bc.x.bitPattern }
            if ac.y.bitPattern != bc.y.bitPattern { return ac.y.bitPattern < bc.y.bitPattern }
            if ac.z.bitPattern != bc.z.bitPattern { return ac.z.bitPattern < bc.z.bitPattern }
            if a.chord2 != b.chord2 { return a.chord2 > b.chord2 }
            return l.index < r.index
        }
        var groupFirst: [Int] = []
        for (position, item) in order.enumerated() {
            if let g = groupFirst.last, position - g < LatLngGridIndex.maxGroupSize,
                LatLngGridIndex.sameCenter(input[order[g].index], input[item.index])
            {
                continue
            }
            groupFirst.append(position)
        }
        groupFirst.append(n)
        let groupCount = groupFirst.count - 1
        let groupLevel = (0..<groupCount).map {
            LatLngGridIndex.level(radiusMeters: input[order[groupFirst[$0]].index].radiusMeters, cellsPerRadius: cellsPerRadius)
        }
        let groupOrder = (0..<groupCount).sorted { (groupLevel[$0], $0) < (groupLevel[$1], $1) }
        var records: [UInt64] = []
        var kinds: [Double] = [], kindRadii: [Double] = []
        var kindOf: [[UInt64]: UInt64] = [:]
        for g in groupOrder {
            let members = order[groupFirst[g]..<groupFirst[g + 1]].map { input[$0.index] }
            let radiusBits = members.map(\.radiusMeters.bitPattern)
            let kind: UInt64
            if let k = kindOf[radiusBits] {
                kind = k
            } else {
                kind = UInt64(kinds.count / LatLngGridIndex.kindWords)
                kindOf[radiusBits] = kind
                for k in 0..<LatLngGridIndex.maxGroupSize {
                    kinds.append(k < members.count ? members[k].chord2 : -1)
                    kindRadii.append(k < members.count ? members[k].radiusMeters : 0)
                }
                kinds.append(Double(members.count))
            }
            let c = members[0].centerVector
            func id(_ k: Int) -> UInt64 { k < members.count ? UInt64(UInt32(bitPattern: members[k].id)) : 0 }
            records.append(contentsOf: [
                c.x.bitPattern, c.y.bitPattern, c.z.bitPattern,
                id(0) | id(1) << 32, id(2) | kind << 32
            ])
        }
        var keys: [UInt64] = []
        var packed: [UInt32] = []
        var levelMask: UInt32 = 0
        for (record, g) in groupOrder.enumerated() {
            let first = groupFirst[g], count = groupFirst[g + 1] - first
            let chord2s = (0..<count).map { input[order[first + $0].index].chord2 }
            let largest = input[order[first].index]
            let level = groupLevel[g]
            levelMask |= 1 << UInt32(level)
            forEachCell(near: largest, level: level) { key, range in
                guard range.min <= chord2s[0] + LatLngGridIndex.margin else { return }
                var a = 0
                while a < count && range.max <= chord2s[a] - LatLngGridIndex.margin { a += 1 }
                keys.append(UInt64(level) << 32 | UInt64(key))
                let interior = a == count ? 3 : a
                packed.append(UInt32(record) << 8 | UInt32(interior) << 5)
            }
        }
        var perm = Array(keys.indices)
        perm.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : packed[$0] < packed[$1] }
        var entries: [UInt32] = []
        var cells = [[UInt64]](repeating: [], count: LatLngGrid.maxLevel + 1)
        for (e, i) in perm.enumerated() {
            let newCell = e == 0 || keys[perm[e - 1]] != keys[i]
            if newCell {
                if !entries.isEmpty { entries[entries.count - 1] |= 128 }
                let key = keys[i]
                cells[Int(key >> 32)].append(UInt64(UInt32(truncatingIfNeeded: key)) << 32 | UInt64(entries.count))
            } else if let last = entries.last, last & 31 < UInt32(LatLngGridIndex.maxRun - 1),
                (last >> 8) + (last & 31) + 1 == packed[i] >> 8
            {
                let interior = Swift.min(last & 0x60, packed[i] & 0x60)
                entries[entries.count - 1] = (last & ~0x60) + 1 | interior
                continue
            }
            entries.append(packed[i])
        }
        if !entries.isEmpty { entries[entries.count - 1] |= 128 }
        return Parts(
            records: records, kinds: kinds, kindRadii: kindRadii, entries: entries, cells: cells,
            levelMask: levelMask)
    }

    /// Every cell of `level` that the padded bounding box of `fence`'s cap meets, with the
    /// squared-chord range from the center to the cell.
    static func forEachCell(near fence: Fence, level: Int, _ visit: (UInt32, (min: Double, max: Double)) -> Void) {
        let box = LatLngBox.bounding(center: fence.center, radius: fence.radiusMeters + 10)
        let firstRow = LatLngGrid.row(latitude: Swift.max(-90, box.south), level: level)
        let lastRow = LatLngGrid.row(latitude: Swift.min(90, box.north), level: level)
        for row in firstRow...lastRow {
            let band = LatLngGrid.band(row: row, level: level)
            let columns = LatLngGrid.columnCount(band: band, level: level)
            let west = LatLngGrid.column(longitude: box.west, band: band, level: level)
            let east = LatLngGrid.column(longitude: box.east, band: band, level: level)
            let ranges: [ClosedRange<Int>]
            if box.spansAllLongitudes {
                ranges = [0...(columns - 1)]
            } else if box.crossesAntimeridian {
                ranges = [west...(columns - 1), 0...east]
            } else {
                ranges = [west...Swift.max(west, east)]
            }
            for range in ranges {
                for column in range {
                    let cell = LatLngGrid.bounds(level: level, row: row, column: column)
                    visit(
                        LatLngGrid.key(row: row, column: column),
                        CellGeometry.chord2Range(from: fence.centerVector, center: fence.center, cell: cell))
                }
            }
        }
    }
}
