import Foundation
import Geodesy
import Testing
@testable import Geofencing

/// Random fences around (40.75, -73.99): radii 50 m to 3 km within ~15 km, so that a device is
/// inside some, near many, and small fences exercise the minimum region radius.
private func randomCandidates(_ n: Int, rng: inout SplitMix64) -> [MonitorPlanner.Candidate] {
    let origin = LatLng(uncheckedLatitude: 40.75, longitude: -73.99)
    return (0..<n).map { k in
        let c = destination(from: origin, bearing: rng.nextUnit() * 360, distance: rng.nextUnit() * 15_000)
        let r = 50 + rng.nextUnit() * rng.nextUnit() * 3_000  // skewed towards small fences
        return MonitorPlanner.Candidate(
            id: Int32(k * 3 + 1), latitude: c.latitude, longitude: c.longitude,
            radiusMeters: r, priority: Int(rng.next() % 5))
    }
}

private func randomPoint(near origin: LatLng, within meters: Double, rng: inout SplitMix64) -> LatLng {
    destination(from: origin, bearing: rng.nextUnit() * 360, distance: rng.nextUnit().squareRoot() * meters)
}

private func boundaryDistance(_ p: LatLng, _ c: MonitorPlanner.Candidate) -> Double {
    abs(haversineDistance(p, LatLng(uncheckedLatitude: c.latitude, longitude: c.longitude)) - c.radiusMeters)
}

private func isInside(_ p: LatLng, _ c: MonitorPlanner.Candidate) -> Bool {
    haversineDistance(p, LatLng(uncheckedLatitude: c.latitude, longitude: c.longitude)) <= c.radiusMeters
}

private func monitoredIDs(_ plan: MonitorPlanner.Plan) -> Set<Int32> {
    Set(plan.fenceRegions.compactMap { if case .fence(let id) = $0.id { return id } else { return nil } })
}

