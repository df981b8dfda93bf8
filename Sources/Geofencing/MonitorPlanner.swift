import Geodesy
import SpatialIndex

/// Chooses which few regions a phone hands to the OS, which watches at most `capacity` of them
/// (iOS 20, Android 100), so that no fence entry or exit goes unnoticed.
///
/// Input: the device's location (with an optional uncertainty and speed), the candidate fences
/// (all tiers of all active tasks, each with a priority) and the regions registered now.
/// Output (``Plan``): up to `capacity - 1` fence regions, one *refresh region* (a circle around
/// the device whose exit must trigger the next plan) and the ``RegionDiff`` from what is
/// registered, so an app reconciles on launch without re-registering everything.
///
/// ## The guarantee, and how it is kept
/// Write `B(F) = |d(p, c_F) - r_F|` for the great-circle distance from the refresh center `p`
/// to the boundary circle of fence F (center `c_F`, radius `r_F`; outside fences and fences the
/// device is inside alike). The refresh center is the device's location, or with lead (below)
/// a point ahead of it. The planner monitors the `capacity - 1` fences of smallest `B`
/// and sets the refresh radius to
///
///     ρ = min(maximumRefreshRadius, B(first unmonitored) - m),   m = safetyMargin + speed × lateDelivery.
///
/// Distance to a circle is 1-Lipschitz: for any point q, `dist(q, ∂F) >= B(F) - d(p, q)`. So
/// while the device stays inside the refresh circle (`d(p, q) <= ρ`) it is at least `m` from the
/// boundary of every unmonitored fence: with an ideal OS it cannot reach such a boundary
/// without first leaving the refresh region (which triggers the next plan) or crossing the
/// boundary of a monitored fence (which the OS reports). The margin `m` covers a real OS that
/// reports the refresh exit only once the device is some way past it, and late delivery.
///
/// The refresh radius is never below the OS minimum region radius, nor below the location
/// uncertainty plus the lead (so that the device's true position is inside the refresh
/// circle), nor below the optional floors (``Configuration/minimumRefreshRadiusMeters``,
/// ``Configuration/minimumRefreshSeconds`` × speed). When more than
/// `capacity - 1` boundaries lie within that minimum plus `m` ("crowded"), no plan can keep the
/// guarantee: the planner then gives the slots to the crowded fences by priority (then
/// boundary distance, then id; or nearest boundary first with ``Configuration/CrowdedOrder/boundary``),
/// uses the minimum refresh radius, sets
/// ``Plan/isGuaranteed`` to false and lists the fences left out in ``Plan/unguardedFenceIDs``.
/// Otherwise priority only breaks ties in boundary distance: monitoring a farther fence instead
/// of a nearer one could only shrink the refresh region.
///
/// ## Speed horizons: lead, speed floor and the unguarded budget (on by default)
/// Replans per hour grow with speed over refresh radius. With a speed and a heading (from the
/// app's last fixes), the default configuration centers the refresh circle 240 s of travel
/// ahead of the device (``Configuration/leadSeconds``) and makes its radius at least 240 s of
/// travel (``Configuration/minimumRefreshSeconds``), but never so large that more than 30
/// fences with a boundary inside the circle go unmonitored
/// (``Configuration/maximumUnguardedFences``): when they would, both horizons are shortened
/// step by step (down to none). So a driving device replans every few minutes in open
/// country and more often where fences crowd. Such a plan keeps the guarantee when the
/// natural radius (the first unmonitored boundary from the center, minus the margin) reaches
/// the floor; otherwise it says so (``Plan/isGuaranteed`` false, ``Plan/unguardedFenceIDs``
/// listing the fences within the circle that it leaves out), and the app's own check at
/// every wake-up (below) catches entries into those. Precisely: the guarantee holds for every
/// plan whose ``Plan/isGuaranteed`` is true, and always for a device given speed 0 (or no
/// heading and speed 0) outside crowded places, exactly as without these settings. Setting
/// the floor and the lead to nil restores the plain planner (guaranteed wherever the cap
/// allows; measured at cap 20 on the 10k-POI workload: 5.2 replans per device-hour against 3.1).
///
/// ## Catch-up
/// A real OS reports a refresh exit late (after the device is some way past it, plus a
/// delivery delay, plus the wait for a fresh fix), and a fence may be entered in between. When
/// the caller passes the previous plan's location, fences that contain the new location, did
/// not contain the previous one and are not registered ("entered unseen") take slots first
/// (nearest boundary first, at most ``Configuration/catchUpSlots``): registering them makes an
/// OS that reports the initial state of new regions announce the entry. The guarantee is then
/// computed over the remaining slots, exactly as above.
///
/// ## Concentric rings and wake-ups
/// With ``Configuration/shieldsNestedRings`` (off by default) a ring that cannot be reached
/// without first crossing a concentric ring of the same place gets no slot; the guarantee then
/// needs the app to plan again on every crossing a monitored fence reports. Either way an app
/// should check its own fix against its fences at every wake-up (any OS event): entries into
/// fences the cap left out are then caught while the device is still inside them.
///
/// Fences smaller than the OS minimum radius are registered enlarged to it (iOS does so
/// anyway); the enlarged circle contains the fence, so its enter still comes first.
///
/// Representation: the candidates in an array and a `PackedRTree` over them (ids = array
/// positions). A plan costs one stabbing query and one k-nearest query by edge distance:
/// every fence the device is inside plus the `capacity` nearest outside ones by edge distance
/// contain the `capacity` smallest `B`, because outside a fence `B` equals the edge distance.
///
/// Immutable and `Sendable`; plans are deterministic (same input, same plan).
public struct MonitorPlanner: Sendable {
    /// The settings this planner plans with.
    public let configuration: Configuration
    /// The candidate fences, in the order given.
    public let candidates: [Candidate]
    @usableFromInline let centers: [UnitVector]
    @usableFromInline let index: PackedRTree
    @usableFromInline let positionByID: [Int32: Int32]
    /// Per candidate position: the position of the next larger and next smaller candidate with
    /// exactly the same center (a concentric ring of the same place), -1 when there is none.
    /// Used by ring shielding (see the type's documentation).
    @usableFromInline let nextLargerRing: [Int32]
    @usableFromInline let nextSmallerRing: [Int32]

