/// The Hilbert-curve tables behind ``CellID``'s (i, j) <-> position conversions, as in S2
/// (`s2coords_internal.h` and the lookup tables of `s2cell_id.cc`).
///
/// Orientation bits: ``swapMask`` (1) swaps i and j, ``invertMask`` (2) inverts both.
/// The lookup tables convert 4 bits of i and 4 bits of j (plus a 2-bit orientation) into
/// 8 bits of curve position (plus the orientation after them), and back, so a leaf id takes
/// eight table steps.
@usableFromInline
enum HilbertTables {
    /// Orientation bit that swaps the i and j axes.
    @usableFromInline static var swapMask: Int { 1 }
    /// Orientation bit that inverts both axes.
    @usableFromInline static var invertMask: Int { 2 }
    /// Bits of i and of j handled per table step (S2's `kLookupBits`).
    @usableFromInline static var lookupBits: Int { 4 }

    /// `posToIJ[orientation][pos]`: the (i, j) quadrant `(i << 1) | j` of child `pos`.
    @usableFromInline
    static let posToIJ: [[Int]] = [
        [0, 1, 3, 2],  // canonical order:    (0,0), (0,1), (1,1), (1,0)
        [0, 2, 3, 1],  // axes swapped:       (0,0), (1,0), (1,1), (0,1)
        [3, 2, 0, 1],  // bits inverted:      (1,1), (1,0), (0,0), (0,1)
        [3, 1, 0, 2]  // swapped & inverted: (1,1), (0,1), (0,0), (1,0)
    ]

    /// `ijToPos[orientation][ij]`: the inverse of ``posToIJ``.
    @usableFromInline
    static let ijToPos: [[Int]] = [
        [0, 1, 3, 2],
        [0, 3, 1, 2],
        [2, 3, 1, 0],
        [2, 1, 3, 0]
    ]

    /// `posToOrientation[pos]`: the orientation change of child `pos` relative to its parent.
    @usableFromInline
    static let posToOrientation: [Int] = [1, 0, 0, 3]  // swap, none, none, swap|invert

    /// Key `iiiijjjjoo` -> value `ppppppppoo` (S2's `lookup_pos`), 1,024 entries.
    @usableFromInline
    static let lookupPos: [UInt16] = tables.pos

    /// Key `ppppppppoo` -> value `iiiijjjjoo` (S2's `lookup_ij`), 1,024 entries.
    @usableFromInline
    static let lookupIJ: [UInt16] = tables.ij

    /// Both tables, built once.
    static let tables = makeTables()

    /// ``lookupPos`` as a raw pointer for the hot path: reading through it needs no
    /// reference counting or bounds checks (the array costs a retain/release per call).
    /// Allocated once and never freed; immutable after initialization, hence safe to share.
    @usableFromInline
    nonisolated(unsafe) static let lookupPosPointer: UnsafePointer<UInt16> = permanentCopy(lookupPos)

    /// ``lookupIJ`` as a raw pointer for the hot path (see ``lookupPosPointer``).
    @usableFromInline
    nonisolated(unsafe) static let lookupIJPointer: UnsafePointer<UInt16> = permanentCopy(lookupIJ)

    static func permanentCopy(_ table: [UInt16]) -> UnsafePointer<UInt16> {
        let p = UnsafeMutablePointer<UInt16>.allocate(capacity: table.count)
        p.initialize(from: table, count: table.count)
        return UnsafePointer(p)
    }

    /// Builds both tables by walking the Hilbert curve 4 levels deep from each of the four
    /// starting orientations (S2's `InitLookupCell`).
    static func makeTables() -> (pos: [UInt16], ij: [UInt16]) {
        // 2^(2 * lookupBits + 2) keys: 8 position/coordinate bits and 2 orientation bits.
        var pos = [UInt16](repeating: 0, count: 1 << 10)
        var ij = [UInt16](repeating: 0, count: 1 << 10)

        func visit(level: Int, i: Int, j: Int, origOrientation: Int, position: Int, orientation: Int) {
            if level == lookupBits {
                let ijKey = (i << lookupBits) + j
                pos[(ijKey << 2) + origOrientation] = UInt16((position << 2) + orientation)
                ij[(position << 2) + origOrientation] = UInt16((ijKey << 2) + orientation)
                return
            }
            let quadrants = posToIJ[orientation]
            for k in 0..<4 {
                let r = quadrants[k]
                visit(
                    level: level + 1, i: (i << 1) + (r >> 1), j: (j << 1) + (r & 1),
                    origOrientation: origOrientation, position: (position << 2) + k,
                    orientation: orientation ^ posToOrientation[k])
            }
        }
        for orientation in 0..<4 {
            visit(level: 0, i: 0, j: 0, origOrientation: orientation, position: 0, orientation: orientation)
        }
        return (pos, ij)
    }
}