@Suite struct MonitorPlannerTests {
    /// The guarantee as a property, with the default configuration (speed floor and lead
    /// included): for every guaranteed plan, every point of the refresh circle is at least the
    /// margin away from every unmonitored boundary (checked by distance), and random points in
    /// the circle are inside exactly the unmonitored fences the device is inside (so none can
    /// be entered or left without leaving the refresh region). The circle always contains the
    /// device's uncertainty disc, also when it is centered ahead (lead). Plans that are not
    /// guaranteed list every fence they leave out.
    @Test(arguments: [1, 3, 20, 100])
    func unmonitoredBoundariesCannotBeReachedInsideTheRefreshRegion(capacity: Int) throws {
        let seed: UInt64 = 0x5EED_0000 + UInt64(capacity)
        var rng = SplitMix64(seed: seed)
        let candidates = randomCandidates(400, rng: &rng)
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: capacity))
        let origin = LatLng(uncheckedLatitude: 40.75, longitude: -73.99)
        var guaranteed = 0, insideSeen = 0, leads = 0
        for trial in 0..<60 {
            let p = randomPoint(near: origin, within: 18_000, rng: &rng)
            let speed = trial % 3 == 0 ? rng.nextUnit() * 20 : trial % 3 == 1 ? rng.nextUnit() * 4 : 0
            // A third of the trials know their heading (lead in play, from 2 m/s).
            let heading: Double? = trial % 3 == 1 ? rng.nextUnit() * 360 : nil
            let uncertainty = rng.nextUnit() * 50
            // Half the trials come from a previous plan 2 km away (catch-up in play).
            let previous = trial % 2 == 0 ? destination(from: p, bearing: rng.nextUnit() * 360, distance: 2_000) : nil
            let plan = try planner.plan(
                at: p, uncertaintyMeters: uncertainty, speedMetersPerSecond: speed,
                headingDegrees: heading, previousLocation: previous)
            let monitored = monitoredIDs(plan)
            #expect(plan.fenceRegions.count <= capacity - 1, "seed \(seed) trial \(trial)")
            #expect(plan.refreshRadiusMeters >= 100, "seed \(seed) trial \(trial)")
            let center = plan.refreshRegion.center
            let lead = haversineDistance(p, center)
            if heading != nil, speed >= 2 {
                // The default 240 s lead, or a step of the budget's ladder (0.75 ... 0.1, 0).
                let ladder = [1, 0.75, 0.55, 0.4, 0.3, 0.2, 0.1, 0].map { $0 * speed * 240 }
                #expect(ladder.contains { abs(lead - $0) < 1e-3 }, "seed \(seed) trial \(trial): lead \(lead)")
                if lead > 0 { leads += 1 }
                #expect(plan.unguardedFenceIDs.count <= 30 || lead == 0, "seed \(seed) trial \(trial)")
            } else {
                #expect(center == p, "seed \(seed) trial \(trial)")
            }
            #expect(lead + uncertainty <= plan.refreshRadiusMeters + 1e-6, "seed \(seed) trial \(trial)")
            let unmonitored = candidates.filter { !monitored.contains($0.id) }
            insideSeen += candidates.filter { isInside(p, $0) }.count
            if plan.isGuaranteed {
                guaranteed += 1
                #expect(plan.unguardedFenceIDs.isEmpty)
                for c in unmonitored {
                    // 1e-6 m: haversine and the planner's vector distance agree far better.
                    #expect(
                        boundaryDistance(center, c) >= plan.refreshRadiusMeters + plan.marginMeters - 1e-6,
                        "seed \(seed) trial \(trial) fence \(c.id)")
                }
                for _ in 0..<20 {
                    let q = randomPoint(near: center, within: plan.refreshRadiusMeters, rng: &rng)
                    for c in unmonitored where isInside(q, c) != isInside(p, c) {
                        Issue.record("seed \(seed) trial \(trial): fence \(c.id) changes state inside the refresh region")
                    }
                }
            } else {
                // Every fence within the crowded limit is monitored or listed as unguarded.
                let listed = monitored.union(plan.unguardedFenceIDs)
                for c in candidates where boundaryDistance(center, c) < plan.refreshRadiusMeters + plan.marginMeters - 1e-6 {
                    #expect(listed.contains(c.id), "seed \(seed) trial \(trial) fence \(c.id)")
                }
                #expect(!plan.unguardedFenceIDs.isEmpty)
            }
        }
        #expect(insideSeen > 0, "seed \(seed): no trial was inside a fence")
        #expect(leads > 5, "seed \(seed): only \(leads) trials with lead")
        if capacity >= 20 { #expect(guaranteed > 30, "seed \(seed): only \(guaranteed) of 60 plans guaranteed") }
    }

    /// Ring shielding on 1, 3 and 5-mile rings of random places: outside all rings of a place
    /// at most its outermost ring is monitored, and for guaranteed plans the shielded
    /// guarantee holds: a random point of the refresh circle changes the state of an
    /// unmonitored fence only if it also changes the state of a monitored ring of the same place
    /// (which the OS reports, and the app then plans again).
    @Test func shieldedRingsCannotBeReachedWithoutCrossingAMonitoredRing() throws {
        let seed: UInt64 = 0x5111_E1D
        var rng = SplitMix64(seed: seed)
        let origin = LatLng(uncheckedLatitude: 40.75, longitude: -73.99)
        var candidates: [MonitorPlanner.Candidate] = []
        for place in 0..<60 {
            let c = destination(from: origin, bearing: rng.nextUnit() * 360, distance: rng.nextUnit() * 40_000)
            for (tier, miles) in [1.0, 3.0, 5.0].enumerated() {
                candidates.append(
                    .init(
                        id: Int32(place * 3 + tier), latitude: c.latitude, longitude: c.longitude,
                        radiusMeters: miles * 1609.344, priority: 3 - tier))
            }
        }
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 20, shieldsNestedRings: true))
        var guaranteed = 0, outsideAll = 0
        for trial in 0..<50 {
            let p = randomPoint(near: origin, within: 45_000, rng: &rng)
            let plan = try planner.plan(at: p)
            let monitored = monitoredIDs(plan)
            #expect(plan.fenceRegions.count <= 19, "seed \(seed) trial \(trial)")
            for place in 0..<60 where !isInside(p, candidates[place * 3 + 2]) {
                outsideAll += 1
                #expect(
                    !monitored.contains(Int32(place * 3)) && !monitored.contains(Int32(place * 3 + 1)),
                    "seed \(seed) trial \(trial) place \(place): an inner ring took a slot")
            }
            guard plan.isGuaranteed else { continue }
            guaranteed += 1
            for _ in 0..<20 {
                let q = randomPoint(near: p, within: plan.refreshRadiusMeters, rng: &rng)
                for c in candidates where !monitored.contains(c.id) && isInside(q, c) != isInside(p, c) {
                    let place = Int(c.id) / 3
                    let crossed = (0..<3).contains { t in
                        let ring = candidates[place * 3 + t]
                        return monitored.contains(ring.id) && isInside(q, ring) != isInside(p, ring)
                    }
                    #expect(crossed, "seed \(seed) trial \(trial): fence \(c.id) reached without crossing a monitored ring")
                }
            }
        }
        #expect(guaranteed > 25 && outsideAll > 0, "seed \(seed): \(guaranteed) guaranteed")
        // Without shielding the same candidates give the plain plan (all rings compete).
        let plain = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 20))
        #expect(plain.configuration.shieldsNestedRings == false)
    }

    /// When the guarantee holds, the monitored set is exactly the fences of smallest boundary
    /// distance (brute force over all candidates), and the refresh radius is the next one minus
    /// the margin.
    @Test func monitorsTheNearestBoundariesAndSizesTheRefreshRegionFromTheNext() throws {
        let seed: UInt64 = 77
        var rng = SplitMix64(seed: seed)
        let candidates = randomCandidates(300, rng: &rng)
        let planner = try MonitorPlanner(
            candidates: candidates,
            configuration: .init(capacity: 20, safetyMarginMeters: 30, maximumRefreshRadiusMeters: 1e6))
        let origin = LatLng(uncheckedLatitude: 40.75, longitude: -73.99)
        var checked = 0
        for trial in 0..<40 {
            let p = randomPoint(near: origin, within: 20_000, rng: &rng)
            let plan = try planner.plan(at: p)
            guard plan.isGuaranteed else { continue }
            checked += 1
            let sorted = candidates.map { ($0.id, boundaryDistance(p, $0)) }.sorted { $0.1 < $1.1 }
            let expected = Set(sorted.prefix(19).map(\.0))
            #expect(monitoredIDs(plan) == expected, "seed \(seed) trial \(trial)")
            #expect(abs(plan.nearestUnmonitoredBoundaryMeters - sorted[19].1) < 1e-6, "seed \(seed) trial \(trial)")
            #expect(abs(plan.refreshRadiusMeters - (sorted[19].1 - 30)) < 1e-6, "seed \(seed) trial \(trial)")
        }
        #expect(checked > 20)
    }

    /// Inside fences count by their distance to the boundary from inside: a device at the
    /// center of a 1 km fence is 1 km from its boundary, and a device 10 m inside the edge of
    /// another must monitor it.
    @Test func fencesTheDeviceIsInsideAreGuardedFromInside() throws {
        let p = LatLng(uncheckedLatitude: 48.0, longitude: 2.0)
        let east = { (m: Double) in destination(from: p, bearing: 90, distance: m) }
        let c1 = east(0), c2 = east(-1_990)  // fence 2 reaches 10 m past p
        let candidates = [
            MonitorPlanner.Candidate(id: 1, latitude: c1.latitude, longitude: c1.longitude, radiusMeters: 1_000),
            MonitorPlanner.Candidate(id: 2, latitude: c2.latitude, longitude: c2.longitude, radiusMeters: 2_000)
        ]
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 2, safetyMarginMeters: 100))
        let plan = try planner.plan(at: p)
        #expect(monitoredIDs(plan) == [2])
        #expect(plan.isGuaranteed)
        #expect(abs(plan.refreshRadiusMeters - (1_000 - 100)) < 1e-3)
    }

    /// More boundaries within the minimum refresh radius plus margin than slots: no plan can
    /// keep the guarantee; the highest priorities win, the rest are listed.
    @Test func crowdedPlansGiveSlotsByPriorityAndListTheRest() throws {
        let p = LatLng(uncheckedLatitude: -33.9, longitude: 151.2)
        var candidates: [MonitorPlanner.Candidate] = []
        for k in 0..<6 {
            // Boundaries 20, 40, ... 120 m from p (all within 100 + 100 m).
            let c = destination(from: p, bearing: Double(k) * 60, distance: 500 + 20 * Double(k + 1))
            candidates.append(.init(id: Int32(k), latitude: c.latitude, longitude: c.longitude, radiusMeters: 500, priority: k))
        }
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 4, safetyMarginMeters: 100))
        let plan = try planner.plan(at: p)
        #expect(!plan.isGuaranteed)
        #expect(monitoredIDs(plan) == [5, 4, 3])
        #expect(plan.unguardedFenceIDs == [0, 1, 2])
        #expect(plan.refreshRadiusMeters == 100)
        #expect(abs(plan.nearestUnmonitoredBoundaryMeters - 20) < 1e-3)
    }

    @Test func crowdedOrderBoundaryGivesSlotsToTheNearestBoundaries() throws {
        let p = LatLng(uncheckedLatitude: -33.9, longitude: 151.2)
        var candidates: [MonitorPlanner.Candidate] = []
        for k in 0..<6 {
            let c = destination(from: p, bearing: Double(k) * 60, distance: 500 + 20 * Double(k + 1))
            candidates.append(.init(id: Int32(k), latitude: c.latitude, longitude: c.longitude, radiusMeters: 500, priority: k))
        }
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 4, safetyMarginMeters: 100, crowdedOrder: .boundary))
        let plan = try planner.plan(at: p)
        #expect(monitoredIDs(plan) == [0, 1, 2])
        #expect(plan.unguardedFenceIDs == [3, 4, 5])
    }

    /// A refresh-radius floor above the natural radius gives a larger refresh region and
    /// honestly reports the plan as not guaranteed, listing the fences it no longer guards.
    @Test func aRefreshFloorTradesTheGuaranteeForFewerReplans() throws {
        let p = LatLng(uncheckedLatitude: 10, longitude: 10)
        let c = destination(from: p, bearing: 0, distance: 2_000)
        let candidate = MonitorPlanner.Candidate(id: 4, latitude: c.latitude, longitude: c.longitude, radiusMeters: 500)
        let natural = try MonitorPlanner(candidates: [candidate], configuration: .init(capacity: 1, safetyMarginMeters: 100)).plan(at: p)
        #expect(natural.isGuaranteed && abs(natural.refreshRadiusMeters - 1_400) < 1e-3)
        let floored = try MonitorPlanner(
            candidates: [candidate],
            configuration: .init(capacity: 1, minimumRefreshRadiusMeters: 3_000)
        ).plan(at: p)
        #expect(floored.refreshRadiusMeters == 3_000)
        #expect(!floored.isGuaranteed && floored.unguardedFenceIDs == [4])
        #expect(throws: MonitorPlanner.Error.self) {
            try MonitorPlanner(candidates: [candidate], configuration: .init(capacity: 1, minimumRefreshRadiusMeters: -1))
        }
    }

    /// A fence entered between plans (inside now, not at the previous plan, not registered)
    /// takes a slot ahead of nearer boundaries; a registered one or one already containing the
    /// previous location does not; the limit is respected.
    @Test func catchUpRegistersFencesEnteredUnseen() throws {
        let p = LatLng(uncheckedLatitude: 30, longitude: 30)
        let previous = destination(from: p, bearing: 270, distance: 3_000)
        let big = destination(from: p, bearing: 90, distance: 1_000)  // contains p, not previous: entered
        let old = destination(from: p, bearing: 270, distance: 1_500)  // contains both: not new
        var candidates = [
            MonitorPlanner.Candidate(id: 1, latitude: big.latitude, longitude: big.longitude, radiusMeters: 2_500),
            MonitorPlanner.Candidate(id: 2, latitude: old.latitude, longitude: old.longitude, radiusMeters: 2_000)
        ]
        for k in 0..<4 {  // four small fences whose boundaries are nearer than fence 1's (1.5 km)
            let c = destination(from: p, bearing: Double(k) * 90 + 45, distance: 600)
            candidates.append(.init(id: Int32(10 + k), latitude: c.latitude, longitude: c.longitude, radiusMeters: 200))
        }
        let planner = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 3))
        #expect(!monitoredIDs(try planner.plan(at: p)).contains(1))
        let caught = try planner.plan(at: p, previousLocation: previous)
        #expect(caught.fenceRegions.first?.id == .fence(1))
        #expect(caught.fenceRegions.count == 2)
        let registered = [MonitorPlanner.Region(id: .fence(1), center: big, radiusMeters: 2_500)]
        #expect(try planner.plan(at: p, currentlyMonitored: registered, previousLocation: previous).fenceRegions.first?.id != .fence(1))
        let none = try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 3, catchUpSlots: 0))
        #expect(try none.plan(at: p, previousLocation: previous) == (try none.plan(at: p)))
        #expect(throws: MonitorPlanner.Error.self) {
            try MonitorPlanner(candidates: candidates, configuration: .init(capacity: 3, catchUpSlots: -1))
        }
    }

    @Test func respectsTheMinimumRegionRadiusAndTheUncertainty() throws {
        let p = LatLng(uncheckedLatitude: 10, longitude: 10)
        let c = destination(from: p, bearing: 0, distance: 5_000)
        let planner = try MonitorPlanner(
            candidates: [.init(id: 9, latitude: c.latitude, longitude: c.longitude, radiusMeters: 30)],
            configuration: .init(capacity: 20, minimumRegionRadiusMeters: 150))
        let plan = try planner.plan(at: p, uncertaintyMeters: 400)
        #expect(plan.fenceRegions.map(\.radiusMeters) == [150])  // enlarged as iOS would
        #expect(plan.refreshRadiusMeters == 50_000)  // nothing unmonitored: the cap
        let lone = try MonitorPlanner(
            candidates: [.init(id: 9, latitude: c.latitude, longitude: c.longitude, radiusMeters: 30)],
            configuration: .init(capacity: 1, safetyMarginMeters: 100))
        let refreshOnly = try lone.plan(at: p, uncertaintyMeters: 400)
        #expect(refreshOnly.fenceRegions.isEmpty)
        #expect(refreshOnly.isGuaranteed)
        #expect(abs(refreshOnly.refreshRadiusMeters - (5_000 - 30 - 100)) < 1e-3)
        let uncertain = try lone.plan(at: p, uncertaintyMeters: 4_900)
        #expect(uncertain.refreshRadiusMeters == 4_900)  // covers the uncertainty...
        #expect(!uncertain.isGuaranteed)  // ...at the cost of the guarantee
        #expect(uncertain.unguardedFenceIDs == [9])
    }

    /// The speed floor: a device moving at 15 m/s with a 100 s floor gets a refresh radius of
    /// at least 1.5 km, even where the nearest unmonitored boundary is closer (then the plan
    /// is not guaranteed and lists that fence); a parked device keeps the plain plan.
    @Test func speedFloorWidensTheRefreshRegionOfFastDevices() throws {
        let p = LatLng(uncheckedLatitude: 10, longitude: 10)
        let c = destination(from: p, bearing: 0, distance: 1_600)
        let planner = try MonitorPlanner(
            candidates: [.init(id: 1, latitude: c.latitude, longitude: c.longitude, radiusMeters: 1_000)],
            configuration: .init(capacity: 1, safetyMarginMeters: 100, minimumRefreshSeconds: 100))
        let parked = try planner.plan(at: p)
        #expect(abs(parked.refreshRadiusMeters - 500) < 1e-3)  // 600 m to the boundary - 100 m margin
        #expect(parked.isGuaranteed)
        let driving = try planner.plan(at: p, speedMetersPerSecond: 15)
        #expect(abs(driving.refreshRadiusMeters - 1_500) < 1e-3)
        #expect(!driving.isGuaranteed && driving.unguardedFenceIDs == [1])
        #expect(throws: MonitorPlanner.Error.self) {
            try MonitorPlanner(candidates: [], configuration: .init(capacity: 2, minimumRefreshSeconds: -1))
        }
    }

    /// Lead: with a heading and a speed of 2 m/s or more, the refresh circle is centered
    /// `speed × leadSeconds` ahead and the slots go to the boundaries nearest that center (the
    /// fence ahead instead of the nearer one behind); the circle still contains the device and
    /// its uncertainty. Slow devices, or ones with no heading, keep a circle centered on them.
    @Test func leadCentersTheRefreshRegionAheadOfAMovingDevice() throws {
        let p = LatLng(uncheckedLatitude: 10, longitude: 10)
        let ahead = destination(from: p, bearing: 0, distance: 2_100)  // boundary 2 km ahead
        let behind = destination(from: p, bearing: 180, distance: 1_600)  // boundary 1.5 km behind
        let planner = try MonitorPlanner(
            candidates: [
                .init(id: 1, latitude: ahead.latitude, longitude: ahead.longitude, radiusMeters: 100),
                .init(id: 2, latitude: behind.latitude, longitude: behind.longitude, radiusMeters: 100)
            ],
            configuration: .init(capacity: 2, minimumRefreshSeconds: nil, leadSeconds: 90))
        let parked = try planner.plan(at: p, uncertaintyMeters: 20, headingDegrees: 0)
        #expect(parked.refreshRegion.center == p && monitoredIDs(parked) == [2])
        let driving = try planner.plan(at: p, uncertaintyMeters: 20, speedMetersPerSecond: 10, headingDegrees: 0)
        let center = destination(from: p, bearing: 0, distance: 900)
        #expect(haversineDistance(driving.refreshRegion.center, center) < 1e-6)
        #expect(monitoredIDs(driving) == [1])
        #expect(driving.isGuaranteed)
        #expect(abs(driving.refreshRadiusMeters - 2_400) < 1e-3)  // to fence 2's boundary from the center
        let unknownHeading = try planner.plan(at: p, speedMetersPerSecond: 10)
        #expect(unknownHeading.refreshRegion.center == p)
        let walking = try planner.plan(at: p, speedMetersPerSecond: 1.5, headingDegrees: 0)
        #expect(walking.refreshRegion.center == p)  // below the 2 m/s the heading is trusted from
        // No fence slot: the radius still covers the lead plus the uncertainty, past fence 1's
        // boundary (200 m from the center 1.8 km ahead), so the plan says it is not guaranteed.
        let refreshOnly = try MonitorPlanner(
            candidates: planner.candidates,
            configuration: .init(capacity: 1, minimumRefreshSeconds: nil, leadSeconds: 90))
        let tight = try refreshOnly.plan(at: p, uncertaintyMeters: 20, speedMetersPerSecond: 20, headingDegrees: 0)
        #expect(abs(tight.refreshRadiusMeters - 1_820) < 1e-6)
        #expect(!tight.isGuaranteed && tight.unguardedFenceIDs == [1])
        #expect(throws: MonitorPlanner.Error.self) { try planner.plan(at: p, speedMetersPerSecond: 10, headingDegrees: .nan) }
        #expect(throws: MonitorPlanner.Error.self) {
            try MonitorPlanner(candidates: [], configuration: .init(capacity: 2, leadSeconds: -1))
        }
    }

    /// The unguarded budget: in a crowd of boundaries, a fast device's full horizons would
    /// leave more fences unmonitored inside the refresh circle than the budget allows, so
    /// they are shortened until they do not; without a budget they are not.
    @Test func unguardedBudgetShortensTheHorizonsWhereFencesCrowd() throws {
        let p = LatLng(uncheckedLatitude: 52, longitude: 13)
        var candidates: [MonitorPlanner.Candidate] = []
        for k in 0..<40 {  // small fences 300 m to 2.3 km away, all around
            let c = destination(from: p, bearing: Double(k) * 37, distance: 300 + Double(k) * 50)
            candidates.append(.init(id: Int32(k), latitude: c.latitude, longitude: c.longitude, radiusMeters: 100))
        }
        let budget = try MonitorPlanner(
            candidates: candidates,
            configuration: .init(
                capacity: 5, minimumRefreshSeconds: 200, leadSeconds: nil,
                maximumUnguardedFences: 6))
        let unlimited = try MonitorPlanner(
            candidates: candidates,
            configuration: .init(
                capacity: 5, minimumRefreshSeconds: 200, leadSeconds: nil,
                maximumUnguardedFences: nil))
        let full = try unlimited.plan(at: p, speedMetersPerSecond: 15)
        #expect(abs(full.refreshRadiusMeters - 3_000) < 1e-6 && full.unguardedFenceIDs.count > 6)
        let cut = try budget.plan(at: p, speedMetersPerSecond: 15)
        #expect(cut.unguardedFenceIDs.count <= 6)
        #expect(cut.refreshRadiusMeters < 3_000)
        #expect(cut.fenceRegions.count == 4)
        // A parked device is not affected.
        #expect(try budget.plan(at: p) == (try unlimited.plan(at: p)))
        #expect(throws: MonitorPlanner.Error.self) {
            try MonitorPlanner(candidates: [], configuration: .init(capacity: 2, maximumUnguardedFences: -1))
        }
    }

    @Test func speedWidensTheMargin() throws {
        let p = LatLng(uncheckedLatitude: 10, longitude: 10)
        let c = destination(from: p, bearing: 0, distance: 10_000)
        let planner = try MonitorPlanner(
            candidates: [.init(id: 1, latitude: c.latitude, longitude: c.longitude, radiusMeters: 1_000)],
            configuration: .init(capacity: 1, safetyMarginMeters: 100, lateDeliverySeconds: 60))
        let still = try planner.plan(at: p)
        let driving = try planner.plan(at: p, speedMetersPerSecond: 15)
        #expect(abs(still.refreshRadiusMeters - 8_900) < 1e-3)
        #expect(abs(driving.refreshRadiusMeters - (8_900 - 900)) < 1e-3)
        #expect(driving.marginMeters == 1_000)
    }

    @Test func diffReconcilesWithoutReregisteringAndDropsUnknownFences() throws {
        var rng = SplitMix64(seed: 5)
        let candidates = randomCandidates(200, rng: &rng)
        let planner = try MonitorPlanner(candidates: candidates, configuration: .iOS)
        let p = LatLng(uncheckedLatitude: 40.75, longitude: -73.99)
        let first = try planner.plan(at: p)
        #expect(first.diff.add.count == first.regions.count && first.diff.remove.isEmpty)
        // Launch reconciliation: the same plan again changes nothing.
        let again = try planner.plan(at: p, currentlyMonitored: first.regions)
        #expect(again.diff.isEmpty)
        // A small move keeps most fences; the diff applied gives exactly the new plan.
        let q = destination(from: p, bearing: 45, distance: 300)
        let stale = first.regions + [MonitorPlanner.Region(id: .fence(999_999), center: p, radiusMeters: 200)]
        let moved = try planner.plan(at: q, currentlyMonitored: stale)
        #expect(moved.unknownFenceIDs == [999_999])
        #expect(moved.diff.remove.contains(.fence(999_999)))
        #expect(moved.diff.applied(to: stale) == moved.regions.sorted { $0.id < $1.id })
        #expect(moved.diff.add.count < moved.regions.count, "a 300 m move re-registered everything")
        #expect(moved.diff.add.contains { $0.id == .refresh } && moved.diff.remove.contains(.refresh))
    }

    @Test func plansAreDeterministicAndCodable() throws {
        var rng = SplitMix64(seed: 11)
        let candidates = randomCandidates(150, rng: &rng)
        let a = try MonitorPlanner(candidates: candidates, configuration: .android)
        let b = try MonitorPlanner(candidates: candidates, configuration: .android)
        let p = LatLng(uncheckedLatitude: 40.76, longitude: -73.98)
        let plan = try a.plan(at: p)
        #expect(plan == (try b.plan(at: p)))
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(MonitorPlanner.Plan.self, from: data) == plan)
    }

    @Test func buildsFromTaskFencesWithTheirPriorities() throws {
        let home = try Place(id: "home", latitude: 51.5, longitude: -0.12)
        let fences = [
            try Geofence(id: 1, taskID: "t", place: home, kind: .approach(miles: 2), radiusMeters: 2 * 1609.344),
            try Geofence(id: 2, taskID: "t", place: home, kind: .arrival, radiusMeters: 150)
        ]
        let planner = try MonitorPlanner(fences: fences, configuration: .iOS)
        #expect(planner.candidate(id: 2)?.priority == GeofenceKind.arrival.defaultPriority)
        #expect(planner.candidate(id: 1)?.radiusMeters == 2 * 1609.344)
        let plan = try planner.plan(at: destination(from: home.center, bearing: 0, distance: 10_000))
        #expect(monitoredIDs(plan) == [1, 2])
        #expect(planner.boundaryDistance(from: home.center, toFence: 2).map { abs($0 - 150) < 1e-6 } == true)
        #expect(planner.boundaryDistance(from: home.center, toFence: 3) == nil)
    }

    @Test func regionIdentifiersRoundTrip() {
        for id in [MonitorPlanner.RegionID.refresh, .fence(0), .fence(Int32.max)] {
            #expect(MonitorPlanner.RegionID(identifier: id.identifier) == id)
        }
        for bad in ["", "fence:", "fence:-1", "fence:x", "refresh2", "fence:2147483648"] {
            #expect(MonitorPlanner.RegionID(identifier: bad) == nil, "\(bad)")
        }
    }

    @Test func badInputIsATypedError() throws {
        let ok = MonitorPlanner.Candidate(id: 1, latitude: 1, longitude: 1, radiusMeters: 100)
        func build(_ c: [MonitorPlanner.Candidate], _ config: MonitorPlanner.Configuration = .iOS) throws(MonitorPlanner.Error) {
            _ = try MonitorPlanner(candidates: c, configuration: config)
        }
        #expect(throws: MonitorPlanner.Error.invalidCandidateRadius(id: 2, -5)) {
            try build([ok, .init(id: 2, latitude: 1, longitude: 1, radiusMeters: -5)])
        }
        #expect(throws: MonitorPlanner.Error.self) { try build([.init(id: 2, latitude: 1, longitude: 1, radiusMeters: .nan)]) }
        #expect(throws: MonitorPlanner.Error.invalidCandidateCenter(id: 3)) {
            try build([.init(id: 3, latitude: .nan, longitude: 1, radiusMeters: 10)])
        }
        #expect(throws: MonitorPlanner.Error.invalidCandidateCenter(id: 3)) {
            try build([.init(id: 3, latitude: 91, longitude: 1, radiusMeters: 10)])
        }
        #expect(throws: MonitorPlanner.Error.duplicateCandidateID(1)) { try build([ok, ok]) }
        #expect(throws: MonitorPlanner.Error.negativeCandidateID(-4)) {
            try build([.init(id: -4, latitude: 1, longitude: 1, radiusMeters: 10)])
        }
        #expect(throws: MonitorPlanner.Error.self) { try build([ok], .init(capacity: 0)) }
        #expect(throws: MonitorPlanner.Error.self) { try build([ok], .init(capacity: 20, minimumRegionRadiusMeters: -1)) }
        #expect(throws: MonitorPlanner.Error.self) { try build([ok], .init(capacity: 20, safetyMarginMeters: .nan)) }
        #expect(throws: MonitorPlanner.Error.self) { try build([ok], .init(capacity: 20, maximumRefreshRadiusMeters: 10)) }

        let planner = try MonitorPlanner(candidates: [ok], configuration: .iOS)
        #expect(throws: MonitorPlanner.Error.invalidLocation(latitude: .infinity, longitude: 0)) {
            try planner.plan(latitude: .infinity, longitude: 0)
        }
        #expect(throws: MonitorPlanner.Error.self) { try planner.plan(latitude: .nan, longitude: 0) }
        #expect(throws: MonitorPlanner.Error.self) { try planner.plan(latitude: 0, longitude: 0, uncertaintyMeters: -1) }
        #expect(throws: MonitorPlanner.Error.self) { try planner.plan(latitude: 0, longitude: 0, speedMetersPerSecond: .nan) }
        #expect(try planner.plan(latitude: 1, longitude: 1.01).fenceRegions.count == 1)
    }
}