    /// Builds a planner over `candidates`.
    /// - Throws: ``Error`` for a bad configuration, a negative or duplicate id, an invalid
    ///   center or a radius that is not finite and > 0 (the first bad candidate is named).
    public init(candidates: [Candidate], configuration: Configuration) throws(MonitorPlanner.Error) {
        try configuration.validate()
        var fences: [Fence] = []
        var centers: [UnitVector] = []
        var positionByID: [Int32: Int32] = [:]
        fences.reserveCapacity(candidates.count)
        centers.reserveCapacity(candidates.count)
        for (k, c) in candidates.enumerated() {
            guard c.id >= 0 else { throw .negativeCandidateID(c.id) }
            guard c.radiusMeters.isFinite, c.radiusMeters > 0 else { throw .invalidCandidateRadius(id: c.id, c.radiusMeters) }
            guard let center = try? LatLng(latitude: c.latitude, longitude: c.longitude) else {
                throw .invalidCandidateCenter(id: c.id)
            }
            guard positionByID.updateValue(Int32(k), forKey: c.id) == nil else { throw .duplicateCandidateID(c.id) }
            guard let fence = try? Fence(id: Int32(k), center: center, radiusMeters: c.radiusMeters) else {
                throw .invalidCandidateRadius(id: c.id, c.radiusMeters)
            }
            fences.append(fence)
            centers.append(center.unitVector)
        }
        self.configuration = configuration
        self.candidates = candidates
        self.centers = centers
        self.index = PackedRTree(fences)
        self.positionByID = positionByID
        // Concentric rings: candidates with bit-identical centers, grouped by center.
        var larger = [Int32](repeating: -1, count: candidates.count)
        var smaller = [Int32](repeating: -1, count: candidates.count)
        var groups: [LatLngKey: [Int]] = [:]
        for (k, c) in candidates.enumerated() { groups[LatLngKey(c.latitude, c.longitude), default: []].append(k) }
        for (_, members) in groups where members.count > 1 {
            for k in members {
                let r = candidates[k].radiusMeters
                for j in members {
                    let rj = candidates[j].radiusMeters
                    if rj > r, larger[k] < 0 || rj < candidates[Int(larger[k])].radiusMeters { larger[k] = Int32(j) }
                    if rj < r, smaller[k] < 0 || rj > candidates[Int(smaller[k])].radiusMeters { smaller[k] = Int32(j) }
                }
            }
        }
        self.nextLargerRing = larger
        self.nextSmallerRing = smaller
    }

    /// A center as a hashable key (bit patterns of latitude and longitude).
    struct LatLngKey: Hashable {
        let lat: UInt64, lon: UInt64
        init(_ lat: Double, _ lon: Double) { self.lat = lat.bitPattern; self.lon = lon.bitPattern }
    }

