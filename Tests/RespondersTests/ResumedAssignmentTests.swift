import GeoCells
import Geodesy
import Testing

@testable import Responders

/// An assignment taken over from another process resumes from its trail; the server's
/// per-responder interval, the reason gauge, the phone log's device lines and the names used in
/// logs and alerts.
@Suite struct ResumedAssignmentTests {
    /// Responders 0..<n on a line north of (60, 25), k x 100 m, all online at time 0.
    func makeServer(_ n: Int) throws -> ResponderServer<MemoryServerStore> {
        var server = ResponderServer(store: MemoryServerStore())
        try server.ingest((0..<n).map { reported($0, 1, time: 0, latitude: 60 + Double($0) * 100 / 111_194.93) }, receivedAt: 0)
        return server
    }

    /// The dispatcher of ``makeServer(_:)``: responder k is k x 100 m from ``incident``.
    func dispatcher(_ n: Int) throws -> Dispatcher { try makeServer(n).dispatcher }

    let incident = LatLng(uncheckedLatitude: 60, longitude: 25)

    func offered(_ r: Int, at t: Double) -> AssignmentStep {
        AssignmentStep(responder: ResponderID(r), time: t, event: .offered(distanceMeters: Double(r) * 100))
    }

    @Test func anAcknowledgedTrailStaysAssigned() throws {
        var d = try dispatcher(3)
        let trail = [offered(0, at: 5), AssignmentStep(responder: ResponderID(0), time: 9, event: .acknowledged)]
        let a = IncidentAssignment(
            resuming: 1, location: incident, trail: trail, now: 20, dispatcher: &d,
            status: { _ in .online })
        #expect(a.state == .assigned(ResponderID(0), time: 9))
        #expect(a.trail == trail)
        #expect(a.holder == ResponderID(0))
        // The candidates leave out everyone the trail asked.
        #expect(a.candidates.map(\.responder) == [ResponderID(1), ResponderID(2)])
    }

    @Test func anOfferStillWithinItsDeadlineStands() throws {
        var d = try dispatcher(3)
        let a = IncidentAssignment(
            resuming: 2, location: incident, trail: [offered(0, at: 10)], now: 25, dispatcher: &d,
            status: { _ in .online }, ackTimeout: 30)
        #expect(a.state == .offering(ResponderID(0), deadline: 40))
        #expect(a.currentOffer == ResponderID(0))
        #expect(a.trail.count == 1)
    }

    @Test func aLapsedOfferTimesOutAtItsDeadlineAndTheNextIsAsked() throws {
        var d = try dispatcher(3)
        let a = IncidentAssignment(
            resuming: 3, location: incident, trail: [offered(0, at: 10)], now: 100, dispatcher: &d,
            status: { _ in .online }, ackTimeout: 30)
        #expect(a.trail[1] == AssignmentStep(responder: ResponderID(0), time: 40, event: .timedOut))
        #expect(a.currentOffer == ResponderID(1))
        #expect(a.trail.last?.time == 100)
        // Asked responder no longer ONLINE: not kept even though the deadline is ahead.
        var d2 = try dispatcher(3)
        let b = IncidentAssignment(
            resuming: 4, location: incident, trail: [offered(0, at: 90)], now: 100, dispatcher: &d2,
            status: { $0 == ResponderID(0) ? .degraded : .online }, ackTimeout: 30)
        #expect(b.trail[1] == AssignmentStep(responder: ResponderID(0), time: 100, event: .timedOut))
        #expect(b.currentOffer == ResponderID(1))
    }

    @Test func reassignmentsAreCountedFromTheTrailAndAnEmptyTrailStartsAfresh() throws {
        var d = try dispatcher(3)
        let trail = [
            offered(0, at: 1), AssignmentStep(responder: ResponderID(0), time: 2, event: .acknowledged),
            AssignmentStep(responder: ResponderID(0), time: 50, event: .wentOffline), offered(1, at: 50),
            AssignmentStep(responder: ResponderID(1), time: 55, event: .declined)
        ]
        let a = IncidentAssignment(
            resuming: 5, location: incident, trail: trail, now: 60, dispatcher: &d,
            status: { _ in .online }, maxCandidates: 5)
        #expect(a.reassignments == 1)
        #expect(a.currentOffer == ResponderID(2))
        #expect(a.candidates.map(\.responder) == [ResponderID(2)])
        let fresh = IncidentAssignment(
            resuming: 6, location: incident, trail: [], now: 60, dispatcher: &d, status: { _ in .online })
        #expect(fresh.currentOffer == ResponderID(0))
        #expect(fresh.reassignments == 0)
        // Nobody left to ask: exhausted at `now`.
        let everyone = (0..<3).map { offered($0, at: 1) }
        let none = IncidentAssignment(
            resuming: 7, location: incident, trail: everyone + [AssignmentStep(responder: ResponderID(2), time: 2, event: .declined)],
            now: 60, dispatcher: &d, status: { _ in .online })
        #expect(none.state == .exhausted(time: 60))
    }

