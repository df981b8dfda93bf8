import Geodesy

/// A static R-tree over circular fences, bulk-loaded in Hilbert order into flat arrays
/// (the packed Hilbert R-tree of mourner/flatbush's `index.js`), with latitude/longitude
/// boxes in `Float` degrees and the exact squared-chord test at the leaves.
///
/// Representation:
/// - Fences are sorted by the `HilbertCurve` key of their center's degrees and stored in that
///   order as flat arrays: `itemData` (x, y, z, chord2 per fence, 32 bytes), `ids`, `radii`.
///   `itemData` is blocked by leaf node, structure-of-arrays inside a block: the `m` fences of
///   leaf j (m = `leafSize`, fewer in the last) start at word `4 * leafSize * j` as m x, then
///   m y, m z, m chord2, so that the leaf scan tests two fences per `SIMD2<Double>` operation.
/// - Level 1 ("leaf nodes") comes first: leaf node j holds fences
///   `j*leafSize ..< min((j+1)*leafSize, n)` (computed, not stored); each higher level groups
///   `nodeSize` consecutive nodes of the level below; the root, always an inner node, is last.
///   Tree shape is arithmetic: no node objects, no pointers.
/// - An inner node stores its children's boxes (`DegreeBox`: south, north, west, east) as
///   structure-of-arrays in `childBoxes`: `lanes` souths, then `lanes` norths, wests, easts
///   (`lanes` = `nodeSize` rounded up to a multiple of 4; unused lanes hold the empty box), so
///   that one `SIMD4<Float>` compare per bound tests four children; `nodeChildren` holds its
///   first child and one past the last. A fence's own box is not stored: inside a leaf the
///   exact test (4 loads, 3 multiply-adds, one compare) is about as cheap as a box test.
/// - Memory: 44 bytes per fence (32 of exact-test data, id, radius) plus 16 / `leafSize` of
///   leaf boxes and the inner levels: 46.2-46.5 bytes with the defaults (3k to 300k fences).
///
/// The antimeridian: a box that reaches it from the west (`DegreeBox/isCrossing`) runs past
/// 180 on an unwrapped longitude line. A fix is looked up at its longitude in [-180, 180), and
/// again at longitude + 360 when some box reaches that far (`rootEast`). A leaf holding such a
/// fence (`crossingLeaves`) accepts it in the first descent only if the fix is at or east of
/// the box's west edge, and in the second only if it is not, so each hit is reported once.
/// Poles need nothing special: a cap that reaches a pole spans all longitudes.
///
/// Queries are `@inlinable` so that callers in other modules get them specialised and inlined;
/// they allocate nothing (the traversal stack is a stack-allocated temporary) and are safe to
/// run concurrently from many threads on one shared tree. For many fixes, the batch query
/// (`PackedRTree+Batch.swift`) takes the fixes down the tree together, level by level.
///
/// Complexity: building is O(n log n) (a sort by Hilbert key); a stabbing query visits the
/// nodes whose boxes contain the fix, O(log n + k) for k candidates in well-spread data.
/// docs/INDEXES.md gives the measurements behind the layout.
public struct PackedRTree: FenceIndex, Sendable {
    /// Children per inner node. Default 16, or 8 below ``smallTreeFences`` fences.
    public let nodeSize: Int
    /// Fences per leaf node. Default 8: tighter leaf boxes halve the exact tests of a passing leaf.
    public let leafSize: Int
    /// `nodeSize` rounded up to a multiple of 4: the box slots of an inner node.
    @usableFromInline let lanes: Int
    /// x, y, z, chord2 per fence, in Hilbert order, blocked by leaf (see above).
    @usableFromInline var itemData: [Double]
    /// Fence ids in Hilbert order.
    @usableFromInline var ids: [Int32]
    /// Radii in meters, in Hilbert order (for edge distances).
    @usableFromInline var radii: [Double]
    /// `4 * lanes` per inner node (inner node `k` is node `leafNodeCount + k`): its children's
    /// souths, norths, wests, easts.
    @usableFromInline var childBoxes: [Float]
    /// 2 per inner node: first child, one past the last.
    @usableFromInline var nodeChildren: [Int32]
    /// Number of leaf nodes (level 1); nodes below this index have fences as children.
    @usableFromInline var leafNodeCount: Int
    /// Number of node levels, leaves and root included (0 when empty, else at least 2).
    @usableFromInline var height: Int
    /// Largest fence radius, meters (the edge-distance bound of boxes that contain the point).
    @usableFromInline var maxRadius: Double
    /// The largest east edge of any box: a second descent at longitude + 360 is needed only up
    /// to here. Below 180 when no box crosses the antimeridian.
    @usableFromInline var rootEast: Float
    /// One bit per leaf node: set when it holds a fence whose box crosses the antimeridian.
    @usableFromInline var crossingLeaves: [UInt64]
    /// Positions (Hilbert order) of the fences whose box crosses the antimeridian, ascending,
    /// and those boxes' west edges.
    @usableFromInline var crossingPositions: [Int32]
    @usableFromInline var crossingWests: [Float]