    /// Whether the ring at `position`, whose edge is `edge` meters from the device (negative
    /// inside), is shielded by a concentric ring of the same place: a device whose true
    /// position is within `uncertainty` of the plan location cannot reach its boundary without
    /// first crossing the boundary of a ring between them.
    @inlinable
    func isShielded(position k: Int, edge: Double, uncertainty: Double) -> Bool {
        guard configuration.shieldsNestedRings else { return false }
        let d = candidates[k].radiusMeters + edge  // distance from the device to the center
        // Outside: a larger ring, still clearly outside, lies between the device and this one.
        if edge > uncertainty, nextLargerRing[k] >= 0, candidates[Int(nextLargerRing[k])].radiusMeters < d - uncertainty { return true }
        // Inside: a smaller ring, still clearly containing the device, lies in between.
        if edge < -uncertainty, nextSmallerRing[k] >= 0, candidates[Int(nextSmallerRing[k])].radiusMeters > d + uncertainty { return true }
        return false
    }

    /// The slots, refresh radius, nearest unmonitored boundary and unguarded fences for the
    /// fences `ranked` (positions with boundary distances, any order); see the type's
    /// documentation.
    func choose(
        _ ranked: [(position: Int, boundary: Double)], freeSlots: Int, crowdedLimit: Double,
        minimumRefresh: Double, margin: Double
    )
        -> (chosen: [(position: Int, boundary: Double)], refresh: Double, nearest: Double, unguarded: [Int32])
    {
        var ranked = ranked
        ranked.sort { a, b in
            if a.boundary != b.boundary { return a.boundary < b.boundary }
            let pa = candidates[a.position].priority, pb = candidates[b.position].priority
            if pa != pb { return pa > pb }
            return candidates[a.position].id < candidates[b.position].id
        }
        let crowdedCount = ranked.prefix { $0.boundary < crowdedLimit }.count
        if crowdedCount <= freeSlots {
            let nearest = ranked.count > freeSlots ? ranked[freeSlots].boundary : .infinity
            let refresh = min(configuration.maximumRefreshRadiusMeters, max(minimumRefresh, nearest - margin))
            return (Array(ranked.prefix(freeSlots)), refresh, nearest, [])
        }
        var crowded = Array(ranked.prefix(crowdedCount))
        if configuration.crowdedOrder == .priority {
            crowded.sort { a, b in
                let pa = candidates[a.position].priority, pb = candidates[b.position].priority
                if pa != pb { return pa > pb }
                if a.boundary != b.boundary { return a.boundary < b.boundary }
                return candidates[a.position].id < candidates[b.position].id
            }
        }
        return (
            Array(crowded.prefix(freeSlots)), minimumRefresh, crowded.dropFirst(freeSlots).map(\.boundary).min() ?? .infinity,
            crowded.dropFirst(freeSlots).map { candidates[$0.position].id }.sorted()
        )
    }

    /// Number of fence slots: the cap minus the refresh region.
    public var fenceSlots: Int { configuration.capacity - 1 }

    /// The candidate with this id, or nil.
    public func candidate(id: Int32) -> Candidate? {
        positionByID[id].map { candidates[Int($0)] }
    }

    /// Distance in meters from `p` to the boundary circle of candidate `id` (`|d - r|`), or nil
    /// for an unknown id. Sphere of radius 6,371,008.8 m.
    public func boundaryDistance(from p: LatLng, toFence id: Int32) -> Double? {
        guard let k = positionByID[id] else { return nil }
        return abs(distance(p.unitVector, centers[Int(k)]) - candidates[Int(k)].radiusMeters)
    }

    /// Plans from raw degrees.
    /// - Throws: ``Error/invalidLocation(latitude:longitude:)`` for NaN, infinite or
    ///   out-of-range coordinates, and the errors of `plan(at:uncertaintyMeters:speedMetersPerSecond:currentlyMonitored:)`.
    public func plan(
        latitude: Double, longitude: Double, uncertaintyMeters: Double = 0,
        speedMetersPerSecond: Double = 0, headingDegrees: Double? = nil,
        currentlyMonitored: [Region] = []
    ) throws(MonitorPlanner.Error) -> Plan {
        guard let p = try? LatLng(latitude: latitude, longitude: longitude) else {
            throw .invalidLocation(latitude: latitude, longitude: longitude)
        }
        return try plan(
            at: p, uncertaintyMeters: uncertaintyMeters, speedMetersPerSecond: speedMetersPerSecond,
            headingDegrees: headingDegrees, currentlyMonitored: currentlyMonitored)
    }

