/// Approximates a ``Cap`` by a small set of cells, reproducing Google S2's `S2RegionCoverer`
/// (s2region_coverer.cc) cell for cell.
///
/// A *covering* is a set of cells whose union contains the cap; an *interior covering* is a
/// set of cells contained in the cap. The options:
/// - ``maxCells`` (default 8): the desired maximum number of cells. It is a soft limit: the
///   covering never uses fewer cells than needed to respect ``minLevel``, and a covering of a
///   cap that straddles several faces may need up to 6 cells even when asked for fewer.
/// - ``minLevel`` / ``maxLevel`` (defaults 0 / 30): no cell coarser than `minLevel` or finer
///   than `maxLevel` is used (a tiny cap with a low `maxLevel` is covered by large cells).
/// - ``levelMod`` (1, 2 or 3; default 1): only levels `minLevel + k · levelMod` are used
///   (the highest usable level may then be below `maxLevel`).
///
/// Algorithm (S2's): start from a covering of the cap's bounding cap (4 cells sharing the
/// vertex nearest the center, at the deepest level whose cells are at least the cap's width,
/// or the 6 faces); keep a priority queue of cells that intersect the cap without being inside
/// it, ordered by size, then fewest intersecting children, then fewest children inside; pop
/// and subdivide while the cell budget allows. The queue is a replica of libstdc++'s heap
/// (`CandidateHeap`) because S2's tie order between equal priorities depends on it.
///
/// The result is sorted by cell id, non-overlapping, and normalized (four siblings are
/// replaced by their parent) except where `minLevel`/`levelMod` forbid the parent.
///
/// Verified: identical to S2 0.14 on all 2000 coverings of Tests/GeoCellsTests/Fixtures/
/// s2_covers.jsonl (exterior and interior, 8 cells at levels 0-30 and 16 cells at levels
/// 10-16; `RegionCovererTests.matchesS2CellForCell`). `levelMod > 1` is ported line by line
/// but has no S2 fixture; its coverings are checked for validity only.
///
/// ```swift
/// let coverer = try RegionCoverer(maxCells: 8)
/// let cap = Cap(center: try LatLng(latitude: 48.8584, longitude: 2.2945), meters: 1609.344)
/// let cells = coverer.covering(of: cap)   // [CellID], increasing ids
/// ```
/// - Complexity: roughly O(maxCells · log maxCells) cap-cell tests per covering.
public struct RegionCoverer: Hashable, Sendable {
    /// The desired maximum number of cells (soft limit, see the type's documentation); >= 1.
    public let maxCells: Int
    /// The coarsest level used, in 0...30.
    public let minLevel: Int
    /// The finest level used, in minLevel...30.
    public let maxLevel: Int
    /// Level step, in 1...3.
    public let levelMod: Int

    /// Why a set of options was rejected.
    public enum OptionsError: Error, Equatable, Sendable, CustomStringConvertible {
        case maxCellsNotPositive(Int)
        case levelOutOfRange(Int)
        case minLevelAboveMaxLevel(min: Int, max: Int)
        case levelModOutOfRange(Int)

        /// The options, for messages.
        public var description: String {
            switch self {
            case .maxCellsNotPositive(let n): return "max-cells must be at least 1, got \(n)"
            case .levelOutOfRange(let l): return "cell level must be in 0...30, got \(l)"
            case .minLevelAboveMaxLevel(let a, let b): return "min-level \(a) exceeds max-level \(b)"
            case .levelModOutOfRange(let m): return "level-mod must be 1, 2 or 3, got \(m)"
            }
        }
    }