/// Configurations round-trip through JSON; absent optional settings are off, and every other
/// setting is required.
@Suite struct MonitorPlannerConfigurationCodingTests {
    @Test func roundTripAndOlderJSON() throws {
        var config = MonitorPlanner.Configuration(capacity: 20)
        config.leadSeconds = 120
        config.minimumLeadSpeedMetersPerSecond = 3
        let data = try JSONEncoder().encode(config)
        #expect(try JSONDecoder().decode(MonitorPlanner.Configuration.self, from: data) == config)

        let withoutOptionals = """
            {"capacity":20,"minimumRegionRadiusMeters":100,"safetyMarginMeters":100,"lateDeliverySeconds":0,
             "maximumRefreshRadiusMeters":50000,"crowdedOrder":"priority","catchUpSlots":5,
             "shieldsNestedRings":false,"minimumRefreshSeconds":90,"minimumLeadSpeedMetersPerSecond":2}
            """
        let decoded = try JSONDecoder().decode(MonitorPlanner.Configuration.self, from: Data(withoutOptionals.utf8))
        #expect(decoded.capacity == 20 && decoded.safetyMarginMeters == 100 && decoded.catchUpSlots == 5)
        #expect(decoded.minimumRefreshSeconds == 90 && decoded.leadSeconds == nil && decoded.maximumUnguardedFences == nil)
        #expect(decoded.minimumLeadSpeedMetersPerSecond == 2 && decoded.minimumRefreshRadiusMeters == nil)
        for required in ["\"shieldsNestedRings\":false,", ",\"minimumLeadSpeedMetersPerSecond\":2"] {
            let missing = withoutOptionals.replacingOccurrences(of: required, with: "")
            #expect(throws: DecodingError.self, "\(required)") {
                try JSONDecoder().decode(MonitorPlanner.Configuration.self, from: Data(missing.utf8))
            }
        }
        // A required setting missing is an error, not a silent default.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(MonitorPlanner.Configuration.self, from: Data(#"{"capacity":20}"#.utf8))
        }
    }
}
