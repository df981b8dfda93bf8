import Geodesy
import Testing

extension SplitMix64 {
    /// A latitude in [-10, 10) degrees, where the test's responders are.
    mutating func uniformLatitude() -> Double { -10 + 20 * nextUnit() }
}
@testable import Responders

@Suite struct IncidentAssignmentTests {
    /// Responders k = 0..<n on a line north of (60, 25), k x 100 m, all online at time 0.
    func makeServer(_ n: Int) throws -> ResponderServer<MemoryServerStore> {
        var server = ResponderServer(store: MemoryServerStore())
        let batch = (0..<n).map { reported($0, 1, time: 0, latitude: 60 + Double($0) * 100 / 111_194.93) }
        try server.ingest(batch, receivedAt: 0)
        return server
    }

    @Test func offersNearestFirstAndMovesOnAtTheAckTimeout() throws {
        var server = try makeServer(5)
        let incident = try LatLng(latitude: 60 + 120 / 111_194.93, longitude: 25)  // nearest: 1, then 2, 0, 3, 4
        var assignment = server.startIncident(1, at: incident, now: 10, ackTimeout: 30, maxCandidates: 4)
        #expect(assignment.candidates.map(\.responder.rawValue) == [1, 2, 0, 3])
        #expect(abs(assignment.candidates[0].distanceMeters - 20) < 0.01)
        #expect(assignment.currentOffer == ResponderID(1))
        let status = { (id: ResponderID) in server.liveness.status(of: id) }
        assignment.advance(to: 39.9, status: status)
        #expect(assignment.currentOffer == ResponderID(1))
        assignment.advance(to: 40, status: status)
        #expect(assignment.currentOffer == ResponderID(2))
        let late = assignment.acknowledge(by: ResponderID(1), now: 41)
        #expect(!late)  // too late, not asked any more
        assignment.decline(by: ResponderID(2), now: 45, status: status)
        let taken = assignment.acknowledge(by: ResponderID(0), now: 50)
        #expect(taken)
        #expect(assignment.state == .assigned(ResponderID(0), time: 50))
        #expect(
            assignment.trail == [
                AssignmentStep(responder: ResponderID(1), time: 10, event: .offered(distanceMeters: assignment.candidates[0].distanceMeters)),
                AssignmentStep(responder: ResponderID(1), time: 40, event: .timedOut),
                AssignmentStep(responder: ResponderID(2), time: 40, event: .offered(distanceMeters: assignment.candidates[1].distanceMeters)),
                AssignmentStep(responder: ResponderID(2), time: 45, event: .declined),
                AssignmentStep(responder: ResponderID(0), time: 45, event: .offered(distanceMeters: assignment.candidates[2].distanceMeters)),
                AssignmentStep(responder: ResponderID(0), time: 50, event: .acknowledged)
            ])
    }

    @Test func onlyOnlineRespondersAreOfferedAndTheListCanRunOut() throws {
        var server = try makeServer(3)
        // Responder 0 keeps reporting; 1 and 2 fall silent and turn DEGRADED at 90 s.
        try server.ingest([reported(0, 2, time: 80, latitude: 60)], receivedAt: 80)
        server.advance(to: 95)
        var assignment = server.startIncident(2, at: try LatLng(latitude: 60.01, longitude: 25), now: 95)
        #expect(assignment.candidates.map(\.responder) == [ResponderID(0)])
        // Responder 0 goes silent too while asked: at the timeout nobody is left.
        assignment.advance(to: 200, status: { _ in .offline })
        #expect(assignment.state == .exhausted(time: 125))
        #expect(assignment.trail.map(\.event) == [.offered(distanceMeters: assignment.candidates[0].distanceMeters), .timedOut])
        // A candidate that drops out between the start and its turn is skipped with the reason.
        var server2 = try makeServer(3)
        var second = server2.startIncident(3, at: try LatLng(latitude: 60, longitude: 25), now: 1, maxCandidates: 3)
        second.advance(to: 31, status: { $0 == ResponderID(1) ? .degraded : .online })
        #expect(second.trail.map(\.event).contains(.skipped(.degraded)))
        #expect(second.currentOffer == ResponderID(2))
        server2.advance(to: 1_000)
        #expect(server2.dispatcher.indexedCount == 0)
        let nobody = server2.startIncident(4, at: try LatLng(latitude: 60, longitude: 25), now: 1_000)
        #expect(nobody.state == .exhausted(time: 1_000))
    }

    /// At the North Pole every longitude meets: responders 1 km from the pole at any longitude
    /// are equally near, and the one at 2 km comes last.
    @Test func nearestAtThePole() throws {
        var server = ResponderServer(store: MemoryServerStore())
        let oneKm = 90 - 1_000 / 111_194.93, twoKm = 90 - 2_000 / 111_194.93
        try server.ingest(
            [
                reported(5, 1, time: 0, latitude: twoKm, longitude: 0),
                reported(6, 1, time: 0, latitude: oneKm, longitude: 179.9),
                reported(7, 1, time: 0, latitude: oneKm, longitude: -120)
            ], receivedAt: 0)
        let assignment = server.startIncident(9, at: try LatLng(latitude: 90, longitude: 45), now: 1)
        #expect(assignment.candidates.map(\.responder.rawValue) == [6, 7, 5])
        #expect(abs(assignment.candidates[0].distanceMeters - 1_000) < 0.01)
    }

    /// Seeded property: the candidates are exactly the ONLINE responders nearest the incident,
    /// in distance order, as a brute-force scan of the latest positions finds them; positions
    /// move as responders report, across the antimeridian too.
    @Test(arguments: [UInt64(31), 32])
    func candidatesMatchABruteForceScan(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var server = ResponderServer(store: MemoryServerStore())
        var latest: [Int: (lat: Double, lon: Double, time: Double)] = [:]
        var now = 0.0
        var queries = 0
        for step in 0..<3_000 {
            now += 0.2
            let k = Int(rng.next() % 200)
            let lat = -10 + 20 * rng.nextUnit()
            let lon = LatLng.wrapLongitude(170 + 20 * rng.nextUnit())
            let sequence = Int64(step + 1)
            try server.ingest([reported(k, sequence, time: now - rng.nextUnit() * 150, latitude: lat, longitude: lon)], receivedAt: now)
            let fixTime = server.liveness.lastFixTime(of: ResponderID(k))!
            if latest[k].map({ fixTime > $0.time }) ?? true { latest[k] = (lat, lon, fixTime) }
            guard step % 500 == 499 else { continue }
            // Every 500 fixes, an incident: the lazily moved index answers as a fresh scan.
            server.advance(to: now)
            let incident = LatLng(uncheckedLatitude: rng.uniformLatitude(), longitude: 179.9)
            let assignment = server.startIncident(step, at: incident, now: now, maxCandidates: 10)
            let expected = latest.filter { server.liveness.status(of: ResponderID($0.key)) == .online }
                .map { (id: $0.key, meters: haversineDistance(incident, LatLng(uncheckedLatitude: $0.value.lat, longitude: $0.value.lon))) }
                .sorted { ($0.meters, $0.id) < ($1.meters, $1.id) }
                .prefix(10)
            #expect(expected.count == 10)
            #expect(assignment.candidates.map { Int($0.responder.rawValue) } == expected.map(\.id), "seed \(seed), step \(step)")
            for (got, want) in zip(assignment.candidates, expected) { #expect(abs(got.distanceMeters - want.meters) < 1e-3) }
            queries += 1
        }
        #expect(queries == 6)
    }

    /// An assignee who acknowledged and then goes OFFLINE loses the incident to the next ONLINE
    /// responder; so does a responder being asked; a closed incident stays closed.
    @Test func anAssigneeGoingOfflineHandsTheIncidentOn() throws {
        var server = try makeServer(4)
        let place = try LatLng(latitude: 60, longitude: 25)  // nearest: 0, 1, 2, 3
        var assignment = server.startIncident(5, at: place, now: 1, maxCandidates: 2)
        let taken = assignment.acknowledge(by: ResponderID(0), now: 5)
        #expect(taken)
        // Everyone but 0 keeps reporting; 0 turns OFFLINE at 180 s.
        try server.ingest((1..<4).map { reported($0, 2, time: 170, latitude: 60 + Double($0) * 100 / 111_194.93) }, receivedAt: 170)
        server.advance(to: 180)
        #expect(server.liveness.status(of: ResponderID(0)) == .offline)
        let notTheirs = server.reassign(&assignment, from: ResponderID(3), now: 180)
        let handedOn = server.reassign(&assignment, from: ResponderID(0), now: 180)
        #expect(!notTheirs && handedOn)
        #expect(assignment.currentOffer == ResponderID(1))
        #expect(assignment.candidates.map(\.responder) == [ResponderID(1), ResponderID(2)])
        #expect(assignment.reassignments == 1)
        #expect(Array(assignment.trail.map(\.event).suffix(2)) == [.wentOffline, .offered(distanceMeters: assignment.candidates[0].distanceMeters)])
        // The responder being asked goes OFFLINE too: the next one is asked.
        var dispatcher = server.dispatcher
        let again = assignment.responderWentOffline(
            ResponderID(1), now: 190, dispatcher: &dispatcher,
            status: { $0 == ResponderID(1) ? .offline : .online })
        #expect(again)
        #expect(assignment.currentOffer == ResponderID(2))
        let second = assignment.acknowledge(by: ResponderID(2), now: 195)
        #expect(second)
        assignment.close(now: 300)
        #expect(assignment.state == .closed(assignee: ResponderID(2), time: 300))
        let afterClose = server.reassign(&assignment, from: ResponderID(2), now: 400)
        #expect(!afterClose)
    }
}
