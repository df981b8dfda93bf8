import Drawing
import Geodesy
import Responders

/// The control room's page (`GET /`): counts per status, and an SVG map (Drawing) of the
/// responders colored by status and the open incidents. It reloads itself every 5 s. The
/// instance's name (`--instance`, any text) is escaped.
struct ControlRoomPage {
    var instance: String
    var leader: Bool
    var counts: [Int]
    var responders: [ServiceStore.Latest]
    var incidents: [ServiceStore.StoredIncident]

    /// Fill color per status (color-blind safe: Okabe-Ito).
    static func color(_ status: LivenessStatus) -> String {
        switch status {
        case .online: "#009e73"
        case .degraded: "#e69f00"
        case .offline: "#d55e00"
        case .offDuty: "#999999"
        case .unknown: "#56b4e9"
        }
    }

    var svg: String {
        var doc = SVGDocument(width: 960, height: 640, title: "Responders")
        var points = responders.map { LatLng(uncheckedLatitude: $0.fix.fix.latitude, longitude: $0.fix.fix.longitude) }
        points += incidents.map { LatLng(uncheckedLatitude: $0.latitude, longitude: $0.longitude) }
        let frame = MapFrame.fitting(points, projection: .webMercator, plotX: 70, plotY: 20, plotWidth: 870, plotHeight: 600)
        doc.element("rect", ["x": "70", "y": "20", "width": "870", "height": "600", "fill": "#f6f6f2", "stroke": "#888"])
        Graticule(frame: frame).draw(in: &doc, frame: frame)
        doc.open("g", ["class": "responders", "stroke": "#222", "stroke-width": "0.6"])
        for row in responders {
            let p = frame.point(latitude: row.fix.fix.latitude, longitude: frame.unwrap(row.fix.fix.longitude))
            doc.element(
                "circle",
                [
                    "cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": "5",
                    "fill": Self.color(row.status), "class": "status-" + row.status.name
                ],
                text: nil)
        }
        doc.close()
        doc.open("g", ["class": "incidents", "fill": "none", "stroke": "#cc0000", "stroke-width": "2"])
        for incident in incidents {
            let p = frame.point(latitude: incident.latitude, longitude: frame.unwrap(incident.longitude))
            doc.element("rect", ["x": SVGNumber.format(p.x - 7), "y": SVGNumber.format(p.y - 7), "width": "14", "height": "14"])
            doc.element(
                "text",
                [
                    "x": SVGNumber.format(p.x + 9), "y": SVGNumber.format(p.y + 4), "font-size": "12",
                    "fill": "#cc0000", "stroke": "none"
                ], text: "#\(incident.id) \(incident.state.rawValue)")
        }
        doc.close()
        return doc.rendered
    }

    var html: String {
        var rows = ""
        for status in [LivenessStatus.online, .degraded, .offline, .offDuty, .unknown] {
            rows +=
                "<tr><td><span class=\"dot\" style=\"background:\(Self.color(status))\"></span>\(status.name)</td>"
                + "<td class=\"n\">\(counts[Int(status.rawValue)])</td></tr>\n"
        }
        rows += "<tr><td>open incidents</td><td class=\"n\">\(incidents.count)</td></tr>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
            <title>Responders: control room</title>
            <style>body{font-family:sans-serif;margin:16px;color:#111}table{border-collapse:collapse;margin-bottom:12px}
            td{padding:2px 10px}.n{text-align:right;font-weight:bold}.dot{display:inline-block;width:10px;height:10px;
            border-radius:5px;margin-right:6px}</style></head>
            <body><h1>Responders</h1>
            <p>Instance \(XMLText.escaped(instance))\(leader ? " (leader)" : ""). Reloads every 5 s.</p>
            <table>\(rows)</table>
            \(svg)
            </body></html>

            """
    }
}
