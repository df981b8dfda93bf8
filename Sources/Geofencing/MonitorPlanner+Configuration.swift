extension MonitorPlanner {
    /// The OS limits and safety settings a plan respects. Meters and seconds.
    public struct Configuration: Hashable, Sendable, Codable {
        /// How many regions the OS lets the app monitor at once, the refresh region included
        /// (iOS 20, Android 100). At least 1; with 1 only the refresh region is monitored.
        public var capacity: Int
        /// The smallest region the OS honors; smaller fences are registered enlarged to it, and
        /// the refresh radius never goes below it. iOS enlarges small regions to about 100 m.
        public var minimumRegionRadiusMeters: Double
        /// Distance kept between the refresh circle and every unmonitored fence boundary, on top
        /// of the speed term (a real OS reports leaving the refresh region only once the device
        /// is some way past it). Default 0: an ideal OS needs none, and against the simulated OS
        /// (50 m past, 0-60 s late) a margin only shrank the refresh regions: measured on the
        /// 10k-POI workload at cap 20 without floors, 100 m cost 7 % more replans and 0.5 points
        /// of OS recall, because registering a fence reports its state, which catches a fence
        /// entered while the refresh exit was late.
        public var safetyMarginMeters: Double
        /// Seconds of late delivery to cover with the device's speed: the margin grows by
        /// `speed × lateDeliverySeconds`. 0 by default, because an OS that reports a region's
        /// initial state on registration catches a fence entered while a replan was late.
        public var lateDeliverySeconds: Double
        /// Floor of the refresh radius, meters; nil means the minimum region radius (the
        /// default, which keeps the guarantee wherever the cap allows). A larger floor trades
        /// the guarantee in dense areas for fewer replans: plans whose natural radius is below
        /// it are reported as not guaranteed, and an OS that reports the initial state of new
        /// regions still catches, at the next plan, a fence entered in between.
        public var minimumRefreshRadiusMeters: Double?
        /// Who gets the slots when the guarantee cannot be kept (see ``CrowdedOrder``).
        public var crowdedOrder: CrowdedOrder
        /// At most this many fence slots go to catch-up fences (entered unseen since the previous
        /// plan; see `MonitorPlanner/plan(at:uncertaintyMeters:speedMetersPerSecond:currentlyMonitored:previousLocation:)`).
        /// Default unlimited: measured on the 10k-POI workload at cap 20, every slot given to
        /// catch-up raised recall (70% with none, 84% with 15, 86% unlimited) at the same replan rate.
        public var catchUpSlots: Int
        /// Upper bound of the refresh radius, so a device far from every fence still replans
        /// every so often (and the OS region stays within what it accepts).
        public var maximumRefreshRadiusMeters: Double
        /// Ring shielding (default off). A candidate is *shielded* when its boundary cannot be
        /// reached without first crossing the boundary of a concentric candidate (same center,
        /// bit-identical degrees) lying between it and the device, even allowing for the
        /// location uncertainty: outside all rings of a place only its outermost ring is
        /// unshielded; between two rings, the two adjacent ones. Shielded candidates get no slot
        /// and do not bound the refresh radius, so the guarantee becomes: an unshielded
        /// unmonitored boundary cannot be reached inside the refresh region, and a shielded one
        /// not without first crossing a monitored ring. That keeps the guarantee only if the app
        /// plans again whenever a monitored fence reports a crossing.
        ///
        /// Measured on the 10k-POI workload (1, 3 and 5-mile rings), cap 20: with those
        /// fence-event replans, 20 replans per device-hour (against 5.6 without), because a
        /// device crosses ~34 ring boundaries inward per hour; without them recall drops. Keeping
        /// shielded rings as a bound on the refresh radius instead cannot help: a plan that
        /// would monitor a shielded ring also monitors the ring shielding it, whose unmonitored
        /// neighbor then caps the radius below the plain plan's.
        public var shieldsNestedRings: Bool
        /// Speed floor of the refresh radius, seconds (nil: none): the refresh radius is at
        /// least the distance the device covers in this time at its speed (capped by
        /// ``maximumRefreshRadiusMeters``). Replans per hour grow with speed over refresh radius,
        /// so this bounds them for fast devices while slow or parked ones keep the guarantee;
        /// a plan whose natural radius is below the floor is reported as not guaranteed.
        ///
        /// Default 240 s, with ``leadSeconds`` 240 s, both cut where fences crowd
        /// (``maximumUnguardedFences``).
        public var minimumRefreshSeconds: Double?

        /// Lead of the refresh circle, seconds (nil: none; default 240, cut where fences crowd:
        /// ``maximumUnguardedFences``). When the plan is given a
        /// heading and a speed of at least ``minimumLeadSpeedMetersPerSecond``, the refresh
        /// circle is centered `lead = speed × leadSeconds` meters ahead of the device (capped so
        /// that the radius stays within ``maximumRefreshRadiusMeters``) and its radius is at
        /// least `lead + uncertainty`, so the device's true position is inside it. A device that
        /// keeps its heading then travels up to twice as far before it leaves the circle, and
        /// the monitored fences are the ones around where it is going. Boundary distances,
        /// the choice of fences and the guarantee are all computed from that center, so the
        /// guarantee means the same as without lead; only the floor `lead + uncertainty` can
        /// make a plan not guaranteed (reported, as with the other floors). Measured (cap 20,
        /// speed floor 90 s, no budget, bench defaults): without lead 99.43 % system recall at
        /// 4.08 replans per device-hour, with 90 s 99.32 % at 3.15.
        public var leadSeconds: Double?
        /// Budget of the speed horizons (nil: none; default 30): when a plan with the full
        /// ``minimumRefreshSeconds`` and ``leadSeconds`` would leave more than this many fences
        /// unguarded (``Plan/unguardedFenceIDs``: unmonitored, boundary within the refresh
        /// circle plus the margin), both are shortened (to 0.75, 0.55, 0.4, 0.3, 0.2, 0.1 of
        /// themselves, then none) until it does not. Long horizons then cost nothing where
        /// fences are sparse and are cut where they crowd. Measured on the 10k-POI workload at
        /// cap 20 with 240 s horizons: 30 gives 84.2 % OS recall and 99.41 % system recall at
        /// 3.14 replans per device-hour, against 70.8 %, 99.32 % and 3.15 for 90 s horizons
        /// without a budget. 0 allows none: the plain planner wherever the cap allows.
        public var maximumUnguardedFences: Int?
        /// Slowest speed whose heading is trusted for the lead, meters per second (default 2:
        /// above walking pace, where the heading between two noisy fixes means little).
        public var minimumLeadSpeedMetersPerSecond: Double

        /// A configuration for an OS cap of `capacity` regions; every other setting as documented
        /// on its property. Checked by ``MonitorPlanner/init(candidates:configuration:)``.
        public init(
            capacity: Int, minimumRegionRadiusMeters: Double = 100, safetyMarginMeters: Double = 0,
            lateDeliverySeconds: Double = 0, maximumRefreshRadiusMeters: Double = 50_000,
            minimumRefreshRadiusMeters: Double? = nil, crowdedOrder: CrowdedOrder = .priority,
            catchUpSlots: Int = .max, shieldsNestedRings: Bool = false,
            minimumRefreshSeconds: Double? = 240, leadSeconds: Double? = 240,
            minimumLeadSpeedMetersPerSecond: Double = 2, maximumUnguardedFences: Int? = 30
        ) {
            self.maximumUnguardedFences = maximumUnguardedFences
            self.leadSeconds = leadSeconds
            self.minimumLeadSpeedMetersPerSecond = minimumLeadSpeedMetersPerSecond
            self.minimumRefreshSeconds = minimumRefreshSeconds
            self.shieldsNestedRings = shieldsNestedRings
            self.catchUpSlots = catchUpSlots
            self.crowdedOrder = crowdedOrder
            self.minimumRefreshRadiusMeters = minimumRefreshRadiusMeters
            self.capacity = capacity
            self.minimumRegionRadiusMeters = minimumRegionRadiusMeters
            self.safetyMarginMeters = safetyMarginMeters
            self.lateDeliverySeconds = lateDeliverySeconds
            self.maximumRefreshRadiusMeters = maximumRefreshRadiusMeters
        }

        /// How the fence slots are handed out among the crowded fences (those whose boundary is
        /// within the minimum refresh radius plus the margin) when they outnumber the slots.
        public enum CrowdedOrder: String, Hashable, Sendable, Codable, CaseIterable {
            /// Highest priority first, then nearest boundary: an arrival or trigger fence is
            /// never displaced by an approach ring.
            case priority
            /// Nearest boundary first (the one the device reaches soonest), priority breaking ties.
            case boundary
        }

        /// iOS: 20 regions per app.
        public static var iOS: Configuration { Configuration(capacity: 20) }
        /// Android: 100 geofences per app.
        public static var android: Configuration { Configuration(capacity: 100) }

        /// Throws ``MonitorPlanner/Error/invalidConfiguration(_:)`` naming the first bad field.
        public func validate() throws(MonitorPlanner.Error) {
            guard capacity >= 1 else { throw .invalidConfiguration("capacity must be >= 1, got \(capacity)") }
            guard minimumRegionRadiusMeters.isFinite, minimumRegionRadiusMeters > 0 else {
                throw .invalidConfiguration("minimumRegionRadiusMeters must be finite and > 0, got \(minimumRegionRadiusMeters)")
            }
            guard safetyMarginMeters.isFinite, safetyMarginMeters >= 0 else {
                throw .invalidConfiguration("safetyMarginMeters must be finite and >= 0, got \(safetyMarginMeters)")
            }
            guard lateDeliverySeconds.isFinite, lateDeliverySeconds >= 0 else {
                throw .invalidConfiguration("lateDeliverySeconds must be finite and >= 0, got \(lateDeliverySeconds)")
            }
            if let floor = minimumRefreshRadiusMeters, !(floor.isFinite && floor > 0 && floor <= maximumRefreshRadiusMeters) {
                throw .invalidConfiguration("minimumRefreshRadiusMeters must be finite, > 0 and <= maximumRefreshRadiusMeters, got \(floor)")
            }
            if let s = leadSeconds, !(s.isFinite && s >= 0) {
                throw .invalidConfiguration("leadSeconds must be finite and >= 0, got \(s)")
            }
            guard minimumLeadSpeedMetersPerSecond.isFinite, minimumLeadSpeedMetersPerSecond >= 0 else {
                throw .invalidConfiguration("minimumLeadSpeedMetersPerSecond must be finite and >= 0, got \(minimumLeadSpeedMetersPerSecond)")
            }
            if let s = minimumRefreshSeconds, !(s.isFinite && s >= 0) {
                throw .invalidConfiguration("minimumRefreshSeconds must be finite and >= 0, got \(s)")
            }
            if let k = maximumUnguardedFences, k < 0 {
                throw .invalidConfiguration("maximumUnguardedFences must be >= 0, got \(k)")
            }
            guard catchUpSlots >= 0 else { throw .invalidConfiguration("catchUpSlots must be >= 0, got \(catchUpSlots)") }
            guard maximumRefreshRadiusMeters.isFinite, maximumRefreshRadiusMeters >= minimumRegionRadiusMeters else {
                throw .invalidConfiguration(
                    "maximumRefreshRadiusMeters must be finite and >= minimumRegionRadiusMeters, got \(maximumRefreshRadiusMeters)")
            }
        }
    }
}

