#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// The build's classification of the cells near one center group of ``LatLngGridIndex``: for
/// every cell of the group's level that the padded bounding box of its largest cap meets, the
/// least and greatest squared chord from the center to the cell, and from them whether the
/// group is listed in the cell and how many of its fences hold all of it.
///
/// Same arithmetic as ``CellGeometry/chord2Range(from:center:cell:)``, bit for bit, with the
/// repeated work hoisted: a cell corner's unit vector is `(cos λ cos φ, sin λ cos φ, sin φ)`
/// (``UnitVector/init(_:)``), and the grid's parallels and meridians are the same for every
/// group, so their sines and cosines are computed once per build (``GridTrigonometry``); the
/// distance to a cell's edge meridian arc is shared with the neighboring cell when the two
/// edges are the same arc (bit-identical corners); and the corners decide most cells without
/// the arcs: the least chord is at most a corner's (a corner within reach means "listed") and
/// the greatest at least a corner's (a corner beyond the largest fence means "held by none").
///
/// Scratch storage is kept between groups, so classifying allocates only when a group has
/// more columns than any before (or reaches a level and band not seen yet).
struct CellClassifier {
    /// Trigonometry of the grid's parallels and meridians, filled on demand.
    var trig = GridTrigonometry()
    /// Per column of the current band, in visiting order: the column number and the offsets
    /// (degrees, [0, 360)) of the center's meridian and of the antipodal meridian east of its
    /// west edge.
    var columns: [Int] = []
    var centerOffset: [Double] = [], antipodeOffset: [Double] = []

