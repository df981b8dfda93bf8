import Geodesy

/// An R-tree over circular fences that is edited one fence at a time: insert, remove by id,
/// update (move or resize).
///
/// Representation (no node objects: the search loop does no reference counting):
/// - A node pool of flat arrays indexed by node number: `nodeCounts`, `nodeHeights` (0 = leaf),
///   `nodeParents` (-1 for the root), and per node `maxEntries` child slots in `childBoxes`
///   (2 `SIMD4<Float>` per slot: the child's 3-D box over unit vectors, rounded outward) and
///   `childRefs` (a child node number, or a fence slot in a leaf). Freed nodes go on a free list.
/// - Fences live in slots (`slotData` = x, y, z, chord2; `slotIds`; `slotFences`), recycled
///   through a free list; `slotOfID` maps an id to its slot and `slotLeaf` a slot to its leaf.
///
/// Algorithms: Guttman's ChooseSubtree by least volume enlargement (then least margin
/// enlargement, then least volume); the R* split (Beckmann et al. 1990: the axis of least
/// margin sum, then the distribution of least overlap, then least volume), without R*'s forced
/// reinsertion. The R* split is chosen over Guttman's quadratic split because it is what gives
/// R* trees most of their query advantage (square-ish, little-overlapping nodes) at O(M log M)
/// per split; forced reinsertion adds complexity for a few percent more. Removal is Guttman's
/// CondenseTree: an underfull node (fewer than `minEntries`) is dissolved and its fences are
/// reinserted. Node boxes are kept tight (exactly the union of their children). Leaf-entry
/// boxes (the fences' own) serve the edits and the within/nearest queries; stabbing skips them
/// and runs the exact test on a leaf's fences (see ``forEachContaining(_:_:)``).
///
/// Invariants (checked by ``invariantViolations()``): every stored child box contains the box
/// of what it points at and equals the union of that node's children; every non-root node has
/// `minEntries...maxEntries` children; an inner root has at least 2; all leaves are at height 0
/// and heights drop by one per level; every id is in exactly one leaf, once.
public struct DynamicRTree: FenceIndex, Sendable {
    /// Most children per node. Default 16 (as the packed tree; 6 cache lines of child boxes).
    public let maxEntries: Int
    /// Fewest children per non-root node: 40 % of `maxEntries` (rbush's and R*'s choice: the
    /// split has room to pick good distributions and nodes stay reasonably full).
    public let minEntries: Int

    @usableFromInline var nodeCounts: [Int32] = []
    @usableFromInline var nodeHeights: [Int32] = []
    @usableFromInline var nodeParents: [Int32] = []
    /// `maxEntries * 2` vectors per node: (min x, y, z, -inf), (max x, y, z, +inf) per child.
    @usableFromInline var childBoxes: [SIMD4<Float>] = []
    /// `maxEntries` per node.
    @usableFromInline var childRefs: [Int32] = []
    @usableFromInline var freeNodes: [Int32] = []
    @usableFromInline var root: Int32 = 0

    /// x, y, z, chord2 per slot.
    @usableFromInline var slotData: [Double] = []
    @usableFromInline var slotIds: [Int32] = []
    @usableFromInline var slotFences: [Fence] = []
    @usableFromInline var slotLeaf: [Int32] = []
    @usableFromInline var freeSlots: [Int32] = []
    @usableFromInline var slotOfID: [Int32: Int32] = [:]
    /// Largest radius ever inserted (never lowered on removal: still a valid bound).
    @usableFromInline var maxRadius: Double = 0

    /// An empty tree.
    /// - Precondition: `maxEntries >= 4` (so that `minEntries >= 2`).
    public init(maxEntries: Int = 16) {
        precondition(maxEntries >= 4, "maxEntries must be at least 4")
        self.maxEntries = maxEntries
        self.minEntries = Swift.max(2, maxEntries * 2 / 5)
        root = allocateNode(height: 0)
    }

    /// Number of fences.
    @inlinable public var count: Int { slotOfID.count }

