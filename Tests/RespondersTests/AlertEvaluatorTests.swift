import GeoCells
import Geodesy
import Testing
@testable import Responders

@Suite struct AlertEvaluatorTests {
    /// 20 active responders on duty at (60, 25 + k/1000); `offline` of them silent since 0.
    func fleet(offline: Int) throws -> ResponderServer<MemoryServerStore> {
        var server = ResponderServer(
            store: MemoryServerStore(),
            rules: AlertRules(
                regions: [
                    AlertRegion(name: "harbour", shape: .circle(center: try LatLng(latitude: 60, longitude: 25.005), radiusMeters: 120)),
                    AlertRegion(name: "airport", shape: .circle(center: try LatLng(latitude: 60.3, longitude: 24.95), radiusMeters: 2_000))
                ],
                cellLevel: 10))
        for k in 0..<20 {
            try server.ingest([reported(k, 1, time: 0, longitude: 25 + Double(k) / 1000)], receivedAt: 0)
        }
        for k in offline..<20 { try server.ingest([reported(k, 2, time: 170, longitude: 25 + Double(k) / 1000)], receivedAt: 170) }
        server.advance(to: 180)
        return server
    }

    @Test func highOfflineRateFiresAboveTenPercent() throws {
        let two = try fleet(offline: 2).firingAlerts(now: 180)  // exactly 10 %: not above
        #expect(!two.contains { if case .highOfflineRate = $0 { true } else { false } })
        let three = try fleet(offline: 3).firingAlerts(now: 180)
        #expect(three.first == .highOfflineRate(offline: 3, active: 20))
        #expect(ResponderServer(store: MemoryServerStore()).firingAlerts(now: 0).isEmpty)  // nobody active: no alert
    }

    @Test func noOnlineRespondersPerRegion() throws {
        // Responders 3..7 sit within 120 m of the harbour center (0.001 degree of longitude is 55.6 m here).
        let alerts = try fleet(offline: 8).firingAlerts(now: 180)
        #expect(alerts.contains(.noOnlineResponders(region: "harbour", active: 5)))
        #expect(alerts.contains(.noOnlineResponders(region: "airport", active: 0)))
        let some = try fleet(offline: 5).firingAlerts(now: 180)
        #expect(!some.contains(.noOnlineResponders(region: "harbour", active: 5)))
        // All 20 sit in one level-10 cell: it fires only when nobody there is online.
        let cell = CellID(try LatLng(latitude: 60, longitude: 25)).parent(level: 10)
        #expect(CellID(try LatLng(latitude: 60, longitude: 25.019)).parent(level: 10) == cell)
        #expect(try fleet(offline: 20).firingAlerts(now: 180).contains(.noOnlineResponders(region: cell.token, active: 20)))
        #expect(try !fleet(offline: 19).firingAlerts(now: 180).contains { if case .noOnlineResponders(cell.token, _) = $0 { true } else { false } })
    }

    @Test func flappingIsThreeDropsToOfflineInFifteenMinutes() {
        var evaluator = AlertEvaluator()
        let id = ResponderID(4)
        func drop(_ t: Double) -> [LivenessTransition] {
            [
                LivenessTransition(responder: id, from: .degraded, to: .offline, time: t),
                LivenessTransition(responder: id, from: .offline, to: .online, time: t + 10)
            ]
        }
        let monitor = LivenessMonitor()
        evaluator.record(drop(0) + drop(300))
        evaluator.record([LivenessTransition(responder: id, from: .unknown, to: .offline, time: 400)])  // not a drop
        #expect(evaluator.evaluate(now: 500, liveness: monitor, position: { _ in nil }).isEmpty)
        evaluator.record(drop(899))
        #expect(evaluator.evaluate(now: 899.5, liveness: monitor, position: { _ in nil }) == [.responderFlapping(id, offlineEntries: 3)])
        #expect(evaluator.evaluate(now: 900, liveness: monitor, position: { _ in nil }).isEmpty)  // the first drop left the window
    }
}