    /// Validating initializer (S2 clamps or asserts where this throws).
    /// - Throws: ``OptionsError`` if `maxCells < 1`, a level is outside 0...30,
    ///   `minLevel > maxLevel`, or `levelMod` is not 1, 2 or 3.
    public init(maxCells: Int = 8, minLevel: Int = 0, maxLevel: Int = 30, levelMod: Int = 1)
        throws(OptionsError)
    {
        guard maxCells >= 1 else { throw .maxCellsNotPositive(maxCells) }
        guard (0...CellID.maxLevel).contains(minLevel) else { throw .levelOutOfRange(minLevel) }
        guard (0...CellID.maxLevel).contains(maxLevel) else { throw .levelOutOfRange(maxLevel) }
        guard minLevel <= maxLevel else { throw .minLevelAboveMaxLevel(min: minLevel, max: maxLevel) }
        guard (1...3).contains(levelMod) else { throw .levelModOutOfRange(levelMod) }
        self.maxCells = maxCells
        self.minLevel = minLevel
        self.maxLevel = maxLevel
        self.levelMod = levelMod
    }

    @usableFromInline
    init(unchecked maxCells: Int, minLevel: Int, maxLevel: Int, levelMod: Int) {
        self.maxCells = maxCells
        self.minLevel = minLevel
        self.maxLevel = maxLevel
        self.levelMod = levelMod
    }

    /// S2's default options: 8 cells, levels 0...30, level step 1.
    public static let `default` = RegionCoverer(unchecked: 8, minLevel: 0, maxLevel: 30, levelMod: 1)

    /// The finest level actually usable given ``levelMod`` (S2's `true_max_level`).
    @inlinable
    public var trueMaxLevel: Int {
        levelMod == 1 ? maxLevel : maxLevel - (maxLevel - minLevel) % levelMod
    }

    /// A covering of `cap`: cells whose union contains the cap, sorted by id.
    public func covering(of cap: Cap) -> [CellID] {
        var scratch = Scratch()
        var out: [CellID] = []
        covering(of: cap, into: &out, scratch: &scratch)
        return out
    }

    /// An interior covering of `cap`: cells contained in the cap, sorted by id (may be empty
    /// when the cap is smaller than every allowed cell).
    public func interiorCovering(of cap: Cap) -> [CellID] {
        var scratch = Scratch()
        var out: [CellID] = []
        interiorCovering(of: cap, into: &out, scratch: &scratch)
        return out
    }

    /// Allocation-reusing variant of ``covering(of:)-(Cap)``: replaces the contents of `out`, and
    /// keeps the working buffers in `scratch` for the next call (reuse one per thread).
    public func covering(of cap: Cap, into out: inout [CellID], scratch: inout Scratch) {
        run(cap, interior: false, into: &out, scratch: &scratch)
    }

    /// Allocation-reusing variant of ``interiorCovering(of:)-(Cap)``.
    public func interiorCovering(of cap: Cap, into out: inout [CellID], scratch: inout Scratch) {
        run(cap, interior: true, into: &out, scratch: &scratch)
    }

    /// A covering of any ``CoverableRegion`` (a ``Polygon``, a ``Cap``): cells whose union
    /// contains the region, sorted by id; identical to S2's `GetCovering` for that region.
    public func covering<Region: CoverableRegion>(of region: Region) -> [CellID] {
        var scratch = Scratch()
        var out: [CellID] = []
        run(region, interior: false, into: &out, scratch: &scratch)
        return out
    }

    /// An interior covering of any ``CoverableRegion``: cells contained in the region, sorted
    /// by id (S2's `GetInteriorCovering`), except that the search stops after
    /// ``maxInteriorCandidates`` candidate cells: a region with no cell inside it above the
    /// finest levels (a sliver metres or less wide and kilometres long) has every cell along its
    /// boundary subdivided down to `maxLevel`, about 10^9 cells for a 10,000 km sliver. The
    /// cells found by then are returned, each inside the region (possibly none). The same
    /// bound holds for caps.
    public func interiorCovering<Region: CoverableRegion>(of region: Region) -> [CellID] {
        var scratch = Scratch()
        var out: [CellID] = []
        run(region, interior: true, into: &out, scratch: &scratch)
        return out
    }

    /// The most candidate cells an interior covering examines (see
    /// ``interiorCovering(of:)-(Region)``): 2^21, about 2.5 s and 170 MB in a release build. The
    /// largest interior covering of the S2 fixtures (a pole-to-pole lune) examines 1,196,839, so
    /// every one of them is S2's answer (with 2^18, four of them stopped short).
    public static let maxInteriorCandidates = 1 << 21