    /// True when a fence with this id is present.
    public func contains(id: Int32) -> Bool { slotOfID[id] != nil }

    /// The fence with this id, if present.
    public func fence(id: Int32) -> Fence? { slotOfID[id].map { slotFences[Int($0)] } }

    /// All fences, ascending by id.
    public var fences: [Fence] {
        slotOfID.values.map { slotFences[Int($0)] }.sorted { $0.id < $1.id }
    }

    /// Bytes held by the arrays (capacity), excluding the id dictionary's overhead estimate
    /// of 16 bytes per entry which is added.
    public var memoryBytes: Int {
        nodeCounts.capacity * 4 + nodeHeights.capacity * 4 + nodeParents.capacity * 4
            + childBoxes.capacity * 16 + childRefs.capacity * 4 + freeNodes.capacity * 4
            + slotData.capacity * 8 + slotIds.capacity * 4 + slotFences.capacity * MemoryLayout<Fence>.stride
            + slotLeaf.capacity * 4 + freeSlots.capacity * 4 + slotOfID.capacity * 16
    }

    /// Height of the tree in node levels (1 for a single leaf root).
    @inlinable var levels: Int { Int(nodeHeights[Int(root)]) + 1 }

    // MARK: Editing

    /// Adds a fence, as the slot the next insertion would use (no tree change yet).
    mutating func allocateSlot(_ fence: Fence) -> Int32 {
        let slot: Int32
        if let s = freeSlots.popLast() {
            slot = s
            let i = Int(s)
            slotData[4 * i] = fence.centerVector.x
            slotData[4 * i + 1] = fence.centerVector.y
            slotData[4 * i + 2] = fence.centerVector.z
            slotData[4 * i + 3] = fence.chord2
            slotIds[i] = fence.id
            slotFences[i] = fence
        } else {
            slot = Int32(slotIds.count)
            slotData.append(fence.centerVector.x)
            slotData.append(fence.centerVector.y)
            slotData.append(fence.centerVector.z)
            slotData.append(fence.chord2)
            slotIds.append(fence.id)
            slotFences.append(fence)
            slotLeaf.append(-1)
        }
        slotOfID[fence.id] = slot
        maxRadius = Swift.max(maxRadius, fence.radiusMeters)
        return slot
    }

    /// Adds a fence. - Throws: ``DynamicRTreeError/duplicateID(_:)`` if its id is present.
    /// - Complexity: O(log n) expected (node scans of `maxEntries`).
    public mutating func insert(_ fence: Fence) throws(DynamicRTreeError) {
        guard slotOfID[fence.id] == nil else { throw .duplicateID(fence.id) }
        let slot = allocateSlot(fence)
        insertSlot(slot)
    }

    /// Removes the fence with this id and returns it (nil if absent).
    /// - Complexity: O(log n) expected, plus the reinsertion of a dissolved node's fences.
    @discardableResult
    public mutating func remove(id: Int32) -> Fence? {
        guard let slot = slotOfID.removeValue(forKey: id) else { return nil }
        let s = Int(slot)
        let leaf = slotLeaf[s]
        removeEntry(referencing: slot, from: leaf)
        slotLeaf[s] = -1
        freeSlots.append(slot)
        condense(from: leaf)
        return slotFences[s]
    }

    /// Inserts `fence`, replacing (moving or resizing) any fence with the same id; returns the
    /// replaced fence.
    @discardableResult
    public mutating func update(_ fence: Fence) -> Fence? {
        let old = remove(id: fence.id)
        do { try insert(fence) } catch { preconditionFailure("id \(fence.id) was just removed") }
        return old
    }

    // MARK: Node pool

    mutating func allocateNode(height: Int32) -> Int32 {
        let n: Int32
        if let free = freeNodes.popLast() {
            n = free
        } else {
            n = Int32(nodeCounts.count)
            nodeCounts.append(0)
            nodeHeights.append(0)
            nodeParents.append(-1)
            childBoxes.append(contentsOf: repeatElement(.zero, count: 2 * maxEntries))
            childRefs.append(contentsOf: repeatElement(-1, count: maxEntries))
        }
        nodeCounts[Int(n)] = 0
        nodeHeights[Int(n)] = height
        nodeParents[Int(n)] = -1
        return n
    }

