import Geodesy
import Testing
import Responders

/// The README's Responders example, compiled and checked.
@Suite struct ReadmeRespondersExampleTests {
    @Test func readmeExample() throws {
        // --- README example begins ---
        // Phone: keep a fix every 60 s or 50 m on duty, drop bad ones (counted by reason).
        var filter = FixFilter(profile: .forDuty(.onDuty, powerMode: .normal))
        let here = LocationFix(time: 1_000, latitude: 60.1699, longitude: 24.9384, accuracy: 8)
        let kept = filter.consider(here) == nil  // true: the first good fix

        // Server: ingest batches (any order, copies dropped), liveness by deadline.
        var server = ResponderServer(store: MemoryServerStore())  // or SQLiteServerStore(path:)
        let alice = ResponderID(1)
        try server.ingest([ReportedFix(responder: alice, sequence: 1, fix: here, duty: .onDuty)], receivedAt: 1_001)
        server.advance(to: 1_180)
        let status = server.liveness.status(of: alice)  // .offline: 180 s after the fix
        let drop = server.lastTransitions.last  // degraded -> offline at 1,180 s

        // Assignment: ONLINE responders nearest first, next one on a 30 s ACK timeout.
        try server.ingest(
            [
                ReportedFix(
                    responder: alice, sequence: 2,
                    fix: LocationFix(
                        time: 1_200, latitude: 60.17,
                        longitude: 24.94, accuracy: 5),
                    duty: .onDuty)
            ], receivedAt: 1_201)
        var incident = server.startIncident(7, at: try LatLng(latitude: 60.18, longitude: 24.95), now: 1_205)
        let asked = incident.currentOffer  // alice, 1,242 m away
        incident.acknowledge(by: alice, now: 1_212)  // .assigned(alice, 1,212 s)
        let text = server.prometheusText  // passes promtool check metrics
        // --- README example ends ---
        #expect(kept)
        #expect(status == .offline)
        #expect(drop == LivenessTransition(responder: alice, from: .degraded, to: .offline, time: 1_180))
        #expect(asked == alice)
        #expect(abs(incident.candidates[0].distanceMeters - 1_241.9) < 0.1)
        #expect(incident.state == .assigned(alice, time: 1_212))
        #expect(text.contains("status_transitions_total{from=\"offline\",to=\"online\"} 1\n"))
    }
}
