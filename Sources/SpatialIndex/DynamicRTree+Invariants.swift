extension DynamicRTree {
    /// Every broken invariant, as readable sentences (empty when the tree is sound). Tests call
    /// it after every edit. - Complexity: O(n).
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        var seenSlots = Set<Int32>()
        var visitedNodes = Set<Int32>()
        if nodeParents[Int(root)] != -1 { problems.append("root \(root) has a parent") }
        if nodeHeights[Int(root)] > 0 && nodeCounts[Int(root)] < 2 {
            problems.append("inner root \(root) has \(nodeCounts[Int(root)]) children")
        }
        func visit(_ node: Int32) {
            guard visitedNodes.insert(node).inserted else {
                problems.append("node \(node) reached twice")
                return
            }
            if freeNodes.contains(node) { problems.append("node \(node) is in use and on the free list") }
            let count = Int(nodeCounts[Int(node)])
            let height = nodeHeights[Int(node)]
            if node != root && (count < minEntries || count > maxEntries) {
                problems.append("node \(node) has \(count) children, outside \(minEntries)...\(maxEntries)")
            }
            for j in 0..<count {
                let ref = childRefs[Int(node) * maxEntries + j]
                let stored = storedBox(node, j)
                if height == 0 {
                    if !seenSlots.insert(ref).inserted { problems.append("slot \(ref) in two leaves") }
                    if slotLeaf[Int(ref)] != node {
                        problems.append("slot \(ref) says leaf \(slotLeaf[Int(ref)]), found in \(node)")
                    }
                    if !stored.contains(slotBox(ref)) {
                        problems.append("leaf \(node) entry \(j) box does not contain fence \(slotIds[Int(ref)])")
                    }
                } else {
                    if nodeParents[Int(ref)] != node {
                        problems.append("node \(ref) says parent \(nodeParents[Int(ref)]), found in \(node)")
                    }
                    if nodeHeights[Int(ref)] != height - 1 {
                        problems.append("node \(ref) at height \(nodeHeights[Int(ref)]) under height \(height)")
                    }
                    if stored != nodeBox(ref) {
                        problems.append("box of node \(ref) stored in \(node) is not the union of its children")
                    }
                    visit(ref)
                }
            }
        }
        visit(root)
        if seenSlots.count != slotOfID.count {
            problems.append("\(seenSlots.count) fences in leaves, \(slotOfID.count) ids")
        }
        for (id, slot) in slotOfID {
            if !seenSlots.contains(slot) { problems.append("id \(id) (slot \(slot)) is in no leaf") }
            if slotIds[Int(slot)] != id { problems.append("slot \(slot) holds id \(slotIds[Int(slot)]), map says \(id)") }
        }
        if visitedNodes.count + freeNodes.count != nodeCounts.count {
            problems.append("\(visitedNodes.count) live + \(freeNodes.count) free != \(nodeCounts.count) nodes")
        }
        return problems
    }

    /// Traps with the list of broken invariants, if any (for debugging sessions and tests).
    public func checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, problems.joined(separator: "; "))
    }
}
