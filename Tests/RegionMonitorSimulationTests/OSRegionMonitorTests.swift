import Geodesy
import Geofencing
import Testing
@testable import RegionMonitorSimulation

private let center = LatLng(uncheckedLatitude: 45, longitude: 7)
private func at(_ metersNorth: Double) -> UnitVector {
    destination(from: center, bearing: 0, distance: metersNorth).unitVector
}
private func fence(_ id: Int32, _ r: Double) -> MonitorPlanner.Region {
    MonitorPlanner.Region(id: .fence(id), center: center, radiusMeters: r)
}

@Suite struct OSRegionMonitorTests {
    /// Enter fires only once the truth is `pass` meters inside, exit once `pass` outside, each
    /// delivered after a delay in [0, maximumDelay].
    @Test func crossingsNeedThePassDistanceAndArriveLate() {
        var os = OSRegionMonitor(
            configuration: .init(
                capacity: 20, passDistanceMeters: 50, maximumDelaySeconds: 60,
                reportsInitialState: false), seed: 3)
        os.apply(RegionDiff(add: [fence(1, 1_000)]), at: 0, truth: at(2_000))
        var events: [OSRegionMonitor.Event] = []
        os.observe(truth: at(980), at: 10)  // 20 m inside: not yet
        os.deliver(before: 1_000, into: &events)
        #expect(events.isEmpty)
        os.observe(truth: at(940), at: 20)  // 60 m inside: enter
        os.observe(truth: at(1_030), at: 30)  // 30 m outside: no exit yet
        os.observe(truth: at(1_060), at: 40)  // 60 m outside: exit
        os.deliver(before: 1_000, into: &events)
        #expect(events.map(\.transition) == [.enter, .exit])
        #expect(events.map(\.detectedAt) == [20, 40])
        for e in events {
            #expect(e.deliveredAt >= e.detectedAt && e.deliveredAt <= e.detectedAt + 60)
            #expect(!e.isInitialState)
        }
    }

    @Test func initialStateIsReportedOnlyWhenConfigured() {
        for reports in [true, false] {
            var os = OSRegionMonitor(configuration: .init(capacity: 20, maximumDelaySeconds: 0, reportsInitialState: reports), seed: 1)
            os.apply(RegionDiff(add: [fence(1, 1_000), fence(2, 100)]), at: 5, truth: at(500))
            var events: [OSRegionMonitor.Event] = []
            os.deliver(before: 6, into: &events)
            if reports {
                #expect(events.map(\.region) == [.fence(1), .fence(2)])
                #expect(events.map(\.transition) == [.enter, .exit])
                #expect(events.allSatisfy { $0.isInitialState && $0.deliveredAt == 5 })
            } else {
                #expect(events.isEmpty)
            }
        }
    }

    @Test func capacityIsEnforcedAndSmallRegionsAreEnlarged() {
        var os = OSRegionMonitor(configuration: .init(capacity: 2, maximumDelaySeconds: 0, reportsInitialState: false), seed: 1)
        os.apply(RegionDiff(add: [fence(1, 10), fence(2, 10), fence(3, 10)]), at: 0, truth: at(500))
        #expect(os.registeredIDs == [.fence(1), .fence(2)])
        #expect(os.rejectedRegistrations == 1)
        var events: [OSRegionMonitor.Event] = []
        os.observe(truth: at(40), at: 1)  // inside the enlarged 100 m circle by 60 m
        os.deliver(before: 2, into: &events)
        #expect(events.count == 2 && events.allSatisfy { $0.transition == .enter })
    }

    @Test func eventsOfRemovedRegionsAreDropped() {
        var os = OSRegionMonitor(configuration: .init(capacity: 5, maximumDelaySeconds: 60, reportsInitialState: false), seed: 9)
        os.apply(RegionDiff(add: [fence(1, 1_000)]), at: 0, truth: at(2_000))
        os.observe(truth: at(0), at: 1)
        os.apply(RegionDiff(remove: [.fence(1)]), at: 1, truth: at(0))
        var events: [OSRegionMonitor.Event] = []
        os.deliver(before: .infinity, into: &events)
        #expect(events.isEmpty)
    }

    @Test func backwardsTimeAndNaNPositionsAreCountedSkips() {
        var os = OSRegionMonitor(configuration: .init(capacity: 5, maximumDelaySeconds: 0, reportsInitialState: false), seed: 1)
        os.apply(RegionDiff(add: [fence(1, 1_000)]), at: 100, truth: at(2_000))
        os.observe(truth: at(0), at: 50)
        os.observe(truth: UnitVector(x: .nan, y: 0, z: 1), at: 150)
        var events: [OSRegionMonitor.Event] = []
        os.deliver(before: .infinity, into: &events)
        #expect(events.isEmpty)
        #expect(os.skippedObservations == 2)
        os.observe(truth: at(0), at: 200)
        os.deliver(before: .infinity, into: &events)
        #expect(events.map(\.transition) == [.enter])
    }

    @Test func delaysAreSeededAndWithinBounds() {
        func delays(seed: UInt64) -> [Double] {
            var os = OSRegionMonitor(configuration: .init(capacity: 100, maximumDelaySeconds: 60), seed: seed)
            os.apply(RegionDiff(add: (0..<50).map { fence($0, 100 + Double($0)) }), at: 0, truth: at(0))
            var events: [OSRegionMonitor.Event] = []
            os.deliver(before: .infinity, into: &events)
            return events.map(\.deliveredAt).sorted()
        }
        let a = delays(seed: 4)
        #expect(a == delays(seed: 4))
        #expect(a != delays(seed: 5))
        #expect(a.count == 50 && a.allSatisfy { $0 >= 0 && $0 <= 60 })
        #expect(a.last! - a.first! > 30, "delays should spread over the range (seed 4)")
    }
}