    /// Reusable working storage for the coverer (candidate pool, queue, child lists).
    public struct Scratch: Sendable {
        @usableFromInline var candidates: [Candidate] = []
        @usableFromInline var children: [Int32] = []
        @usableFromInline var heap = CandidateHeap()
        @usableFromInline var initial: [CellID] = []
        @usableFromInline var denormalized: [CellID] = []
        /// A coverer with S2's defaults (at most 8 cells, levels 0...30, level step 1).
        public init() {}
    }

    /// A cell that intersects the cap, with its intersecting children once expanded
    /// (S2's `Candidate`); children are indices into `Scratch.candidates`, stored in
    /// `Scratch.children[childStart ..< childStart + numChildren]`.
    @usableFromInline
    struct Candidate: Sendable {
        @usableFromInline var cell: Cell
        @usableFromInline var isTerminal: Bool
        @usableFromInline var childStart: Int32
        @usableFromInline var numChildren: Int32
    }
}

// MARK: - The algorithm (port of S2RegionCoverer::GetCoveringInternal and helpers)

extension RegionCoverer {
    /// The state of one covering run.
    @usableFromInline
    struct Run<Region: CoverableRegion> {
        let options: RegionCoverer
        let region: Region
        let interior: Bool
        /// log2 of the most children a candidate can have: `2 · levelMod`.
        let maxChildrenShift: Int
        var result: [CellID]
        var scratch: Scratch

        /// S2's `NewCandidate`: nil if the cell misses the region; terminal if it need not
        /// (or, for interior coverings, must not) be subdivided.
        mutating func newCandidate(_ cell: Cell) -> Int32? {
            let level = cell.level
            let test = region.coverTest(cell, needContains: level >= options.minLevel)
            if !test.intersects { return nil }
            var isTerminal = false
            if level >= options.minLevel {
                if interior {
                    if test.contains {
                        isTerminal = true
                    } else if level + options.levelMod > options.maxLevel {
                        return nil
                    }
                } else if level + options.levelMod > options.maxLevel || test.contains {
                    isTerminal = true
                }
            }
            let index = Int32(scratch.candidates.count)
            scratch.candidates.append(
                Candidate(cell: cell, isTerminal: isTerminal, childStart: 0, numChildren: 0))
            return index
        }

        /// S2's `ExpandChildren`: appends the candidates `numLevels` levels below `cell` that
        /// intersect the cap to `parent`'s child list; returns how many are terminal.
        mutating func expandChildren(_ parent: Int32, _ cell: Cell, _ numLevels: Int) -> Int {
            let remaining = numLevels - 1
            var numTerminals = 0
            let kids = cell.subdivided()
            for i in 0..<4 {
                let child = kids[i]
                if remaining > 0 {
                    if region.mayIntersect(child) {
                        numTerminals += expandChildren(parent, child, remaining)
                    }
                    continue
                }
                if let c = newCandidate(child) {
                    scratch.children.append(c)
                    scratch.candidates[Int(parent)].numChildren += 1
                    if scratch.candidates[Int(c)].isTerminal { numTerminals += 1 }
                }
            }
            return numTerminals
        }

        /// S2's `AddCandidate`.
        mutating func addCandidate(_ index: Int32?) {
            guard let index else { return }
            let i = Int(index)
            if scratch.candidates[i].isTerminal {
                result.append(scratch.candidates[i].cell.id)
                return
            }
            let cell = scratch.candidates[i].cell
            let level = cell.level
            // Expand one level at a time below minLevel so that it is not skipped over.
            let numLevels = level < options.minLevel ? 1 : options.levelMod
            scratch.candidates[i].childStart = Int32(scratch.children.count)
            let numTerminals = expandChildren(index, cell, numLevels)
            let numChildren = Int(scratch.candidates[i].numChildren)
            if numChildren == 0 {
                return
            } else if !interior && numTerminals == 1 << maxChildrenShift && level >= options.minLevel {
                // Every child is terminal: use the parent instead (not for interior coverings,
                // whose children only intersect the cap).
                scratch.candidates[i].isTerminal = true
                addCandidate(index)
            } else {
                // Larger cells first, then fewer children, then fewer terminal children.
                let priority = -((((level << maxChildrenShift) + numChildren) << maxChildrenShift) + numTerminals)
                scratch.heap.push(.init(priority: Int32(priority), candidate: index))
            }
        }

