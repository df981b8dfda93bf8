import Geodesy
import Geofencing

/// "Be reminded near a pharmacy": the POIs chosen by a category search, turned into a
/// Geofencing `PlaceTask` of kind `.poiCategory` (approach rings at 5, 3 and 1 miles per POI by
/// default, see `TierSettings/defaults(for:)`).
///
/// `matches[j]` is the POI behind `task.places[j]`.
public struct POICategoryTask: Hashable, Sendable {
    /// The category searched for.
    public let category: POICategory
    /// The POIs chosen, nearest first.
    public let matches: [POIMatch]
    /// The place task over those POIs.
    public let task: PlaceTask

    /// Searches `index` for the `k` POIs of `category` nearest to any of `locations` within
    /// `maxDistanceMeters` and makes them a task named `id`. With no match the task has no places
    /// (its ``fences(firstID:)`` then throws, as Geofencing does for an empty POI task).
    public init(
        id: String, category: POICategory, near locations: [LatLng], k: Int,
        maxDistanceMeters: Double = .infinity, in index: POIIndex, settings: TierSettings? = nil
    ) {
        let matches = index.nearest(category, toAnyOf: locations, k: k, maxDistanceMeters: maxDistanceMeters)
        self.category = category
        self.matches = matches
        task = PlaceTask(
            id: id, kind: .poiCategory, places: matches.map { index.catalog.place(at: $0.poi) },
            settings: settings)
    }

    /// One fence of the task with the POI it surrounds and its tier: 0 for that POI's
    /// innermost fence, counting outwards, where the arrival area (an outline, see
    /// ``fences(firstID:outlines:)``, or an arrival circle) comes before the approach rings and
    /// the rings follow by radius. With the default rings and no outline, tier 0 is the
    /// 1-mile ring (the numbering of the workload `fences.csv`).
    public struct TieredFence: Hashable, Sendable {
        /// The fence (for an outline, its minimum enclosing circle).
        public var fence: Geofence
        /// Index of the POI in the catalog.
        public var poi: Int
        /// 0 for the POI's innermost fence, then outwards.
        public var tier: Int
        /// Whether the fence is the POI's outline (its polygon is in the
        /// ``fences(firstID:outlines:)`` result's `outlines`).
        public var isOutline: Bool = false
    }

    /// The task's fences numbered from `firstID`, in the task's order (per POI, rings as given
    /// by the settings: 5, 3, 1 miles by default), each with its POI and tier. Every fence is a
    /// circle.
    /// - Throws: `GeofenceError` from `PlaceTask/fences(firstID:)` (e.g. no POI found).
    public func fences(firstID: Int32 = 0) throws(GeofenceError) -> [TieredFence] {
        try fences(firstID: firstID, outlines: POIOutlines()).fences
    }

    /// The task's fences when its POIs may have outlines: Geofencing's rule
    /// (`PlaceTask/fences(firstID:outlines:)`) makes the outline of a POI that has one its
    /// arrival fence, the polygon fence whose `Geofence` is the outline's minimum enclosing
    /// circle, beside its approach rings (circles around the POI's point); POIs without an
    /// outline keep the circle fences of ``fences(firstID:)``. Returns the fences and the
    /// outline fences' polygons by fence id, for `TransitionDetector`'s `outlines:`.
    /// - Throws: `GeofenceError` from `PlaceTask/fences(firstID:outlines:)`.
    public func fences(firstID: Int32 = 0, outlines: POIOutlines) throws(GeofenceError)
        -> (fences: [TieredFence], outlines: FenceOutlines)
    {
        let built = try task.fences(firstID: firstID, outlines: matches.map { outlines.outline(ofPOI: $0.poi) })
        let shaped = Set(built.outlines.ids)
        var out: [TieredFence] = []
        out.reserveCapacity(built.fences.count)
        var start = 0
        while start < built.fences.count {
            var end = start + 1
            while end < built.fences.count && built.places[end] == built.places[start] { end += 1 }
            let group = built.fences[start..<end]
            let keys = Array(Set(group.map(Self.tierKey))).sorted { ($0.ring ? 1 : 0, $0.radius) < ($1.ring ? 1 : 0, $1.radius) }
            let poi = matches[built.places[start]].poi
            for fence in group {
                let key = Self.tierKey(fence)
                out.append(
                    TieredFence(
                        fence: fence, poi: poi, tier: keys.firstIndex { $0 == key }!, isOutline: shaped.contains(fence.id)))
            }
            start = end
        }
        return (out, built.outlines)
    }

    /// What orders a POI's fences into tiers: the arrival area first, then rings by radius.
    static func tierKey(_ fence: Geofence) -> TierKey {
        if case .approach = fence.kind { return TierKey(ring: true, radius: fence.radiusMeters) }
        return TierKey(ring: false, radius: fence.radiusMeters)
    }

    struct TierKey: Hashable {
        var ring: Bool
        var radius: Double
    }
}
