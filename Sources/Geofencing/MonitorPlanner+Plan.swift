import Geodesy

extension MonitorPlanner {
    /// One plan: the regions to monitor and how to get there from what is registered now.
    public struct Plan: Hashable, Sendable, Codable {
        /// The refresh region's center: where the plan was made, or with lead a point ahead of
        /// it along the heading (see ``MonitorPlanner``).
        public var location: LatLng { refreshRegion.center }
        /// The monitored fences, nearest boundary first (or, when crowded, by priority);
        /// radii enlarged to the OS minimum where needed. At most `capacity - 1`.
        public var fenceRegions: [Region]
        /// The circle around ``location`` whose exit must trigger the next plan.
        public var refreshRegion: Region
        /// Margin kept between the refresh circle and every unmonitored boundary, meters.
        public var marginMeters: Double
        /// Distance from ``location`` to the nearest boundary of an unmonitored fence, meters
        /// (`.infinity` when every candidate is monitored).
        public var nearestUnmonitoredBoundaryMeters: Double
        /// True when the guarantee holds: every unmonitored fence boundary is at least
        /// ``marginMeters`` outside the refresh circle. False only when more fence boundaries
        /// lie within `minimum refresh radius + margin` than the cap leaves slots for.
        public var isGuaranteed: Bool
        /// Unmonitored fences whose boundary lies within refresh radius + margin (empty when
        /// ``isGuaranteed``), ascending.
        public var unguardedFenceIDs: [Int32]
        /// Fence ids registered now (in the `currentlyMonitored` argument) that are not
        /// candidates: they are removed by ``diff`` and listed here, ascending.
        public var unknownFenceIDs: [Int32]
        /// From the currently monitored regions to ``regions``.
        public var diff: RegionDiff

        /// Every region of the plan: the fences, then the refresh region.
        public var regions: [Region] { fenceRegions + [refreshRegion] }
        /// Radius of the refresh region, meters.
        public var refreshRadiusMeters: Double { refreshRegion.radiusMeters }
    }
}
