extension DynamicRTree {
    /// The R* split (Beckmann, Kriegel, Schneider & Seeger, "The R*-tree", SIGMOD 1990,
    /// ChooseSplitAxis / ChooseSplitIndex), in 3-D: for each axis, sort the entries by lower
    /// and by upper bound and sum the margins of every allowed distribution (first k / rest,
    /// `minEntries <= k <= count - minEntries`); on the axis with the least sum, take the
    /// distribution with the least overlap volume, then the least total volume, then the least
    /// total margin. Returns the two groups as indices into `boxes`.
    static func rStarSplit(_ boxes: [Box3], minEntries m: Int) -> ([Int], [Int]) {
        let count = boxes.count
        func lower(_ b: Box3, _ axis: Int) -> Float { axis == 0 ? b.minX : axis == 1 ? b.minY : b.minZ }
        func upper(_ b: Box3, _ axis: Int) -> Float { axis == 0 ? b.maxX : axis == 1 ? b.maxY : b.maxZ }
        func sorted(_ axis: Int, byUpper: Bool) -> [Int] {
            Array(0..<count).sorted { i, j in
                let a = boxes[i], b = boxes[j]
                let (ka, kb) = byUpper ? (upper(a, axis), upper(b, axis)) : (lower(a, axis), lower(b, axis))
                if ka != kb { return ka < kb }
                let (ta, tb) = byUpper ? (lower(a, axis), lower(b, axis)) : (upper(a, axis), upper(b, axis))
                if ta != tb { return ta < tb }
                return i < j
            }
        }
        /// Boxes of the first k entries (prefix[k-1]) and of entries k... (suffix[k]).
        func prefixSuffix(_ order: [Int]) -> ([Box3], [Box3]) {
            var prefix = [Box3](repeating: .empty, count: count)
            var suffix = [Box3](repeating: .empty, count: count + 1)
            var acc = Box3.empty
            for (i, e) in order.enumerated() {
                acc = acc.union(boxes[e])
                prefix[i] = acc
            }
            acc = .empty
            for i in stride(from: count - 1, through: 0, by: -1) {
                acc = acc.union(boxes[order[i]])
                suffix[i] = acc
            }
            return (prefix, suffix)
        }
        func overlap(_ a: Box3, _ b: Box3) -> Double {
            let dx = Double(Swift.min(a.maxX, b.maxX) - Swift.max(a.minX, b.minX))
            let dy = Double(Swift.min(a.maxY, b.maxY) - Swift.max(a.minY, b.minY))
            let dz = Double(Swift.min(a.maxZ, b.maxZ) - Swift.max(a.minZ, b.minZ))
            return dx <= 0 || dy <= 0 || dz <= 0 ? 0 : dx * dy * dz
        }

        var bestAxis = 0
        var bestMarginSum = Double.infinity
        for axis in 0..<3 {
            var sum = 0.0
            for byUpper in [false, true] {
                let (prefix, suffix) = prefixSuffix(sorted(axis, byUpper: byUpper))
                for k in m...(count - m) { sum += prefix[k - 1].margin + suffix[k].margin }
            }
            if sum < bestMarginSum {
                bestMarginSum = sum
                bestAxis = axis
            }
        }

        var best: (order: [Int], k: Int) = ([], 0)
        var bestKey = (Double.infinity, Double.infinity, Double.infinity)
        for byUpper in [false, true] {
            let order = sorted(bestAxis, byUpper: byUpper)
            let (prefix, suffix) = prefixSuffix(order)
            for k in m...(count - m) {
                let a = prefix[k - 1], b = suffix[k]
                let key = (overlap(a, b), a.volume + b.volume, a.margin + b.margin)
                if key < bestKey {
                    bestKey = key
                    best = (order, k)
                }
            }
        }
        return (Array(best.order[..<best.k]), Array(best.order[best.k...]))
    }
}