    /// The plan for a device at `location`.
    /// - Parameters:
    ///   - location: where the device is (its latest fix).
    ///   - uncertaintyMeters: how far the true position may be from `location` (e.g. the fix's
    ///     reported accuracy); the refresh radius is at least this. Finite, >= 0.
    ///   - speedMetersPerSecond: the device's speed, scaling the late-delivery margin, the speed
    ///     floor and the lead. Finite, >= 0.
    ///   - headingDegrees: the device's direction of travel, degrees clockwise from north (e.g.
    ///     the initial bearing between its last two fixes); nil when unknown (no lead). Finite.
    ///   - currentlyMonitored: what the OS watches now; the plan's ``Plan/diff`` starts from it.
    ///     Fence ids that are not candidates are removed and reported in
    ///     ``Plan/unknownFenceIDs``.
    ///   - previousLocation: where the previous plan was made, enabling catch-up (see the type's
    ///     documentation); nil for none.
    /// - Throws: ``Error/invalidMotion(_:)`` for a negative or non-finite uncertainty or speed,
    ///   or a non-finite heading.
    public func plan(
        at location: LatLng, uncertaintyMeters: Double = 0, speedMetersPerSecond: Double = 0,
        headingDegrees: Double? = nil,
        currentlyMonitored: [Region] = [], previousLocation: LatLng? = nil
    ) throws(MonitorPlanner.Error) -> Plan {
        var plan = try plan(
            at: location, uncertaintyMeters: uncertaintyMeters, speedMetersPerSecond: speedMetersPerSecond,
            headingDegrees: headingDegrees, currentlyMonitored: currentlyMonitored,
            previousLocation: previousLocation, horizonScale: 1)
        if let budget = configuration.maximumUnguardedFences, plan.unguardedFenceIDs.count > budget {
            // Shorten the speed horizons (floor and lead) until the budget holds: a ladder of
            // about 0.7 per step, then none (at most 8 plans; halving steps left more replans).
            for scale in [0.75, 0.55, 0.4, 0.3, 0.2, 0.1, 0.0] {
                plan = try self.plan(
                    at: location, uncertaintyMeters: uncertaintyMeters, speedMetersPerSecond: speedMetersPerSecond,
                    headingDegrees: headingDegrees, currentlyMonitored: currentlyMonitored,
                    previousLocation: previousLocation, horizonScale: scale)
                if plan.unguardedFenceIDs.count <= budget { break }
            }
        }
        return plan
    }