    /// A longer expected interval keeps a quiet responder ONLINE past the on-duty 90 s; removing
    /// it brings the on-duty thresholds back at once.
    @Test func thePerResponderIntervalMovesTheThresholds() throws {
        var server = try makeServer(2)
        server.setExpectedInterval(300, for: ResponderID(1), now: 10)
        server.advance(to: 100)
        #expect(server.liveness.status(of: ResponderID(0)) == .degraded)
        #expect(server.liveness.status(of: ResponderID(1)) == .online)  // degraded after 450 s
        server.advance(to: 460)
        #expect(server.liveness.status(of: ResponderID(1)) == .degraded)
        server.setExpectedInterval(nil, for: ResponderID(1), now: 470)
        #expect(server.liveness.status(of: ResponderID(1)) == .offline)  // 470 s > 180 s on duty
    }

    @Test func theReasonGaugeHasOneLinePerStatusAndReason() {
        let statuses = LivenessStatus.allCases.count, reasons = TrackingReason.allCases.count
        var counts = [[Int]](repeating: [Int](repeating: 0, count: reasons), count: statuses)
        counts[Int(LivenessStatus.online.rawValue)][0] = 4
        let text = ResponderMetrics().prometheusText(statusCounts: [Int](repeating: 1, count: statuses), reasonCounts: counts)
        #expect(text.contains("# TYPE responders_by_status_reason gauge\n"))
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("responders_by_status_reason{") }
        #expect(lines.count == statuses * reasons)
        let first = TrackingReason.allCases[0].name
        #expect(lines.contains("responders_by_status_reason{status=\"online\",reason=\"\(first)\"} 4"))
        #expect(lines.filter { $0.hasSuffix(" 0") }.count == statuses * reasons - 1)
        // Without reasons, no such gauge.
        #expect(!ResponderMetrics().prometheusText(statusCounts: [Int](repeating: 0, count: statuses)).contains("reason"))
    }

    @Test func locationServicesAndPowerModeChangesAreLogged() {
        var log = PhoneEventLog()
        var device = DeviceConditions(appState: .foreground)
        log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 80, now: 0)
        device.locationServicesEnabled = false
        device.powerMode = .lowPower
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 80, now: 12.7) == 2)
        device.locationServicesEnabled = true
        #expect(log.observe(device: device, duty: .onDuty, network: .wifi, batteryPercent: 80, now: 20) == 1)
        #expect(
            log.lines == [
                "t=12 event=location_services from=on to=off", "t=12 event=power_mode from=normal to=low_power",
                "t=20 event=location_services from=off to=on"
            ])
    }

    @Test func namesForLogsAndAlerts() throws {
        #expect(
            FixDropReason.allCases.map(\.description) == ["invalid", "out_of_order", "duplicate", "inaccurate", "implausible_speed", "not_due"])
        #expect(DutyState.onMission.description == DutyState.onMission.name)
        #expect(LivenessStatus.allCases.map(\.description) == LivenessStatus.allCases.map(\.name))
        #expect(ResponderID(17).description == "responder 17")
        #expect(Alert.highOfflineRate(offline: 3, active: 20).description == "HighOfflineRate: 3 of 20 active responders offline")
        #expect(Alert.responderFlapping(ResponderID(4), offlineEntries: 3).description == "ResponderFlapping: responder 4 went offline 3 times")
        #expect(Alert.noOnlineResponders(region: "x", active: 2).description == "NoOnlineResponders: region x (2 active, none online)")
        let cell = CellID(try LatLng(latitude: 60.17, longitude: 24.94)).parent(level: 10)
        let region = AlertRegion(cell: cell)
        #expect(region.name == cell.token)
        #expect(region.shape == .cell(cell))
    }
}
