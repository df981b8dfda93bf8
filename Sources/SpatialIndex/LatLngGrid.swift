import Geodesy

/// The latitude/longitude cells of ``CellIndex``: a fix finds its cell from its degrees with a
/// few multiplications, no trigonometry, so a fix far from every fence costs no sine at all.
///
/// Layout at level L (0...``maxLevel``):
/// - **Rows** of `2^-L` degrees of latitude: row `i` spans `[i 2^-L - 90, (i + 1) 2^-L - 90]`,
///   `0 <= i < 180 2^L`. The equator is a row edge, so no row straddles it.
/// - **Bands.** A row's cells are `2^(k - L)` degrees of longitude wide, where the row's *band*
///   `k` is the largest integer with `cos(near) <= 2^-k` (`near` = the row's latitude nearest
///   the equator). So cells stay between 1 and 1/2 as wide as they are tall (at the row's
///   equatorward edge) from the equator to the poles; every row below 60 degrees has band 0
///   (square degrees), and a polar row still has at least 12 cells (`k <= L + 5.84`). The
///   band is capped at `L + 9` (one cell per row) as a guard.
/// - **Columns**: `j = floor((lon + 180) 2^(L - k))`, `0 <= j < ceil(360 2^(L - k))`; the last
///   column of a row may be narrower, and ends at +180 (longitude 180 falls in it).
/// - **Keys**: `1 << (2L + 17) | i << (L + 9) | j` (`i < 2^(L + 8)`, `j < 2^(L + 9)`): distinct
///   across levels, never 0, 32 bits up to level 7.
///
/// Exactness: rows and columns scale by powers of two, so the only rounding is of `lat + 90`
/// and `lon + 180` (< 2^-45 degrees), far inside the index's classification margin. The band
/// of a row is a function of the row alone, used identically by the build and the query.
@usableFromInline
enum LatLngGrid {
    /// Deepest level: rows of 2^-7 degrees (~870 m), the finest whose keys fit 32 bits.
    @usableFromInline static var maxLevel: Int { 7 }

    /// `2^e` as a Double (exact).
    @inlinable @inline(__always)
    static func power(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }

    /// Number of rows at `level`.
    @inlinable
    static func rowCount(level: Int) -> Int { 180 << level }

    /// The row of `latitude` (degrees, in [-90, 90]); 90 falls in the last row.
    @inlinable @inline(__always)
    static func row(latitude: Double, level: Int) -> Int {
        let t = (latitude + 90) * power(level)
        let last = Double(rowCount(level: level) &- 1)
        return Int(t < last ? t : last)
    }

    /// The band `k` of row `row` at `level` (see the type's documentation).
    @inlinable @inline(__always)
    static func band(row: Int, level: Int) -> Int {
        let height = power(-level)
        let north = row >= 90 << level
        // The row's edge nearest the equator, as a non-negative latitude (exact).
        let near = north ? Double(row) * height - 90 : 90 - Double(row &+ 1) * height
        if near < 60 { return 0 }  // cos(near) > 1/2
        return slowBand(near: near, level: level)
    }

    /// ``band(row:level:)`` for rows at or beyond 60 degrees: `floor(-log2(cos(near)))`.
    @usableFromInline
    static func slowBand(near: Double, level: Int) -> Int {
        let c = sinCos(degrees: near).cos
        let cap = level &+ 9
        guard c > 0 else { return cap }
        // floor(-log2 c) = -ceil(log2 c); ceil(log2 c) is c's exponent, plus 1 unless c is a
        // power of two.
        let powerOfTwo = c.significand == 1
        let k = -c.exponent - (powerOfTwo ? 0 : 1)
        return Swift.max(0, Swift.min(cap, k))
    }

    /// Number of columns of a row of band `band` at `level`.
    @inlinable @inline(__always)
    static func columnCount(band: Int, level: Int) -> Int {
        let perDegree = power(level &- band)
        return Int((360 * perDegree).rounded(.up))
    }

    /// The column of `longitude` (degrees, in [-180, 180]) in a row of band `band`.
    @inlinable @inline(__always)
    static func column(longitude: Double, band: Int, level: Int) -> Int {
        let perDegree = power(level &- band)
        let t = (longitude + 180) * perDegree
        let last = (360 * perDegree).rounded(.up) - 1
        return Int(t < last ? t : last)
    }

    /// The key of cell (`row`, `column`) at `level`.
    @inlinable @inline(__always)
    static func key(level: Int, row: Int, column: Int) -> UInt32 {
        let l = UInt32(truncatingIfNeeded: level)
        return 1 << (2 &* l &+ 17) | UInt32(truncatingIfNeeded: row) << (l &+ 9)
            | UInt32(truncatingIfNeeded: column)
    }

    /// The key of the cell holding (`latitude`, `longitude`) at `level` (latitude in [-90, 90],
    /// longitude in [-180, 180]).
    @inlinable @inline(__always)
    static func key(latitude: Double, longitude: Double, level: Int) -> UInt32 {
        let i = row(latitude: latitude, level: level)
        let k = band(row: i, level: level)
        return key(level: level, row: i, column: column(longitude: longitude, band: k, level: level))
    }

    /// The bounds of a cell in degrees: south, north, west, east (east <= 180).
    static func bounds(level: Int, row: Int, column: Int) -> (south: Double, north: Double, west: Double, east: Double) {
        let height = power(-level)
        let width = power(band(row: row, level: level) - level)
        let south = Double(row) * height - 90
        let west = Double(column) * width - 180
        return (south, south + height, west, Swift.min(180, west + width))
    }
}
