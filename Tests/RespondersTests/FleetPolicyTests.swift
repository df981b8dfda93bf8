import Foundation
import Geodesy
import Testing
@testable import Responders

@Suite struct FleetPolicyTests {
    let alice = ResponderID(1), bob = ResponderID(2), carol = ResponderID(3)

    /// A fleet that expects a fix every 20 s on duty and calls it late at 40 s / 80 s.
    static let quick: FleetPolicy = {
        var p = FleetPolicy.standard
        p.onDuty = .init(
            profile: CollectionProfile(interval: 20, distance: 30), thresholds: LivenessThresholds(degradedAfter: 40, offlineAfter: 80))
        p.ackTimeout = 12
        p.initialBackoff = 2
        p.maximumBackoff = 10
        return p
    }()

    /// The standard policy is the memo's numbers, and the types that predate fleets read them.
    @Test func standardIsTheMemosNumbers() {
        let s = FleetPolicy.standard
        #expect(s.thresholds(duty: .onDuty, powerMode: .normal) == LivenessThresholds(degradedAfter: 90, offlineAfter: 180))
        #expect(s.thresholds(duty: .onMission, powerMode: .normal) == LivenessThresholds(degradedAfter: 30, offlineAfter: 60))
        #expect(s.thresholds(duty: .onMission, powerMode: .lowPower) == LivenessThresholds(degradedAfter: 180, offlineAfter: 360))
        #expect(s.thresholds(duty: .offDuty, powerMode: .normal).offlineAfter == .infinity)
        #expect(s.profile(duty: .onDuty, powerMode: .normal) == CollectionProfile(interval: 60, distance: 50))
        #expect(s.profile(duty: .offDuty, powerMode: .lowPower) == .none)
        #expect(s.ackTimeout == 30)
        #expect((0...8).map(s.backoff(afterFailures:)) == [0, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(s.backoff(afterFailures: Int.max) == 30)
        for duty in DutyState.allCases {
            for power in PowerMode.allCases {
                #expect(LivenessThresholds(duty: duty, powerMode: power) == s.thresholds(duty: duty, powerMode: power))
                #expect(CollectionProfile.forDuty(duty, powerMode: power) == s.profile(duty: duty, powerMode: power))
            }
        }
    }

    /// A fleet's responders turn DEGRADED and OFFLINE at the fleet's thresholds; the others at
    /// the default policy's; a per-responder interval still overrides both.
    @Test func eachResponderFollowsItsFleet() throws {
        let table = try FleetTable(fleets: [.init(name: "quick", policy: Self.quick, responders: [alice, carol])])
        var monitor = LivenessMonitor(fleets: table)
        var events: [LivenessTransition] = []
        monitor.recordFix(alice, time: 0, duty: .onDuty, now: 0, into: &events)
        monitor.recordFix(bob, time: 0, duty: .onDuty, now: 0, into: &events)
        monitor.setExpectedInterval(100, for: carol, now: 0, into: &events)
        monitor.recordFix(carol, time: 0, duty: .onDuty, now: 0, into: &events)
        monitor.advance(to: 1_000, into: &events)
        let offline = Dictionary(uniqueKeysWithValues: events.filter { $0.to == .offline }.map { ($0.responder, $0.time) })
        let degraded = Dictionary(uniqueKeysWithValues: events.filter { $0.to == .degraded }.map { ($0.responder, $0.time) })
        #expect(degraded == [alice: 40, bob: 90, carol: 150])
        #expect(offline == [alice: 80, bob: 180, carol: 300])
        #expect(monitor.thresholds(of: alice) == LivenessThresholds(degradedAfter: 40, offlineAfter: 80))
        // A mission in the quick fleet keeps the standard mission block (only on_duty changed).
        monitor.recordFix(alice, time: 1_000, duty: .onMission, now: 1_000, into: &events)
        #expect(monitor.thresholds(of: alice) == LivenessThresholds(degradedAfter: 30, offlineAfter: 60))
    }

    /// A snapshot keeps the fleets: restored, it decides as the live monitor does.
    @Test func aSnapshotKeepsTheFleets() throws {
        let table = try FleetTable(fleets: [.init(name: "quick", policy: Self.quick, responders: [alice])])
        var live = LivenessMonitor(fleets: table)
        var events: [LivenessTransition] = []
        live.recordFix(alice, time: 0, duty: .onDuty, now: 0, into: &events)
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var restored = try decoder.decode(LivenessMonitor.self, from: encoder.encode(live))
        #expect(restored.fleets == table)
        var a: [LivenessTransition] = [], b: [LivenessTransition] = []
        live.advance(to: 100, into: &a)
        restored.advance(to: 100, into: &b)
        #expect(a == b && a.last?.time == 80)
    }

    /// Names must be unique and non-empty, and a responder in one fleet only; errors name the path.
    @Test func tableInvariantsNameThePath() {
        func error(_ fleets: [FleetTable.Fleet]) -> String? {
            do {
                _ = try FleetTable(fleets: fleets)
                return nil
            } catch { return error.description }
        }
        #expect(error([.init(name: "", policy: .standard, responders: [])]) == "fleets[0].name: a fleet needs a name")
        #expect(
            error([.init(name: "a", policy: .standard, responders: []), .init(name: "a", policy: .standard, responders: [])])
                == "fleets[1].name: fleet 'a' is named twice")
        #expect(
            error([.init(name: "a", policy: .standard, responders: [alice]), .init(name: "b", policy: .standard, responders: [bob, alice])])
                == "fleets[1].responders[1]: responder 1 is already in fleet 'a'")
        let table = try? FleetTable(fleets: [.init(name: "a", policy: Self.quick, responders: [bob])])
        #expect(table?.policyIndex(of: bob) == 1 && table?.policyIndex(of: alice) == 0)
        #expect(table?.policy(of: bob) == Self.quick && table?.policy(of: alice) == .standard)
        #expect(table?.fleet(named: "a")?.responders == [bob] && table?.fleet(named: "b") == nil)
    }

    /// The sender backs off with its fleet's numbers.
    @Test func theSenderBacksOffAsItsFleetSays() {
        var policy = SenderPolicy(network: .wifi, now: 0, fleet: Self.quick)
        var waits: [Double] = []
        for k in 0..<5 {
            policy.recordFailure(now: Double(k) * 100)
            waits.append(policy.nextAttempt - Double(k) * 100)
        }
        #expect(waits == [2, 4, 8, 10, 10])
        let sender = Sender(responder: alice, token: "t", network: .wifi, now: 0, fleet: Self.quick)
        #expect(sender.policy.maximumBackoff == 10 && sender.policy.initialBackoff == 2)
    }

    /// An incident waits the default policy's ACK timeout unless given one.
    @Test func incidentsWaitThePolicysAckTimeout() throws {
        var defaults = FleetPolicy.standard
        defaults.ackTimeout = 7
        var server = ResponderServer(store: MemoryServerStore(), fleets: try FleetTable(defaultPolicy: defaults, fleets: []))
        let fix = ReportedFix(
            responder: alice, sequence: 1,
            fix: LocationFix(time: 0, latitude: 10, longitude: 10, accuracy: 5), duty: .onDuty)
        try server.ingest([fix], receivedAt: 0)
        let location = try LatLng(latitude: 10, longitude: 10.001)
        #expect(server.startIncident(1, at: location, now: 1).state == .offering(alice, deadline: 8))
        #expect(server.startIncident(2, at: location, now: 1, ackTimeout: 3).state == .offering(alice, deadline: 4))
    }
}
