import Geodesy
import Geofencing
import Testing
@testable import DetectorScoring

/// ``FlapCount`` on hand-made event lists whose flaps and visits are counted by hand in each
/// case, and against a brute-force recount on seeded random lists.
@Suite struct FlapCountTests {
    func event(_ device: Int32, _ fence: Int32, _ kind: TransitionKind, _ t: Double) -> TransitionEvent {
        TransitionEvent(device: device, fence: fence, kind: kind, time: t)
    }

    @Test func emptyListCountsNothing() {
        let c = FlapCount([])
        #expect(c == FlapCount())
        #expect(c.events == 0 && c.visits == 0 && c.flaps == 0)
        #expect(c.flapsPerVisit == 0)
    }

    /// enter 0 (visit), exit 100, enter 130 (30 s: flap), exit 200, enter 500 (300 s: visit),
    /// a dwell (ignored): 5 events, 2 visits, 1 flap.
    @Test func handCountedSequence() {
        let events = [
            event(1, 7, .enter, 0), event(1, 7, .exit, 100), event(1, 7, .enter, 130),
            event(1, 7, .dwell, 140), event(1, 7, .exit, 200), event(1, 7, .enter, 500)
        ]
        let c = FlapCount(events)
        #expect(c.events == 5)
        #expect(c.visits == 2)
        #expect(c.flaps == 1)
        #expect(c.flapsPerVisit == 0.5)
    }

    /// The 60 s boundary is inclusive: re-entry exactly 60 s after the exit is a flap, 60.001 s
    /// after is a visit.
    @Test func reentryBoundaryIsInclusive() {
        #expect(FlapCount.reentrySeconds == 60)
        let at = FlapCount([event(1, 1, .exit, 1000), event(1, 1, .enter, 1060)])
        #expect(at.flaps == 1 && at.visits == 0)
        let after = FlapCount([event(1, 1, .exit, 1000), event(1, 1, .enter, 1060.001)])
        #expect(after.flaps == 0 && after.visits == 1)
        // Zero seconds (exit and enter at one instant, exit listed first) is a flap too.
        #expect(FlapCount([event(1, 1, .exit, 5), event(1, 1, .enter, 5)]).flaps == 1)
    }

    /// An exit of another fence or another device does not make an entry a flap.
    @Test func flapsArePerDeviceAndFence() {
        let events = [event(1, 1, .exit, 0), event(1, 2, .enter, 10), event(2, 1, .enter, 10), event(1, 1, .enter, 20)]
        let c = FlapCount(events)
        #expect(c.visits == 2 && c.flaps == 1)
    }

    /// The list's order does not matter: events are taken in time order.
    @Test func unorderedInputCountsAsOrdered() {
        let ordered = [event(3, 4, .enter, 0), event(3, 4, .exit, 50), event(3, 4, .enter, 90), event(3, 4, .exit, 95)]
        #expect(FlapCount(ordered.reversed()) == FlapCount(ordered))
        #expect(FlapCount(ordered).flaps == 1)
        // Huge times and a NaN time: a NaN difference is no flap (the comparison is false).
        let huge = FlapCount([event(0, 0, .exit, 1e300), event(0, 0, .enter, 1e300 + 1e285)])
        #expect(huge.flaps == 0 && huge.visits == 1)
        #expect(FlapCount([event(0, 0, .exit, .nan), event(0, 0, .enter, 1)]).visits == 1)
    }

    @Test func groupsByDeviceKind() {
        let events = [event(1, 0, .exit, 0), event(1, 0, .enter, 30), event(2, 0, .enter, 0), event(9, 0, .enter, 0)]
        let groups = FlapCount.byGroup(events, groupOfDevice: [1: "car", 2: "vessel", 3: "vessel", 4: "hand-held"])
        #expect(groups.map(\.group) == ["car", "hand-held", "vessel"])
        #expect(groups[0].count.flaps == 1 && groups[0].count.events == 2)
        #expect(groups[1].count == FlapCount())
        #expect(groups[2].count.visits == 1)
    }

    /// Seeded random lists against a direct recount: for each enter, scan back for the pair's
    /// latest earlier exit.
    @Test func matchesBruteForceOnRandomLists() {
        for seed in UInt64(1)...40 {
            var rng = SplitMix64(seed: seed)
            var events: [TransitionEvent] = []
            var t = 0.0
            for _ in 0..<Int(rng.next() % 60) {
                t += Double(rng.next() % 90)
                events.append(event(Int32(rng.next() % 3), Int32(rng.next() % 3), rng.next() % 2 == 0 ? .enter : .exit, t))
            }
            var flaps = 0, visits = 0
            for (k, e) in events.enumerated() where e.kind == .enter {
                let exit = events[..<k].last { $0.kind == .exit && $0.device == e.device && $0.fence == e.fence }
                if let exit, e.time - exit.time <= 60 { flaps += 1 } else { visits += 1 }
            }
            let c = FlapCount(events)
            #expect(c.flaps == flaps && c.visits == visits && c.events == events.count, "seed \(seed)")
        }
    }
}