    mutating func freeNode(_ n: Int32) {
        nodeCounts[Int(n)] = 0
        nodeHeights[Int(n)] = -1
        nodeParents[Int(n)] = -1
        freeNodes.append(n)
    }

    func storedBox(_ node: Int32, _ j: Int) -> Box3 {
        childBoxes.withUnsafeBufferPointer { $0.box(at: Int(node) * maxEntries + j) }
    }

    mutating func setStoredBox(_ node: Int32, _ j: Int, _ b: Box3) {
        let o = (Int(node) * maxEntries + j) * 2
        childBoxes[o] = SIMD4(b.minX, b.minY, b.minZ, -.infinity)
        childBoxes[o + 1] = SIMD4(b.maxX, b.maxY, b.maxZ, .infinity)
    }

    /// Union of a node's children boxes (its tight box).
    func nodeBox(_ node: Int32) -> Box3 {
        var b = Box3.empty
        for j in 0..<Int(nodeCounts[Int(node)]) { b = b.union(storedBox(node, j)) }
        return b
    }

    func slotBox(_ slot: Int32) -> Box3 {
        let o = 4 * Int(slot)
        return Box3(
            capCenter: UnitVector(x: slotData[o], y: slotData[o + 1], z: slotData[o + 2]),
            chord2: slotData[o + 3])
    }

    func position(of child: Int32, in node: Int32) -> Int {
        let base = Int(node) * maxEntries
        for j in 0..<Int(nodeCounts[Int(node)]) where childRefs[base + j] == child { return j }
        preconditionFailure("child \(child) not found in node \(node)")
    }

    /// Points the child (fence slot or node) back at its new parent.
    mutating func setParent(of ref: Int32, atHeight height: Int32, to node: Int32) {
        if height == 0 { slotLeaf[Int(ref)] = node } else { nodeParents[Int(ref)] = node }
    }

    /// Recomputes the stored box of `node` in its parent, and so on up while anything changes.
    mutating func refreshUpward(from node: Int32) {
        var n = node
        while nodeParents[Int(n)] >= 0 {
            let p = nodeParents[Int(n)]
            let j = position(of: n, in: p)
            let b = nodeBox(n)
            if b == storedBox(p, j) { return }
            setStoredBox(p, j, b)
            n = p
        }
    }

    // MARK: Insertion

    mutating func insertSlot(_ slot: Int32) {
        let box = slotBox(slot)
        var node = root
        while nodeHeights[Int(node)] > 0 {
            node = childRefs[Int(node) * maxEntries + chooseSubtree(node, box)]
        }
        addEntry(to: node, box: box, ref: slot)
    }

    /// Guttman's ChooseSubtree step: least volume enlargement, then least margin enlargement,
    /// then least volume (the margin tie-break matters for flat boxes, whose volume is 0).
    func chooseSubtree(_ node: Int32, _ box: Box3) -> Int {
        var best = 0
        var bestKey = (Double.infinity, Double.infinity, Double.infinity)
        for j in 0..<Int(nodeCounts[Int(node)]) {
            let b = storedBox(node, j)
            let u = b.union(box)
            let key = (u.volume - b.volume, u.margin - b.margin, b.volume)
            if key < bestKey {
                bestKey = key
                best = j
            }
        }
        return best
    }

