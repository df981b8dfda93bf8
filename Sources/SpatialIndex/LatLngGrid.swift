import Geodesy

/// The latitude/longitude cells of ``LatLngGridIndex``: a fix finds its cell from its degrees with a
/// few multiplications, no trigonometry, so a fix far from every fence costs no sine at all.
///
/// Layout at level L (0...``maxLevel``), with `D` = ``rowsPerDegree(_:)`` = 1, 1.5, 2, 3, 4, 5,
/// 6, 7, 8, 10, ..., 128 (a factor of about 1.2 per level):
/// - **Rows** of `1/D` degrees of latitude: row `i` spans `[i/D - 90, (i + 1)/D - 90]`,
///   `0 <= i < 180 D`. The equator is a row edge (90 D is an integer), so no row straddles it.
/// - **Bands.** A row's cells are `2^k/D` degrees of longitude wide, where the row's *band*
///   `k` is the largest integer with `cos(near) <= 2^-k` (`near` = the row's latitude nearest
///   the equator). So cells stay between 1 and 1/2 as wide as they are tall (at the row's
///   equatorward edge) from the equator to the poles; every row below 60 degrees has band 0
///   (square degrees), and a polar row still has at least 7 cells (`2^k <= 57.3 D`). The
///   band is capped at `log2(D) + 9` (one cell per row) as a guard.
/// - **Columns**: `j = floor((lon + 180) D / 2^k)`, `0 <= j < ceil(360 D / 2^k)`; the last
///   column of a row may be narrower, and ends at +180 (longitude 180 falls in it).
/// - **Keys**: `1 << 31 | i << 16 | j` (`i < 23040`, `j < 46080`): never 0, unique within a
///   level (each level has its own hash table).
///
/// Exactness: the only roundings are of `lat + 90`, `lon + 180` and their products with `D`
/// (and of the cell bounds the build derives with `1/D`): ~1e-13 degrees, far inside the
/// index's classification margin. The band of a row is a function of the row alone, computed
/// by the same code at build and query.
@usableFromInline
enum LatLngGrid {
    /// Deepest level: rows of 1/128 degree (~870 m); keys fit 31 bits up to here.
    @usableFromInline static var maxLevel: Int { 24 }

    /// `2^e` as a Double (exact).
    @inlinable @inline(__always)
    static func power(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }

    /// Rows per degree at `level`: 1, 1.5, 2, 3, then four steps per doubling (4, 5, 6, 7, 8,
    /// 10, 12, 14, 16, ...) up to 128. Every value times 90 is an integer (the equator is a row
    /// edge). Steps of ~1.2 let an index pick its memory/speed point finely.
    @inlinable @inline(__always)
    static func rowsPerDegree(_ level: Int) -> Double {
        if level < 4 { return level & 1 == 0 ? power(level >> 1) : 1.5 * power(level >> 1) }
        let octave = (level - 4) >> 2  // 4 << octave rows per degree at the octave's start
        return Double(4 + ((level - 4) & 3)) * power(octave)
    }

    /// Degrees per row at `level` (`1/D`, rounded unless D is a power of two).
    @inlinable @inline(__always)
    static func degreesPerRow(_ level: Int) -> Double { 1 / rowsPerDegree(level) }

    /// Number of rows at `level`: `180 D`.
    @inlinable
    static func rowCount(level: Int) -> Int { Int(180 * rowsPerDegree(level)) }

    /// The row of `latitude` (degrees, in [-90, 90]); 90 falls in the last row.
    @inlinable @inline(__always)
    static func row(latitude: Double, level: Int) -> Int {
        let t = (latitude + 90) * rowsPerDegree(level)
        let last = 180 * rowsPerDegree(level) - 1
        return Int(t < last ? t : last)
    }

    /// The band `k` of row `row` at `level` (see the type's documentation).
    @inlinable @inline(__always)
    static func band(row: Int, level: Int) -> Int {
        let height = degreesPerRow(level)
        let north = Double(row) >= 90 * rowsPerDegree(level)
        // The row's edge nearest the equator, as a non-negative latitude.
        let near = north ? Double(row) * height - 90 : 90 - Double(row &+ 1) * height
        if near < 60 { return 0 }  // cos(near) > 1/2
        return slowBand(near: near, level: level)
    }

