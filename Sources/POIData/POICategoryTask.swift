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

    /// One fence of the task with the POI it surrounds and its tier: 0 for the innermost ring of
    /// that POI, 1 for the next, ... (the numbering of the workload `fences.csv`, where tier 0 is
    /// the 1-mile ring of the default 1/3/5-mile rings).
    public struct TieredFence: Hashable, Sendable {
        /// The fence.
        public var fence: Geofence
        /// Index of the POI in the catalog.
        public var poi: Int
        /// 0 for the POI's innermost ring, then outwards.
        public var tier: Int
    }

    /// The task's fences numbered from `firstID`, in the task's order (per POI, rings as given
    /// by the settings: 5, 3, 1 miles by default), each with its POI and tier.
    /// - Throws: `GeofenceError` from `PlaceTask/fences(firstID:)` (e.g. no POI found).
    public func fences(firstID: Int32 = 0) throws(GeofenceError) -> [TieredFence] {
        let fences = try task.fences(firstID: firstID)
        let perPlace = fences.count / max(1, matches.count)  // every place gets the same tiers
        var out: [TieredFence] = []
        out.reserveCapacity(fences.count)
        for start in stride(from: 0, to: fences.count, by: max(1, perPlace)) {
            let group = fences[start..<min(start + perPlace, fences.count)]
            let radii = Array(Set(group.map(\.radiusMeters))).sorted()
            let poi = matches[start / max(1, perPlace)].poi
            for fence in group {
                out.append(TieredFence(fence: fence, poi: poi, tier: radii.firstIndex(of: fence.radiusMeters)!))
            }
        }
        return out
    }
}
