import GeoCells
import Geodesy
import Geofencing
import SpatialIndex
import Workloads

extension PlanScoring {
    /// One true entry.
    public struct Entry: Hashable, Sendable {
        /// The fence entered.
        public var fence: Int32
        /// The first fix time with the truth inside, seconds.
        public var time: Double
        /// The fix time before it (the crossing lies between the two), seconds.
        public var previousFixTime: Double
        /// Whether the truth leaves the fence again within the brush time (missing it is no miss).
        public var optional: Bool
        /// The deepest the truth got inside the fence (radius minus distance, at fixes)
        /// before leaving it again, meters. An OS that needs the position `pass` meters inside
        /// cannot report an entry that never gets that deep.
        public var maxDepthMeters: Double
        /// When the truth leaves the fence again (the first fix outside), seconds; infinity if never.
        public var exitTime: Double = .infinity
        /// When the truth last left the fence before this entry (the first fix outside),
        /// seconds; -infinity if it had not been inside before.
        public var previousExitTime: Double = -.infinity
    }

    /// Fixes grouped per device, with the true entries of every device: computed once and
    /// shared by the policies scored on the same workload.
    public struct Truth: Sendable {
        /// Whether fence `id` contains `p`: its polygon for a polygon fence, else its circle.
        public func contains(_ id: Int32, _ p: UnitVector) -> Bool {
            outlines.contains(fences[positionByID[id]!], p)
        }

        /// Fix rows of each device, in time order.
        public var rowsByDevice: [[Int]]
        /// True entries of each device, in time order (ties by fence id).
        public var entriesByDevice: [[Entry]]
        /// The true position of every fix, as a unit vector (same rows as the fix stream).
        public var truthVectors: [UnitVector]
        /// The fences, in the order given.
        public var fences: [Fence]
        /// Each fence id's position in ``fences``.
        public var positionByID: [Int32: Int]
        /// A packed R-tree over ``fences``.
        public var index: PackedRTree
        /// The polygon fences among ``fences`` (whose circles contain them).
        public var outlines = FenceOutlines()

        /// True entries over all devices.
        public var entryCount: Int { entriesByDevice.reduce(0) { $0 + $1.count } }
    }

    /// Groups the fixes by device and finds every true entry. O(fixes × fences near each).
    /// A polygon fence (`outlines`; its circle among `fences` contains it) is entered when its
    /// polygon starts to contain the truth (S2's exact containment), and its depth is the
    /// truth's distance inside the polygon's boundary.
    /// - Throws: `FixStreamError` when the stream has no truth columns, columns of different
    ///   lengths or a value out of range.
    public static func truth(
        fences: [Fence], fixes: FixStream, brushSeconds: Double = 60, outlines: FenceOutlines = FenceOutlines()
    ) throws(FixStreamError) -> Truth {
        try fixes.validate(requiringTruth: true)
        var deviceSlot: [Int32: Int] = [:]
        var rows: [[Int]] = []
        for k in 0..<fixes.count {
            let d = fixes.device[k]
            let slot: Int
            if let s = deviceSlot[d] { slot = s } else { slot = rows.count; deviceSlot[d] = slot; rows.append([]) }
            rows[slot].append(k)
        }
        var vectors: [UnitVector] = []
        vectors.reserveCapacity(fixes.count)
        for k in 0..<fixes.count {
            vectors.append(LatLng(uncheckedLatitude: fixes.trueLatitude[k], longitude: fixes.trueLongitude[k]).unitVector)
        }
        let index = PackedRTree(fences)
        var positionByID: [Int32: Int] = [:]
        for (k, f) in fences.enumerated() { positionByID[f.id] = k }
        var entries: [[Entry]] = []
        var previous: [Int32] = [], current: [Int32] = []
        var transitions: [(fence: Int32, time: Double, previous: Double, entering: Bool)] = []
        var depth: [Double] = []  // per transition: deepest point of the stay it opens
        var openStay: [Int32: Int] = [:]  // fence -> index of its entry transition
        for deviceRows in rows {
            transitions.removeAll(keepingCapacity: true)
            depth.removeAll(keepingCapacity: true)
            openStay.removeAll(keepingCapacity: true)
            previous.removeAll(keepingCapacity: true)
            for (n, k) in deviceRows.enumerated() {
                _ = index.stab(vectors[k], into: &current)
                if !outlines.isEmpty {
                    current.removeAll { id in !(outlines.polygon(forID: id)?.contains(vectors[k]) ?? true) }
                }
                current.sort()
                if n > 0 {
                    // Merge the two sorted sets: ids only in `current` entered, only in `previous` left.
                    var i = 0, j = 0
                    while i < previous.count || j < current.count {
                        if j == current.count || (i < previous.count && previous[i] < current[j]) {
                            transitions.append((previous[i], fixes.time[k], fixes.time[deviceRows[n - 1]], false))
                            depth.append(0)
                            openStay[previous[i]] = nil
                            i += 1
                        } else if i == previous.count || current[j] < previous[i] {
                            transitions.append((current[j], fixes.time[k], fixes.time[deviceRows[n - 1]], true))
                            depth.append(0)
                            openStay[current[j]] = transitions.count - 1
                            j += 1
                        } else {
                            i += 1; j += 1
                        }
                    }
                }
                for id in current {
                    guard let open = openStay[id] else { continue }
                    let f = fences[positionByID[id]!]
                    let inside =
                        outlines.polygon(forID: id).map { -$0.signedBoundaryDistanceMeters(to: vectors[k]) }
                        ?? f.radiusMeters - distance(vectors[k], f.centerVector)
                    depth[open] = max(depth[open], inside)
                }
                swap(&previous, &current)
            }
            // An entry is optional when the same fence is left within brushSeconds.
            var nextExit: [Int32: Double] = [:]
            var deviceEntries: [Entry] = []
            for (n, tr) in transitions.enumerated().reversed() {
                if tr.entering {
                    let optional = nextExit[tr.fence].map { $0 - tr.time <= brushSeconds } ?? false
                    deviceEntries.append(
                        Entry(
                            fence: tr.fence, time: tr.time, previousFixTime: tr.previous, optional: optional,
                            maxDepthMeters: depth[n], exitTime: nextExit[tr.fence] ?? .infinity))
                } else {
                    nextExit[tr.fence] = tr.time
                }
            }
            deviceEntries.reverse()
            var lastExit: [Int32: Double] = [:]
            var e = 0
            for tr in transitions {
                if tr.entering {
                    while e < deviceEntries.count, deviceEntries[e].fence != tr.fence || deviceEntries[e].time != tr.time { e += 1 }
                    if e < deviceEntries.count, let x = lastExit[tr.fence] { deviceEntries[e].previousExitTime = x }
                } else {
                    lastExit[tr.fence] = tr.time
                }
            }
            entries.append(deviceEntries)
        }
        return Truth(
            rowsByDevice: rows, entriesByDevice: entries, truthVectors: vectors, fences: fences,
            positionByID: positionByID, index: index, outlines: outlines)
    }
}