    /// Below this many fences the default inner node size is 8 (measured at 3k and 30k only).
    public static let smallTreeFences = 10_000

    /// Largest `nodeSize` and `leafSize` accepted (the batch query's fixed scratch holds a few
    /// nodes' children and a leaf's hits per chunk).
    public static let maxNodeSize = 1024, maxLeafSize = 256

    /// Builds the tree. - Complexity: O(n log n) (the Hilbert sort).
    /// - Precondition: `2 <= nodeSize <= maxNodeSize`, `1 <= leafSize <= maxLeafSize`; fewer
    ///   than 2^31 fences.
    public init(_ fences: some Collection<Fence>, nodeSize: Int? = nil, leafSize: Int = 8) {
        let nodeSize = nodeSize ?? (fences.count < PackedRTree.smallTreeFences ? 8 : 16)
        precondition(nodeSize >= 2 && nodeSize <= PackedRTree.maxNodeSize, "nodeSize must be in 2...\(PackedRTree.maxNodeSize)")
        precondition(leafSize >= 1 && leafSize <= PackedRTree.maxLeafSize, "leafSize must be in 1...\(PackedRTree.maxLeafSize)")
        precondition(fences.count < Int(Int32.max), "too many fences")
        self.nodeSize = nodeSize
        self.leafSize = leafSize
        lanes = (nodeSize + 3) & ~3
        let input = Array(fences)
        let n = input.count
        var order = input.indices.map {
            (
                key: HilbertCurve.key(latitude: input[$0].center.latitude, longitude: input[$0].center.longitude),
                index: $0
            )
        }
        order.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }

        ids = order.map { input[$0.index].id }
        radii = order.map { input[$0.index].radiusMeters }
        maxRadius = radii.max() ?? 0
        itemData = []
        itemData.reserveCapacity(4 * n)
        var blockStart = 0
        while blockStart < n {
            let block = order[blockStart..<Swift.min(blockStart + leafSize, n)].map { input[$0.index] }
            itemData.append(contentsOf: block.map(\.centerVector.x))
            itemData.append(contentsOf: block.map(\.centerVector.y))
            itemData.append(contentsOf: block.map(\.centerVector.z))
            itemData.append(contentsOf: block.map(\.chord2))
            blockStart += leafSize
        }

        childBoxes = []
        nodeChildren = []
        leafNodeCount = 0
        height = 0
        rootEast = -.infinity
        crossingLeaves = []
        crossingPositions = []
        crossingWests = []
        guard n > 0 else { return }

