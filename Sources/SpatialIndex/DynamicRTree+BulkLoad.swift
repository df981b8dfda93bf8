import Geodesy

extension DynamicRTree {
    /// A tree holding `fences`, bulk-loaded: fences sorted along a Hilbert curve over the cube
    /// faces (`HilbertCurve/key(_:)`, as mourner/flatbush sorts), cut into leaves of near-equal size, and each level above built the
    /// same way (the bottom-up packing that rbush's `load` also offers). A packed start gives
    /// the tree tight, little-overlapping nodes, as in a packed tree; later edits keep it valid.
    /// Groups of near-equal size (`ceil(k / maxEntries)` groups of k entries) hold more than
    /// `maxEntries / 2 >= minEntries` entries each, so the fill invariant holds.
    /// - Throws: ``DynamicRTreeError/duplicateID(_:)`` if two fences share an id.
    /// - Complexity: O(n log n).
    public init(_ fences: some Collection<Fence>, maxEntries: Int = 16) throws(DynamicRTreeError) {
        self.init(maxEntries: maxEntries)
        guard !fences.isEmpty else { return }
        // Slots are allocated in Hilbert order too, so that a leaf's fence data is contiguous.
        let input = Array(fences)
        var order = input.indices.map { (key: HilbertCurve.key(input[$0].centerVector), index: $0) }
        order.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }
        var keyed: [(key: UInt64, slot: Int32)] = []
        keyed.reserveCapacity(input.count)
        for (key, index) in order {
            let f = input[index]
            guard slotOfID[f.id] == nil else { throw .duplicateID(f.id) }
            keyed.append((key, allocateSlot(f)))
        }

        freeNode(root)
        var level: [(box: Box3, ref: Int32)] = keyed.map { (slotBox($0.slot), $0.slot) }
        var height: Int32 = 0
        while true {
            let k = level.count
            let groups = (k + maxEntries - 1) / maxEntries
            var next: [(box: Box3, ref: Int32)] = []
            next.reserveCapacity(groups)
            for g in 0..<groups {
                let node = allocateNode(height: height)
                let lo = g * k / groups, hi = (g + 1) * k / groups
                var box = Box3.empty
                for (j, e) in level[lo..<hi].enumerated() {
                    setStoredBox(node, j, e.box)
                    childRefs[Int(node) * maxEntries + j] = e.ref
                    setParent(of: e.ref, atHeight: height, to: node)
                    box = box.union(e.box)
                }
                nodeCounts[Int(node)] = Int32(hi - lo)
                next.append((box, node))
            }
            if groups == 1 {
                root = next[0].ref
                nodeParents[Int(root)] = -1
                return
            }
            level = next
            height += 1
        }
    }
}
