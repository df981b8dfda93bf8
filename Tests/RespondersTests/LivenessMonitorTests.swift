import Foundation
import Geodesy
import Testing
@testable import Responders

@Suite struct LivenessMonitorTests {
    let alice = ResponderID(1), bob = ResponderID(2)

    /// Status changes happen at the deadlines themselves: 90 s and 180 s on duty, 30 s and 60 s
    /// on a mission, counted from the fix's own time.
    @Test func transitionsHappenExactlyAtTheThresholds() {
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        monitor.register(alice)
        #expect(monitor.status(of: alice) == .unknown)
        monitor.recordFix(alice, time: 1000, duty: .onDuty, now: 1002, into: &events)
        monitor.recordFix(bob, time: 1000, duty: .onMission, now: 1001, into: &events)
        monitor.advance(to: 1_000_000, into: &events)
        #expect(
            events == [
                LivenessTransition(responder: alice, from: .unknown, to: .online, time: 1002),
                LivenessTransition(responder: bob, from: .unknown, to: .online, time: 1001),
                LivenessTransition(responder: bob, from: .online, to: .degraded, time: 1030),
                LivenessTransition(responder: bob, from: .degraded, to: .offline, time: 1060),
                LivenessTransition(responder: alice, from: .online, to: .degraded, time: 1090),
                LivenessTransition(responder: alice, from: .degraded, to: .offline, time: 1180)
            ])
        #expect(monitor.count(of: .offline) == 2)
        #expect(monitor.nextDeadline == nil)
    }

    @Test func aFreshFixBringsBackOnlineAndAnOldOneChangesNothing() {
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        monitor.recordFix(alice, time: 0, duty: .onDuty, now: 0, into: &events)
        monitor.advance(to: 200, into: &events)
        #expect(monitor.status(of: alice) == .offline)
        events.removeAll()
        // An old copy (time 0 again) and an older fix: ignored.
        #expect(!monitor.recordFix(alice, time: 0, duty: .onDuty, now: 201, into: &events))
        #expect(!monitor.recordFix(alice, time: -50, duty: .onMission, now: 202, into: &events))
        #expect(events.isEmpty && monitor.status(of: alice) == .offline && monitor.duty(of: alice) == .onDuty)
        // A newer fix that is already 190 s old when it arrives: still offline.
        #expect(monitor.recordFix(alice, time: 10, duty: .onDuty, now: 200, into: &events))
        #expect(events.isEmpty && monitor.status(of: alice) == .offline)
        // A newer fix 100 s old: degraded, offline at 280.
        monitor.recordFix(alice, time: 100, duty: .onDuty, now: 205, into: &events)
        #expect(events == [LivenessTransition(responder: alice, from: .offline, to: .degraded, time: 205)])
        monitor.recordFix(alice, time: 210, duty: .onDuty, now: 210, into: &events)
        monitor.advance(to: 299.999, into: &events)
        #expect(events.last == LivenessTransition(responder: alice, from: .degraded, to: .online, time: 210))
        monitor.advance(to: 300, into: &events)
        #expect(events.last == LivenessTransition(responder: alice, from: .online, to: .degraded, time: 300))
    }

    @Test func aPhoneClockAheadCannotKeepAResponderOnline() {
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        monitor.recordFix(alice, time: 10_000, duty: .onDuty, now: 100, into: &events)  // clamped to 100
        monitor.advance(to: 280, into: &events)
        #expect(monitor.status(of: alice) == .offline)
        #expect(monitor.lastFixTime(of: alice) == 100)
    }

    @Test func nanZeroAndHugeTimes() {
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        #expect(!monitor.recordFix(alice, time: .nan, duty: .onDuty, now: 0, into: &events))
        #expect(monitor.status(of: alice) == .unknown && events.isEmpty)
        #expect(monitor.recordFix(alice, time: 0, duty: .onDuty, now: 0, into: &events))
        let epoch = 1e12  // far future seconds: still exact to well under a millisecond
        #expect(monitor.recordFix(bob, time: epoch, duty: .onMission, now: epoch, into: &events))
        monitor.advance(to: epoch + 60, into: &events)
        #expect(events.suffix(2).map(\.time) == [epoch + 30, epoch + 60])
        #expect(monitor.status(of: alice) == .offline)  // its deadlines passed long ago, in order
        #expect(events.filter { $0.responder == alice }.map(\.time) == [0, 90, 180])
    }

    @Test func offDutyOverridesAndLowPower() {
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        monitor.recordFix(alice, time: 0, duty: .offDuty, now: 0, into: &events)
        monitor.advance(to: 10_000, into: &events)
        #expect(monitor.status(of: alice) == .offDuty)
        #expect(monitor.nextDeadline == nil)
        monitor.recordFix(bob, time: 0, duty: .onDuty, powerMode: .lowPower, now: 0, into: &events)
        monitor.advance(to: 179, into: &events)
        #expect(monitor.status(of: bob) == .online)  // battery saver: 120 s interval, degraded at 180
        monitor.setExpectedInterval(20, for: bob, now: 179, into: &events)
        #expect(monitor.status(of: bob) == .offline)  // 179 s >= 3 x 20 s
        monitor.setExpectedInterval(nil, for: bob, now: 179, into: &events)
        #expect(monitor.status(of: bob) == .online)
        #expect(events.suffix(2).map(\.to) == [.offline, .online])
        monitor.setExpectedInterval(100, for: alice, now: 10_000, into: &events)  // off duty expects nothing
        #expect(monitor.status(of: alice) == .offDuty)
    }

    /// Seeded property: after any sequence of fixes and advances, every responder's status equals
    /// the status computed directly from the age of its newest fix, and every transition's time
    /// is a threshold crossing or an arrival.
    @Test(arguments: [UInt64(5), 6, 7])
    func agreesWithADirectComputation(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var monitor = LivenessMonitor()
        var events: [LivenessTransition] = []
        var newest: [ResponderID: (time: Double, duty: DutyState)] = [:]
        var now = 0.0
        for _ in 0..<20_000 {
            now += rng.nextUnit() * 3
            let k = Int(rng.next() % 40)  // ids below and far above the dense range
            let id = ResponderID(k < 20 ? k : Int(Int32.max) - k)
            if rng.nextUnit() < 0.6 {
                let age = rng.nextUnit() < 0.8 ? rng.nextUnit() * 20 : rng.nextUnit() * 300
                let duty: DutyState = rng.nextUnit() < 0.1 ? .offDuty : (rng.nextUnit() < 0.5 ? .onDuty : .onMission)
                let time = min((now - age).rounded(), now)
                if monitor.recordFix(id, time: time, duty: duty, now: now, into: &events) {
                    #expect(time > newest[id]?.time ?? -.infinity)
                    newest[id] = (time, duty)
                } else {
                    #expect(time <= newest[id]!.time, "seed \(seed)")
                }
            } else {
                monitor.advance(to: now, into: &events)
            }
        }
        monitor.advance(to: now, into: &events)
        for (id, latest) in newest {
            let expected =
                latest.duty == .offDuty
                ? LivenessStatus.offDuty
                : LivenessThresholds(duty: latest.duty).status(age: now - latest.time)
            #expect(monitor.status(of: id) == expected, "seed \(seed), \(id)")
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "seed \(seed): transitions out of time order")
        var counts: [LivenessStatus: Int] = [:]
        for id in monitor.responders { counts[monitor.status(of: id), default: 0] += 1 }
        for status in LivenessStatus.allCases { #expect(monitor.count(of: status) == counts[status, default: 0]) }
    }

    @Test func snapshotRestoresMidStreamWithIdenticalDecisions() throws {
        var rng = SplitMix64(seed: 9)
        var live = LivenessMonitor()
        var events: [LivenessTransition] = []
        var restored: LivenessMonitor?
        var restoredEvents: [LivenessTransition] = []
        var now = 0.0
        for step in 0..<4_000 {
            if step == 2_000 {
                let encoder = JSONEncoder(), decoder = JSONDecoder()
                encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
                decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
                restored = try decoder.decode(LivenessMonitor.self, from: encoder.encode(live))
                events.removeAll()
            }
            now += rng.nextUnit() * 4
            let id = ResponderID(Int(rng.next() % 25))
            let time = now - rng.nextUnit() * 100
            live.recordFix(id, time: time, duty: .onMission, now: now, into: &events)
            restored?.recordFix(id, time: time, duty: .onMission, now: now, into: &restoredEvents)
        }
        #expect(restoredEvents.count > 100)
        #expect(events == restoredEvents)
        for id in live.responders { #expect(live.status(of: id) == restored?.status(of: id)) }
    }
}