extension MonitorPlanner.Configuration {
    /// Decodes a configuration. Every setting is required (a missing key is a `DecodingError`
    /// naming it) except the optional ones (``minimumRefreshRadiusMeters``,
    /// ``minimumRefreshSeconds``, ``leadSeconds``, ``maximumUnguardedFences``), whose absence
    /// means nil (off): that is how they are encoded when off.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            capacity: try c.decode(Int.self, forKey: .capacity),
            minimumRegionRadiusMeters: try c.decode(Double.self, forKey: .minimumRegionRadiusMeters),
            safetyMarginMeters: try c.decode(Double.self, forKey: .safetyMarginMeters),
            lateDeliverySeconds: try c.decode(Double.self, forKey: .lateDeliverySeconds),
            maximumRefreshRadiusMeters: try c.decode(Double.self, forKey: .maximumRefreshRadiusMeters),
            minimumRefreshRadiusMeters: try c.decodeIfPresent(Double.self, forKey: .minimumRefreshRadiusMeters),
            crowdedOrder: try c.decode(CrowdedOrder.self, forKey: .crowdedOrder),
            catchUpSlots: try c.decode(Int.self, forKey: .catchUpSlots),
            shieldsNestedRings: try c.decode(Bool.self, forKey: .shieldsNestedRings),
            minimumRefreshSeconds: try c.decodeIfPresent(Double.self, forKey: .minimumRefreshSeconds),
            leadSeconds: try c.decodeIfPresent(Double.self, forKey: .leadSeconds),
            minimumLeadSpeedMetersPerSecond: try c.decode(Double.self, forKey: .minimumLeadSpeedMetersPerSecond),
            maximumUnguardedFences: try c.decodeIfPresent(Int.self, forKey: .maximumUnguardedFences))
    }
}