    /// Adds a child to `node`, splitting it (and its ancestors) when full.
    mutating func addEntry(to node: Int32, box: Box3, ref: Int32) {
        let count = Int(nodeCounts[Int(node)])
        let height = nodeHeights[Int(node)]
        if count < maxEntries {
            setStoredBox(node, count, box)
            childRefs[Int(node) * maxEntries + count] = ref
            nodeCounts[Int(node)] = Int32(count + 1)
            setParent(of: ref, atHeight: height, to: node)
            refreshUpward(from: node)
            return
        }
        // Overflow: split the maxEntries + 1 children into two nodes.
        var boxes = (0..<count).map { storedBox(node, $0) }
        var refs = (0..<count).map { childRefs[Int(node) * maxEntries + $0] }
        boxes.append(box)
        refs.append(ref)
        let (groupA, groupB) = Self.rStarSplit(boxes, minEntries: minEntries)
        let sibling = allocateNode(height: height)
        fill(node, with: groupA, boxes, refs)
        fill(sibling, with: groupB, boxes, refs)
        if node == root {
            let newRoot = allocateNode(height: height + 1)
            setStoredBox(newRoot, 0, nodeBox(node))
            setStoredBox(newRoot, 1, nodeBox(sibling))
            childRefs[Int(newRoot) * maxEntries] = node
            childRefs[Int(newRoot) * maxEntries + 1] = sibling
            nodeCounts[Int(newRoot)] = 2
            nodeParents[Int(node)] = newRoot
            nodeParents[Int(sibling)] = newRoot
            root = newRoot
        } else {
            let parent = nodeParents[Int(node)]
            refreshUpward(from: node)
            addEntry(to: parent, box: nodeBox(sibling), ref: sibling)
        }
    }

    mutating func fill(_ node: Int32, with group: [Int], _ boxes: [Box3], _ refs: [Int32]) {
        let height = nodeHeights[Int(node)]
        for (j, e) in group.enumerated() {
            setStoredBox(node, j, boxes[e])
            childRefs[Int(node) * maxEntries + j] = refs[e]
            setParent(of: refs[e], atHeight: height, to: node)
        }
        nodeCounts[Int(node)] = Int32(group.count)
    }

    // MARK: Removal

    mutating func removeEntry(referencing ref: Int32, from node: Int32) {
        let j = position(of: ref, in: node)
        let last = Int(nodeCounts[Int(node)]) - 1
        if j != last {
            setStoredBox(node, j, storedBox(node, last))
            childRefs[Int(node) * maxEntries + j] = childRefs[Int(node) * maxEntries + last]
        }
        nodeCounts[Int(node)] = Int32(last)
    }

    /// Guttman's CondenseTree: walk from `leaf` to the root, dissolving underfull nodes and
    /// tightening boxes; then shorten the root and reinsert the dissolved nodes' fences.
    mutating func condense(from leaf: Int32) {
        var orphans: [Int32] = []
        var n = leaf
        while n != root {
            let p = nodeParents[Int(n)]
            if Int(nodeCounts[Int(n)]) < minEntries {
                removeEntry(referencing: n, from: p)
                collectSlots(n, into: &orphans, freeing: true)
            } else {
                setStoredBox(p, position(of: n, in: p), nodeBox(n))
            }
            n = p
        }
        while nodeHeights[Int(root)] > 0 && nodeCounts[Int(root)] <= 1 {
            if nodeCounts[Int(root)] == 0 {
                nodeHeights[Int(root)] = 0
                break
            }
            let child = childRefs[Int(root) * maxEntries]
            freeNode(root)
            root = child
            nodeParents[Int(child)] = -1
        }
        for s in orphans { insertSlot(s) }
    }

    /// Appends every fence slot below `node` to `out`, optionally returning the nodes to the pool.
    mutating func collectSlots(_ node: Int32, into out: inout [Int32], freeing: Bool) {
        let base = Int(node) * maxEntries
        let count = Int(nodeCounts[Int(node)])
        if nodeHeights[Int(node)] == 0 {
            out.append(contentsOf: childRefs[base..<base + count])
        } else {
            for j in 0..<count { collectSlots(childRefs[base + j], into: &out, freeing: freeing) }
        }
        if freeing { freeNode(node) }
    }
}

/// Why an edit of a ``DynamicRTree`` was refused.
public enum DynamicRTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A fence with this id is already in the tree.
    case duplicateID(Int32)

    /// Size and height, for debugging.
    public var description: String {
        switch self {
        case .duplicateID(let id): return "a fence with id \(id) is already in the tree"
        }
    }
}
