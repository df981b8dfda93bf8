#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// The sines and cosines of one level's parallels and meridians (``LatLngGrid``), for the
/// build's cell classification (``CellClassifier``): every group of a level meets the same
/// grid lines, so each line's trigonometry is computed once per build instead of once per
/// cell corner.
///
/// Values are bit-identical to those inside ``UnitVector/init(_:)`` for the cell bounds of
/// ``LatLngGrid/bounds(level:row:column:)``: `cos` and `sin` of `radians(degrees:)` of the
/// same expressions (a row's north edge is `min(90, south + height)`, not the next row's south
/// edge, and likewise for a column's east edge).
///
/// Storage for the current level: 4 Doubles per row (~0.7 MB at 128 rows per degree), 7 per
/// column of each band in use (2.6 MB for band 0 at 128 rows per degree); the build visits the
/// groups level by level, so one level is kept at a time.
struct GridTrigonometry {
    /// The meridians of one band of one level, ``stride`` Doubles per column: cos and sin of
    /// the west edge's longitude, of the east edge's, the width in degrees (east - west), 1
    /// when the west edge is bit-identical to the previous column's east edge (else 0), and
    /// the west edge's longitude in degrees.
    struct Meridians {
        static var stride: Int { 7 }
        var values: [Double] = []

        /// The west edge of `column`, degrees.
        func westLongitude(_ column: Int) -> Double { values[column * Meridians.stride + 6] }
    }

    /// The level whose lines are held (-1: none yet).
    private(set) var level = -1
    /// Per row: cos and sin of the south edge's latitude, then of the north edge's.
    private var rows: [Double] = []
    /// Per band: its meridians once used.
    private var bands: [Meridians?] = []

    /// Makes `level` the current level (computing its parallels when it changes).
    mutating func use(level: Int) {
        if level == self.level { return }
        self.level = level
        let height = LatLngGrid.degreesPerRow(level)
        let count = LatLngGrid.rowCount(level: level)
        rows = []
        rows.reserveCapacity(4 * count)
        for row in 0..<count {
            let south = Double(row) * height - 90
            let north = Swift.min(90, south + height)
            let s = radians(degrees: south), n = radians(degrees: north)
            rows.append(cos(s))
            rows.append(sin(s))
            rows.append(cos(n))
            rows.append(sin(n))
        }
        bands = []
    }

    /// cos and sin of the south and north edges of `row` at the current level.
    @inline(__always)
    func parallels(row: Int) -> (cosSouth: Double, sinSouth: Double, cosNorth: Double, sinNorth: Double) {
        (rows[4 * row], rows[4 * row + 1], rows[4 * row + 2], rows[4 * row + 3])
    }

    /// The meridians of `band` at the current level.
    mutating func meridians(band: Int) -> Meridians {
        if band < bands.count, let m = bands[band] { return m }
        if band >= bands.count { bands.append(contentsOf: repeatElement(nil, count: band + 1 - bands.count)) }
        let count = LatLngGrid.columnCount(band: band, level: level)
        let width = LatLngGrid.degreesPerRow(level) * LatLngGrid.power(band)
        var values: [Double] = []
        values.reserveCapacity(Meridians.stride * count)
        var previousEast = (cos: Double.nan, sin: Double.nan)
        for column in 0..<count {
            let west = Double(column) * width - 180
            let east = Swift.min(180, west + width)
            let w = radians(degrees: west), e = radians(degrees: east)
            let westCos = cos(w), westSin = sin(w)
            values.append(westCos)
            values.append(westSin)
            values.append(cos(e))
            values.append(sin(e))
            values.append(east - west)
            let shared = westCos.bitPattern == previousEast.cos.bitPattern && westSin.bitPattern == previousEast.sin.bitPattern
            values.append(shared ? 1 : 0)
            values.append(west)
            previousEast = (values[values.count - 5], values[values.count - 4])
        }
        let m = Meridians(values: values)
        bands[band] = m
        return m
    }
}