    /// One plan with the speed horizons (floor and lead) scaled by `horizonScale` in [0, 1].
    func plan(
        at location: LatLng, uncertaintyMeters: Double, speedMetersPerSecond: Double, headingDegrees: Double?,
        currentlyMonitored: [Region], previousLocation: LatLng?, horizonScale: Double
    ) throws(MonitorPlanner.Error) -> Plan {
        guard uncertaintyMeters.isFinite, uncertaintyMeters >= 0 else {
            throw .invalidMotion("uncertainty must be a finite number of meters >= 0, got \(uncertaintyMeters)")
        }
        guard speedMetersPerSecond.isFinite, speedMetersPerSecond >= 0 else {
            throw .invalidMotion("speed must be a finite number of meters per second >= 0, got \(speedMetersPerSecond)")
        }
        if let h = headingDegrees, !h.isFinite {
            throw .invalidMotion("heading must be a finite number of degrees, got \(h)")
        }
        let config = configuration
        let slots = fenceSlots
        let margin = config.safetyMarginMeters + speedMetersPerSecond * config.lateDeliverySeconds
        let floor = max(
            config.minimumRegionRadiusMeters, config.minimumRefreshRadiusMeters ?? 0,
            horizonScale * speedMetersPerSecond * (config.minimumRefreshSeconds ?? 0))
        // Lead: the refresh circle is centered `lead` meters ahead along the heading, and its
        // radius is at least `lead + uncertainty`, so the device's true position is inside it.
        var lead = 0.0
        if headingDegrees != nil, let seconds = config.leadSeconds, speedMetersPerSecond >= config.minimumLeadSpeedMetersPerSecond {
            lead = max(0, min(horizonScale * speedMetersPerSecond * seconds, config.maximumRefreshRadiusMeters - uncertaintyMeters))
        }
        let center = lead > 0 ? destination(from: location, bearing: headingDegrees ?? 0, distance: lead) : location
        let reach = uncertaintyMeters + lead  // the refresh circle must contain this disc around `center`
        let minimumRefresh = min(max(floor, reach), config.maximumRefreshRadiusMeters)
        let crowdedLimit = minimumRefresh + margin
        let p = center.unitVector

        // Every fence containing p, plus the `slots + 1` nearest outside ones by edge distance
        // (2 extra absorb a boundary fence counted differently by the two queries), plus every
        // fence whose boundary is within the crowded limit.
        // Shielded rings do not count towards the `slots + 3`: the query widens until that many
        // unshielded outside fences are in (or every candidate is).
        var inside = 0
        index.forEachContaining(p) { _ in inside += 1 }
        var near: [FenceNeighbor] = []  // mutable: catch-up and shielded fences are taken out
        var want = inside + slots + 3
        while true {
            index.nearest(to: p, k: want, by: .edge, into: &near)
            guard near.count == want, config.shieldsNestedRings else { break }
            let open = near.reduce(0) { n, e in
                e.distanceMeters >= 0 && !isShielded(position: Int(e.id), edge: e.distanceMeters, uncertainty: reach) ? n + 1 : n
            }
            if open >= slots + 3 || want >= candidates.count { break }
            want = min(candidates.count, want * 2 + slots)
        }
        if let last = near.last, near.count == want, last.distanceMeters < crowdedLimit {
            index.nearest(to: p, k: Int.max, by: .edge, maxDistanceMeters: crowdedLimit, into: &near)
        }
        var ranked: [(position: Int, boundary: Double)] = near.map { (Int($0.id), abs($0.distanceMeters)) }
        // Catch-up: fences the device is inside now, was not inside at the previous plan, and
        // that are not registered: entered unseen between plans. Registering them lets an OS
        // that reports the initial state announce the entry (late, but within its window).
        var reserved: [(position: Int, boundary: Double)] = []
        if let previousLocation, config.catchUpSlots > 0 {
            let pv = previousLocation.unitVector
            var registered: Set<Int32> = []
            for r in currentlyMonitored { if case .fence(let id) = r.id { registered.insert(id) } }
            index.forEachContaining(location.unitVector) { id in
                let k = Int(id)
                if !registered.contains(candidates[k].id), pv.chord2(to: centers[k]) > Fence.chord2(forRadiusMeters: candidates[k].radiusMeters) {
                    reserved.append((k, abs(distance(p, centers[k]) - candidates[k].radiusMeters)))
                }
            }
            reserved.sort { $0.boundary < $1.boundary }
            reserved = Array(reserved.prefix(min(config.catchUpSlots, slots)))
            let taken = Set(reserved.map(\.position))
            near.removeAll { taken.contains(Int($0.id)) }
        }
        // Ring shielding (off by default): shielded rings get no slot and do not bound the
        // refresh radius; see ``Configuration/shieldsNestedRings`` for the app's side of it.
        let freeSlots = slots - reserved.count
        if config.shieldsNestedRings {
            near.removeAll { isShielded(position: Int($0.id), edge: $0.distanceMeters, uncertainty: reach) }
        }
        ranked = near.map { (Int($0.id), abs($0.distanceMeters)) }
        var (chosen, refreshRadius, nearestUnmonitored, unguarded) =
            choose(ranked, freeSlots: freeSlots, crowdedLimit: crowdedLimit, minimumRefresh: minimumRefresh, margin: margin)

        chosen = reserved + chosen
        let fenceRegions = chosen.map { entry -> Region in
            let c = candidates[entry.position]
            return Region(
                id: .fence(c.id), center: LatLng(uncheckedLatitude: c.latitude, longitude: c.longitude),
                radiusMeters: max(c.radiusMeters, config.minimumRegionRadiusMeters))
        }
        let refresh = Region(id: .refresh, center: center, radiusMeters: refreshRadius)
        var unknown: [Int32] = []
        for r in currentlyMonitored {
            if case .fence(let id) = r.id, positionByID[id] == nil { unknown.append(id) }
        }
        return Plan(
            fenceRegions: fenceRegions, refreshRegion: refresh, marginMeters: margin,
            nearestUnmonitoredBoundaryMeters: nearestUnmonitored, isGuaranteed: unguarded.isEmpty,
            unguardedFenceIDs: unguarded, unknownFenceIDs: Array(Set(unknown)).sorted(),
            diff: RegionDiff(from: currentlyMonitored, to: fenceRegions + [refresh]))
    }
}
