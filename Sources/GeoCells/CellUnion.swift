import Geodesy

/// A region of the sphere made of cells: a sorted list of cell ids (S2's `S2CellUnion`).
///
/// Representation: ``cellIDs``, in increasing id order. A *normalized* union (the result of
/// ``init(_:)``) also has no cell that contains or overlaps another and no four siblings
/// (they are replaced by their parent), so it is the unique shortest list for its region.
/// ``init(unnormalized:)`` keeps a list verbatim (for example a coverer result at a
/// `minLevel`, whose four siblings must stay separate); queries only need it sorted and
/// non-overlapping.
public struct CellUnion: Hashable, Sendable, RandomAccessCollection {
    /// The cells, in increasing id order.
    public private(set) var cellIDs: [CellID]

    /// A normalized union of arbitrary cell ids (any order, overlaps allowed): sorts, drops
    /// cells contained in others, and replaces each complete set of four siblings by their
    /// parent, repeatedly (S2's `S2CellUnion::Normalize`).
    /// - Complexity: O(n log n).
    public init(_ ids: [CellID]) {
        var ids = ids
        CellUnion.normalize(&ids)
        cellIDs = ids
    }

    /// A union that keeps `ids` as given. Precondition for the queries: sorted by id and
    /// non-overlapping (see ``isValid``).
    public init(unnormalized ids: [CellID]) {
        cellIDs = ids
    }

    // MARK: RandomAccessCollection

    /// Positions are 0-based integers.
    public typealias Index = Int
    /// 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of cells.
    @inlinable public var endIndex: Int { cellIDs.count }
    /// The `i`-th cell, in increasing id order.
    @inlinable public subscript(i: Int) -> CellID { cellIDs[i] }

    // MARK: Queries

    /// True when the cells are sorted and no two overlap.
    public var isValid: Bool {
        for i in cellIDs.indices.dropFirst()
        where cellIDs[i - 1].rangeMax.rawValue >= cellIDs[i].rangeMin.rawValue {
            return false
        }
        return true
    }

    /// True when the union is valid and no four consecutive cells are siblings.
    public var isNormalized: Bool {
        guard isValid else { return false }
        if cellIDs.count < 4 { return true }
        for i in 3..<cellIDs.count
        where CellUnion.areSiblings(cellIDs[i - 3], cellIDs[i - 2], cellIDs[i - 1], cellIDs[i]) {
            return false
        }
        return true
    }

    /// True when the union contains the whole of cell `id` (exact: compares id ranges).
    /// - Complexity: O(log n).
    @inlinable
    public func contains(_ id: CellID) -> Bool {
        let i = CellUnion.lowerBound(cellIDs, id)
        if i < cellIDs.count && cellIDs[i].rangeMin.rawValue <= id.rawValue { return true }
        return i > 0 && cellIDs[i - 1].rangeMax.rawValue >= id.rawValue
    }

    /// True when the union and cell `id` share at least one leaf cell.
    /// - Complexity: O(log n).
    @inlinable
    public func intersects(_ id: CellID) -> Bool {
        let i = CellUnion.lowerBound(cellIDs, id)
        if i < cellIDs.count && cellIDs[i].rangeMin.rawValue <= id.rangeMax.rawValue { return true }
        return i > 0 && cellIDs[i - 1].rangeMax.rawValue >= id.rangeMin.rawValue
    }

    /// True when the point (a unit vector) lies in the union: its leaf cell is contained.
    @inlinable
    public func contains(_ p: UnitVector) -> Bool { contains(CellID(p)) }

    /// Total area in steradians (unit sphere; multiply by R² for m²), summing each cell's
    /// exact area.
    public func exactArea() -> Double {
        var sum = 0.0
        for id in cellIDs { sum += Cell(id).exactArea() }
        return sum
    }

    // MARK: Algorithms on sorted id lists (shared with the coverer)

    /// Index of the first id `>= id` in the sorted `ids`.
    @inlinable
    static func lowerBound(_ ids: [CellID], _ id: CellID) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ids[mid].rawValue < id.rawValue { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Index of the first id `> id` in the sorted `ids`.
    @inlinable
    static func upperBound(_ ids: [CellID], _ id: CellID) -> Int {
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ids[mid].rawValue <= id.rawValue { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// True when `a, b, c, d` are the four children of one parent (in any order; S2's
    /// `AreSiblings`): their ids XOR to zero and agree outside the two child-position bits.
    @usableFromInline
    static func areSiblings(_ a: CellID, _ b: CellID, _ c: CellID, _ d: CellID) -> Bool {
        if (a.rawValue ^ b.rawValue ^ c.rawValue) != d.rawValue { return false }
        var mask = d.lsb << 1
        mask = ~(mask &+ (mask << 1))
        let dm = d.rawValue & mask
        return (a.rawValue & mask) == dm && (b.rawValue & mask) == dm && (c.rawValue & mask) == dm
            && d.level != 0
    }

    /// Sorts `ids`, drops cells contained in others, and merges complete sibling sets into
    /// their parents, in place (S2's `S2CellUnion::Normalize`). Returns true if anything
    /// besides the order changed.
    @discardableResult
    public static func normalize(_ ids: inout [CellID]) -> Bool {
        ids.sort { $0.rawValue < $1.rawValue }
        let originalCount = ids.count
        var out = 0
        for var id in ids {
            if out > 0 && ids[out - 1].contains(id) { continue }
            while out > 0 && id.contains(ids[out - 1]) { out -= 1 }
            while out >= 3 && areSiblings(ids[out - 3], ids[out - 2], ids[out - 1], id) {
                id = id.parent()
                out -= 3
            }
            ids[out] = id
            out += 1
        }
        if out == originalCount { return false }
        ids.removeSubrange(out...)
        return true
    }

    /// Replaces each cell coarser than `minLevel`, or whose level is not
    /// `minLevel + k · levelMod`, by its descendants at the next allowed level
    /// (S2's `S2CellUnion::Denormalize`); writes into `output` (cleared first).
    public static func denormalize(
        _ ids: [CellID], minLevel: Int, levelMod: Int, into output: inout [CellID]
    ) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(ids.count)
        for id in ids {
            let level = id.level
            var newLevel = Swift.max(minLevel, level)
            if levelMod > 1 {
                // Round up so that newLevel - minLevel is a multiple of levelMod
                // (30 is a multiple of 1, 2 and 3).
                newLevel += (CellID.maxLevel - (newLevel - minLevel)) % levelMod
                newLevel = Swift.min(CellID.maxLevel, newLevel)
            }
            if newLevel == level {
                output.append(id)
            } else {
                var child = id.childBegin(level: newLevel)
                let end = id.childEnd(level: newLevel)
                while child != end {
                    output.append(child)
                    child = child.next
                }
            }
        }
    }
}