        /// S2's `AdjustLevel`: rounds a level down to `minLevel + k · levelMod`.
        func adjustLevel(_ level: Int) -> Int {
            if options.levelMod > 1 && level > options.minLevel {
                return level - (level - options.minLevel) % options.levelMod
            }
            return level
        }

        /// S2's `GetInitialCandidates`: a fast covering of the cap's bounding cells
        /// (at most `min(4, maxCells)` cells, canonicalised), adjusted to `levelMod`.
        mutating func initialCandidates() {
            var cells = scratch.initial
            cells.removeAll(keepingCapacity: true)
            region.cellUnionBound(into: &cells)
            let tmp = RegionCoverer(
                unchecked: Swift.min(4, options.maxCells), minLevel: 0, maxLevel: options.maxLevel, levelMod: 1)
            tmp.canonicalize(&cells)
            options.adjustCellLevels(&cells)
            for id in cells {
                addCandidate(newCandidate(Cell(id)))
            }
            scratch.initial = cells
        }

        /// S2's `GetCoveringInternal` main loop.
        mutating func cover() {
            initialCandidates()
            let maxCells = options.maxCells
            while !scratch.heap.isEmpty
                && (!interior || (result.count < maxCells && scratch.candidates.count < RegionCoverer.maxInteriorCandidates))
            {
                let index = Int(scratch.heap.pop().candidate)
                let candidate = scratch.candidates[index]
                let numChildren = Int(candidate.numChildren)
                if interior || candidate.cell.level < options.minLevel || numChildren == 1
                    || result.count + scratch.heap.count + numChildren <= maxCells
                {
                    let start = Int(candidate.childStart)
                    for k in 0..<numChildren {
                        if interior && result.count >= maxCells { continue }
                        addCandidate(scratch.children[start + k])
                    }
                } else {
                    scratch.candidates[index].isTerminal = true
                    addCandidate(Int32(index))
                }
            }
        }
    }

    @usableFromInline
    func run<Region: CoverableRegion>(_ region: Region, interior: Bool, into out: inout [CellID], scratch: inout Scratch) {
        out.removeAll(keepingCapacity: true)
        scratch.candidates.removeAll(keepingCapacity: true)
        scratch.children.removeAll(keepingCapacity: true)
        scratch.heap.removeAll()
        var run = Run(
            options: self, region: region, interior: interior, maxChildrenShift: 2 * levelMod,
            result: out, scratch: scratch)
        // Move the buffers into the run (leaving empty arrays behind) to avoid copies.
        out = []
        scratch = Scratch()
        run.cover()
        var result = run.result
        scratch = run.scratch
        CellUnion.normalize(&result)
        if minLevel > 0 || levelMod > 1 {
            CellUnion.denormalize(result, minLevel: minLevel, levelMod: levelMod, into: &scratch.denormalized)
            swap(&result, &scratch.denormalized)
        }
        out = result
    }

    /// S2's `AdjustCellLevels`: replaces each cell (of a sorted list) by its ancestor at an
    /// allowed level and drops cells then contained in others.
    @usableFromInline
    func adjustCellLevels(_ cells: inout [CellID]) {
        if levelMod == 1 { return }
        var out = 0
        for var id in cells {
            let level = id.level
            var newLevel = level
            if level > minLevel { newLevel = level - (level - minLevel) % levelMod }
            if newLevel != level { id = id.parent(level: newLevel) }
            if out > 0 && cells[out - 1].contains(id) { continue }
            while out > 0 && id.contains(cells[out - 1]) { out -= 1 }
            cells[out] = id
            out += 1
        }
        cells.removeSubrange(out...)
    }