    /// Appends the entry key (``LatLngGridIndex/EntryKey``) of every cell of `level` that the
    /// group with record number `record`, centered on `largest` (its largest fence), is listed
    /// in. `chord2s` are the group's squared chords, descending, -1 past `count`.
    mutating func appendCells(
        of largest: Fence, level: Int, chord2s: (Double, Double, Double), count: Int,
        record: Int, into keys: inout [UInt64]
    ) {
        let center = largest.center, c = largest.centerVector
        let minus = UnitVector(x: -c.x, y: -c.y, z: -c.z)
        let margin = LatLngGridIndex.margin
        let listed = chord2s.0 + margin
        let holds = (chord2s.0 - margin, chord2s.1 - margin, chord2s.2 - margin)
        let box = LatLngBox.bounding(center: center, radius: largest.radiusMeters + 10)
        let firstRow = LatLngGrid.row(latitude: Swift.max(-90, box.south), level: level)
        let lastRow = LatLngGrid.row(latitude: Swift.min(90, box.north), level: level)
        let height = LatLngGrid.degreesPerRow(level)
        trig.use(level: level)
        var cachedBand = -1
        var meridians = GridTrigonometry.Meridians()
        for row in firstRow...lastRow {
            let band = LatLngGrid.band(row: row, level: level)
            if band != cachedBand {
                cachedBand = band
                meridians = trig.meridians(band: band)
                cacheColumns(box: box, band: band, level: level, centerLongitude: center.longitude, meridians)
            }
            // The row's parallels (as LatLngGrid.bounds computes them) and c's meridian gap.
            let south = Double(row) * height - 90
            let north = Swift.min(90, south + height)
            let (cosS, sinS, cosN, sinN) = trig.parallels(row: row)
            let gap = Swift.max(0, south - center.latitude, center.latitude - north)
            let s = sinCos(degrees: gap / 2).sin
            let alongMeridian = 4 * s * s
            // The previous cell's east-edge distances, when computed (NaN otherwise).
            var previousNearEast = Double.nan, previousFarEast = Double.nan
            var previousColumn = -2
            meridians.values.withUnsafeBufferPointer { m in
                for i in columns.indices {
                    let column = columns[i]
                    let base = column &* GridTrigonometry.Meridians.stride
                    let westCos = m[base], westSin = m[base + 1], eastCos = m[base + 2], eastSin = m[base + 3]
                    let w = m[base + 4]
                    // The west edge is the previous cell's east edge (same corners, same distances).
                    let sharedWest = previousColumn &+ 1 == column && m[base + 5] != 0
                    previousColumn = column
                    let sw = UnitVector(x: westCos * cosS, y: westSin * cosS, z: sinS)
                    let nw = UnitVector(x: westCos * cosN, y: westSin * cosN, z: sinN)
                    let se = UnitVector(x: eastCos * cosS, y: eastSin * cosS, z: sinS)
                    let ne = UnitVector(x: eastCos * cosN, y: eastSin * cosN, z: sinN)
                    let nearWest = sharedWest ? previousNearEast : .nan
                    let farWest = sharedWest ? previousFarEast : .nan
                    previousNearEast = .nan
                    previousFarEast = .nan
                    if w >= 360 || centerOffset[i] <= w {
                        guard alongMeridian <= listed else { continue }
                    } else if !(CellGeometry.chord2(c, sw) <= listed || CellGeometry.chord2(c, nw) <= listed
                        || CellGeometry.chord2(c, se) <= listed || CellGeometry.chord2(c, ne) <= listed)
                    {
                        // The least chord is at most each corner's (the arcs' ends), so a corner
                        // within reach decides "listed"; else the arcs decide.
                        let west = nearWest.isNaN ? CellGeometry.arcChord2(c, sw, nw) : nearWest
                        let east = CellGeometry.arcChord2(c, se, ne)
                        previousNearEast = east
                        guard Swift.min(west, east) <= listed else { continue }
                    }
                    let far: Double
                    let antipode = antipodeOffset[i]
                    if antipode <= w + 1e-9 || antipode >= 360 - 1e-9 {
                        far = 4
                    } else if 4 - CellGeometry.chord2(minus, sw) > holds.0 || 4 - CellGeometry.chord2(minus, nw) > holds.0
                        || 4 - CellGeometry.chord2(minus, se) > holds.0 || 4 - CellGeometry.chord2(minus, ne) > holds.0
                    {
                        // The greatest chord is at least each corner's: no fence holds the cell.
                        far = 4
                    } else {
                        let west = farWest.isNaN ? CellGeometry.arcChord2(minus, sw, nw) : farWest
                        let east = CellGeometry.arcChord2(minus, se, ne)
                        previousFarEast = east
                        far = 4 - Swift.min(west, east)
                    }
                    // How many fences hold the whole cell (3: all of them).
                    var a = 0
                    if far <= holds.0 {
                        a = 1
                        if count > 1 && far <= holds.1 {
                            a = 2
                            if count > 2 && far <= holds.2 { a = 3 }
                        }
                    }
                    let interior = a == count ? 3 : a
                    keys.append(
                        LatLngGridIndex.EntryKey.make(
                            level: level, cell: LatLngGrid.key(row: row, column: column),
                            record: record, interior: interior))
                }
            }
        }
    }

    /// Fills the column list for the rows of `band`: the columns of `box` in visiting order
    /// (west to east; a box crossing the antimeridian from its west column to the last, then
    /// from 0 to its east column), each with the center's offsets from its west edge.
    mutating func cacheColumns(
        box: LatLngBox, band: Int, level: Int, centerLongitude: Double,
        _ meridians: GridTrigonometry.Meridians
    ) {
        let count = LatLngGrid.columnCount(band: band, level: level)
        let west = LatLngGrid.column(longitude: box.west, band: band, level: level)
        let east = LatLngGrid.column(longitude: box.east, band: band, level: level)
        columns.removeAll(keepingCapacity: true)
        if box.spansAllLongitudes {
            columns.append(contentsOf: 0..<count)
        } else if box.crossesAntimeridian {
            columns.append(contentsOf: west..<count)
            columns.append(contentsOf: 0...east)
        } else {
            columns.append(contentsOf: west...Swift.max(west, east))
        }
        centerOffset.removeAll(keepingCapacity: true)
        antipodeOffset.removeAll(keepingCapacity: true)
        for column in columns {
            let westLongitude = meridians.westLongitude(column)
            centerOffset.append(CellGeometry.offset(centerLongitude, from: westLongitude))
            antipodeOffset.append(CellGeometry.offset(centerLongitude + 180, from: westLongitude))
        }
    }
}