        // Level 1: one box per leafSize consecutive fences.
        let leaves = (n + leafSize - 1) / leafSize
        var innerNodes = 0, width = leaves
        repeat {
            width = (width + nodeSize - 1) / nodeSize
            innerNodes += width
        } while width > 1
        childBoxes.reserveCapacity(4 * lanes * innerNodes)
        nodeChildren.reserveCapacity(2 * innerNodes)
        crossingLeaves = [UInt64](repeating: 0, count: (leaves + 63) / 64)
        var level: [DegreeBox] = []
        level.reserveCapacity(leaves)
        for leaf in 0..<leaves {
            var box = DegreeBox.empty
            for i in leaf * leafSize..<Swift.min((leaf + 1) * leafSize, n) {
                let b = DegreeBox(cap: input[order[i].index])
                if b.isCrossing {
                    crossingLeaves[leaf >> 6] |= 1 << UInt64(leaf & 63)
                    crossingPositions.append(Int32(i))
                    crossingWests.append(b.west)
                }
                box = box.union(b)
            }
            level.append(box)
        }
        leafNodeCount = leaves
        height = 1
        // Higher levels: group nodeSize consecutive nodes of the level below, bottom-up, until
        // one node (the root, never a leaf) remains.
        var levelStart = 0
        repeat {
            var next: [DegreeBox] = []
            var child = 0
            while child < level.count {
                let end = Swift.min(child + nodeSize, level.count)
                var box = DegreeBox.empty
                var slots = [DegreeBox](repeating: .empty, count: lanes)
                for c in child..<end {
                    box = box.union(level[c])
                    slots[c - child] = level[c]
                }
                childBoxes.append(contentsOf: slots.map(\.south))
                childBoxes.append(contentsOf: slots.map(\.north))
                childBoxes.append(contentsOf: slots.map(\.west))
                childBoxes.append(contentsOf: slots.map(\.east))
                nodeChildren.append(Int32(levelStart + child))
                nodeChildren.append(Int32(levelStart + end))
                next.append(box)
                child = end
            }
            levelStart += level.count
            level = next
            height += 1
        } while level.count > 1
        rootEast = level[0].east
    }

    /// Number of fences.
    @inlinable public var count: Int { ids.count }

    /// Number of nodes (all levels).
    @inlinable public var nodeCount: Int { leafNodeCount + nodeChildren.count / 2 }

    /// Bytes held by the index's arrays (their capacity), excluding the struct itself.
    public var memoryBytes: Int {
        itemData.capacity * 8 + ids.capacity * 4 + radii.capacity * 8
            + childBoxes.capacity * 4 + nodeChildren.capacity * 4 + crossingLeaves.capacity * 8
            + crossingPositions.capacity * 4 + crossingWests.capacity * 4
    }

    /// The box of child slot `slot` of inner node `node` (``DegreeBox/empty`` past its children).
    @inlinable
    func childBox(_ boxes: UnsafeBufferPointer<Float>, node: Int, slot: Int) -> DegreeBox {
        let o = (node &- leafNodeCount) &* 4 &* lanes &+ slot
        return DegreeBox(
            south: boxes[o], north: boxes[o &+ lanes], west: boxes[o &+ 2 &* lanes],
            east: boxes[o &+ 3 &* lanes])
    }

    /// The center and squared chord of the fence at position `i` (Hilbert order).
    @inlinable
    func fenceData(_ i: Int) -> (x: Double, y: Double, z: Double, chord2: Double) {
        let j = i / leafSize, k = i % leafSize
        let m = Swift.min(leafSize, count - j * leafSize)
        let o = 4 * leafSize * j + k
        return (itemData[o], itemData[o + m], itemData[o + 2 * m], itemData[o + 3 * m])
    }

    /// The children of `node`: fence positions for a leaf node, node indices otherwise.
    @inlinable @inline(__always)
    func children(of node: Int) -> Range<Int> {
        if node < leafNodeCount {
            let start = node &* leafSize
            return start..<Swift.min(start &+ leafSize, count)
        }
        let k = (node &- leafNodeCount) &* 2
        return Int(nodeChildren[k])..<Int(nodeChildren[k &+ 1])
    }

    /// Whether leaf node `leaf` holds a fence whose box crosses the antimeridian.
    @inlinable @inline(__always)
    func leafCrosses(_ leaf: Int) -> Bool {
        crossingLeaves.withUnsafeBufferPointer { $0[leaf &>> 6] &>> UInt64(leaf & 63) & 1 != 0 }
    }

    /// The west edge of the box of the fence at position `i` if that box crosses the
    /// antimeridian, else nil.
    @usableFromInline
    func crossingWest(_ i: Int) -> Float? {
        var lo = 0, hi = crossingPositions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(crossingPositions[mid]) < i { lo = mid + 1 } else { hi = mid }
        }
        return lo < crossingPositions.count && Int(crossingPositions[lo]) == i ? crossingWests[lo] : nil
    }
}