    /// S2's `CanonicalizeCovering` (the branch reachable from a cap's bound, which has at most
    /// 6 cells): levels adjusted to `maxLevel`/`levelMod`, normalized, denormalized to
    /// `minLevel`/`levelMod`, then neighboring cells merged into common ancestors while there
    /// are more than `maxCells`.
    @usableFromInline
    func canonicalize(_ covering: inout [CellID]) {
        if maxLevel < CellID.maxLevel || levelMod > 1 {
            for i in covering.indices {
                let level = covering[i].level
                var newLevel = Swift.min(level, maxLevel)
                if levelMod > 1 && newLevel > minLevel { newLevel -= (newLevel - minLevel) % levelMod }
                if newLevel != level { covering[i] = covering[i].parent(level: newLevel) }
            }
        }
        CellUnion.normalize(&covering)
        if minLevel > 0 || levelMod > 1 {
            var tmp: [CellID] = []
            CellUnion.denormalize(covering, minLevel: minLevel, levelMod: levelMod, into: &tmp)
            covering = tmp
        }
        let excess = covering.count - maxCells
        if excess <= 0 || isCanonical(covering) { return }
        // (S2 re-covers with a full coverer when excess · count > 10000; unreachable here.)
        while covering.count > maxCells {
            var bestIndex = -1, bestLevel = -1
            for i in 0..<(covering.count - 1) {
                var level = covering[i].commonAncestorLevel(covering[i + 1]) ?? -1
                if levelMod > 1 && level > minLevel { level -= (level - minLevel) % levelMod }
                if level > bestLevel {
                    bestLevel = level
                    bestIndex = i
                }
            }
            if bestLevel < minLevel { break }
            var id = covering[bestIndex].parent(level: bestLevel)
            replaceCellsWithAncestor(&covering, id)
            while bestLevel > minLevel {
                bestLevel -= levelMod
                id = id.parent(level: bestLevel)
                if !containsAllChildren(covering, id) { break }
                replaceCellsWithAncestor(&covering, id)
            }
        }
    }

    /// S2's `IsCanonical`.
    @usableFromInline
    func isCanonical(_ covering: [CellID]) -> Bool {
        let maxL = trueMaxLevel
        let tooManyCells = covering.count > maxCells
        var sameParentCount = 1
        var prev: CellID? = nil
        for id in covering {
            let level = id.level
            if level < minLevel || level > maxL { return false }
            if levelMod > 1 && (level - minLevel) % levelMod != 0 { return false }
            if let p = prev {
                if p.rangeMax.rawValue >= id.rangeMin.rawValue { return false }
                if tooManyCells && (id.commonAncestorLevel(p) ?? -1) >= minLevel { return false }
                let plevel = level - levelMod
                if plevel < minLevel || level != p.level || id.parent(level: plevel) != p.parent(level: plevel) {
                    sameParentCount = 1
                } else {
                    sameParentCount += 1
                    if sameParentCount == 1 << (2 * levelMod) { return false }
                }
            }
            prev = id
        }
        return true
    }

    /// S2's `ContainsAllChildren`: whether every child of `id` at level `id.level + levelMod`
    /// is in the sorted `covering`.
    func containsAllChildren(_ covering: [CellID], _ id: CellID) -> Bool {
        var i = CellUnion.lowerBound(covering, id.rangeMin)
        let level = id.level + levelMod
        var child = id.childBegin(level: level)
        let end = id.childEnd(level: level)
        while child != end {
            if i == covering.count || covering[i] != child { return false }
            i += 1
            child = child.next
        }
        return true
    }

    /// S2's `ReplaceCellsWithAncestor`: replaces the descendants of `id` in the sorted
    /// `covering` (at least one) with `id`.
    func replaceCellsWithAncestor(_ covering: inout [CellID], _ id: CellID) {
        let begin = CellUnion.lowerBound(covering, id.rangeMin)
        let end = CellUnion.upperBound(covering, id.rangeMax)
        covering.removeSubrange((begin + 1)..<end)
        covering[begin] = id
    }
}
