import Testing
import Responders
@testable import ResponderService

/// The control room's page: a row per status with its count, every responder drawn in its
/// status's color, every open incident marked and labelled, the instance and its role named.
@Suite struct ControlRoomPageTests {
    static func latest(_ id: Int, _ lat: Double, _ lon: Double, _ status: LivenessStatus) -> ServiceStore.Latest {
        ServiceStore.Latest(
            fix: ReportedFix(
                responder: ResponderID(id), sequence: 1, fix: LocationFix(time: 100, latitude: lat, longitude: lon, accuracy: 10),
                duty: .onDuty),
            receivedAt: 100, reason: .none, status: status)
    }

    static func incident(_ id: Int64, _ lat: Double, _ lon: Double, _ state: ServiceStore.IncidentState) -> ServiceStore.StoredIncident {
        ServiceStore.StoredIncident(
            id: id, latitude: lat, longitude: lon, ackTimeout: 30, state: state, offeredTo: nil, assignee: nil, trail: "[]")
    }

    @Test func everyStatusIsCountedAndDrawnInItsColor() {
        let statuses: [LivenessStatus] = [.online, .online, .degraded, .offline, .offDuty, .unknown]
        let page = ControlRoomPage(
            instance: "west-1", leader: true, counts: [1, 2, 1, 1, 1],
            responders: statuses.enumerated().map { Self.latest($0.offset + 1, 60.1 + 0.01 * Double($0.offset), 24.9, $0.element) },
            incidents: [Self.incident(7, 60.12, 24.95, .offered), Self.incident(8, 60.13, 24.9, .pending)])
        let html = page.html
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</body></html>\n"))
        #expect(html.contains("<p>Instance west-1 (leader). Reloads every 5 s.</p>"))
        // counts is indexed by LivenessStatus.rawValue: unknown 1, online 2, degraded 1, offline 1, off duty 1.
        for (status, color, count) in [
            (LivenessStatus.online, "#009e73", 2), (.degraded, "#e69f00", 1), (.offline, "#d55e00", 1), (.offDuty, "#999999", 1),
            (.unknown, "#56b4e9", 1)
        ] {
            #expect(ControlRoomPage.color(status) == color)
            #expect(
                html.contains(
                    "<tr><td><span class=\"dot\" style=\"background:\(color)\"></span>\(status.name)</td><td class=\"n\">\(count)</td></tr>"
                ))
            let drawn = html.components(separatedBy: "r=\"5\" fill=\"\(color)\" class=\"status-\(status.name)\"/>").count - 1
            #expect(drawn == statuses.filter { $0 == status }.count, "\(status)")
        }
        #expect(html.contains("<tr><td>open incidents</td><td class=\"n\">2</td></tr>"))
        // Each incident: a 14-unit square and its id and state in red.
        #expect(html.components(separatedBy: "width=\"14\" height=\"14\"/>").count - 1 == 2)
        #expect(html.contains(">#7 offered</text>") && html.contains(">#8 pending</text>"))
    }

    @Test func aFollowerWithNothingToShowSaysSo() {
        let page = ControlRoomPage(instance: "east", leader: false, counts: [0, 0, 0, 0, 0], responders: [], incidents: [])
        let html = page.html
        #expect(html.contains("<p>Instance east. Reloads every 5 s.</p>"))
        #expect(html.contains("<tr><td>open incidents</td><td class=\"n\">0</td></tr>"))
        // The map is drawn, with empty groups of responders and incidents.
        #expect(html.contains("<svg") && !html.contains("class=\"status-"))
        #expect(html.contains("<g class=\"responders\" stroke=\"#222\" stroke-width=\"0.6\">\n</g>"))
        #expect(html.contains("<g class=\"incidents\" fill=\"none\" stroke=\"#cc0000\" stroke-width=\"2\">\n</g>"))
    }

    /// `--instance` is any text: it is shown as text, not read as markup.
    @Test func theInstanceNameIsEscaped() {
        let name = "<script>alert(1)</script> & \"west\""
        let html = ControlRoomPage(instance: name, leader: true, counts: [0, 0, 0, 0, 0], responders: [], incidents: []).html
        #expect(!html.contains("<script>"))
        #expect(html.contains("<p>Instance &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;west&quot; (leader)."))
    }
}