    /// ``band(row:level:)`` for rows at or beyond 60 degrees: `floor(-log2(cos(near)))`.
    @usableFromInline
    static func slowBand(near: Double, level: Int) -> Int {
        let c = sinCos(degrees: near).cos
        let cap = rowsPerDegree(level).exponent &+ 10  // > log2(D) + 9
        guard c > 0 else { return cap }
        // floor(-log2 c) = -ceil(log2 c); ceil(log2 c) is c's exponent, plus 1 unless c is a
        // power of two.
        let powerOfTwo = c.significand == 1
        let k = -c.exponent - (powerOfTwo ? 0 : 1)
        return Swift.max(0, Swift.min(cap, k))
    }

    /// Columns per degree of longitude in a row of band `band`: `D / 2^k`.
    @inlinable @inline(__always)
    static func columnsPerDegree(band: Int, level: Int) -> Double {
        rowsPerDegree(level) * power(-band)
    }

    /// Number of columns of a row of band `band` at `level`.
    @inlinable @inline(__always)
    static func columnCount(band: Int, level: Int) -> Int {
        Int((360 * columnsPerDegree(band: band, level: level)).rounded(.up))
    }

    /// The column of `longitude` (degrees, in [-180, 180]) in a row of band `band`.
    @inlinable @inline(__always)
    static func column(longitude: Double, band: Int, level: Int) -> Int {
        let perDegree = columnsPerDegree(band: band, level: level)
        let t = (longitude + 180) * perDegree
        let last = (360 * perDegree).rounded(.up) - 1
        return Int(t < last ? t : last)
    }

    /// The key of cell (`row`, `column`) (unique within a level).
    @inlinable @inline(__always)
    static func key(row: Int, column: Int) -> UInt32 {
        1 << 31 | UInt32(truncatingIfNeeded: row) << 16 | UInt32(truncatingIfNeeded: column)
    }

    /// The key of the cell holding (`latitude`, `longitude`) at `level` (latitude in [-90, 90],
    /// longitude in [-180, 180]).
    @inlinable @inline(__always)
    static func key(latitude: Double, longitude: Double, level: Int) -> UInt32 {
        let i = row(latitude: latitude, level: level)
        let k = band(row: i, level: level)
        return key(row: i, column: column(longitude: longitude, band: k, level: level))
    }

    /// The bounds of a cell in degrees: south, north, west, east (east <= 180).
    static func bounds(level: Int, row: Int, column: Int) -> (south: Double, north: Double, west: Double, east: Double) {
        let height = degreesPerRow(level)
        let width = height * power(band(row: row, level: level))
        let south = Double(row) * height - 90
        let west = Double(column) * width - 180
        return (south, Swift.min(90, south + height), west, Swift.min(180, west + width))
    }
}

extension LatLngGrid {
    /// One level's constants for the query's fast path: rows below 60 degrees (band 0) need
    /// no band computation. Gives the same keys as ``LatLngGrid/key(latitude:longitude:level:)``
    /// (the same expressions, and the band-0 rows found with ``LatLngGrid/band(row:level:)``).
    @usableFromInline
    struct Level: Sendable {
        @usableFromInline let level: Int
        /// `D`, and the last row and band-0 column as Doubles (for clamping).
        @usableFromInline let rowsPerDegree: Double
        @usableFromInline let lastRow: Double
        @usableFromInline let lastColumn: Double
        /// The rows of band 0 (contiguous around the equator).
        @usableFromInline let bandZeroRows: ClosedRange<Int>

        init(_ level: Int) {
            self.level = level
            rowsPerDegree = LatLngGrid.rowsPerDegree(level)
            lastRow = 180 * rowsPerDegree - 1
            lastColumn = (360 * LatLngGrid.columnsPerDegree(band: 0, level: level)).rounded(.up) - 1
            let equator = LatLngGrid.rowCount(level: level) / 2
            var low = equator, high = equator - 1
            while low > 0 && LatLngGrid.band(row: low - 1, level: level) == 0 { low -= 1 }
            while high + 1 < LatLngGrid.rowCount(level: level) && LatLngGrid.band(row: high + 1, level: level) == 0 {
                high += 1
            }
            bandZeroRows = low...high
        }

        /// ``LatLngGrid/key(latitude:longitude:level:)`` at this level.
        @inlinable @inline(__always)
        func key(latitude: Double, longitude: Double) -> UInt32 {
            let t = (latitude + 90) * rowsPerDegree
            let row = Int(t < lastRow ? t : lastRow)
            if bandZeroRows.contains(row) {
                let u = (longitude + 180) * rowsPerDegree
                return LatLngGrid.key(row: row, column: Int(u < lastColumn ? u : lastColumn))
            }
            return LatLngGrid.key(latitude: latitude, longitude: longitude, level: level)
        }
    }
}
