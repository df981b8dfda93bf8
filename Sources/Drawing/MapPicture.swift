import NumberFormatting
import Geodesy
import GeoCells

/// A map of geofencing data as SVG: circular fences drawn as great-circle outlines, polygon
/// fences with their enclosing circles (dashed), S2 cell polygons, points of interest, a trajectory of fixes and the detector's enter/exit/dwell
/// events, over a latitude/longitude graticule with a scale bar and a legend.
///
/// The view fits the content (``MapFrame/fitting(_:projection:plotX:plotY:plotWidth:plotHeight:marginFraction:minimumSpanDegrees:)``),
/// across the antimeridian when the content sits there. Everything is clipped to the plot area;
/// an outline that runs past ±180 is drawn again shifted by 360 degrees where that copy is visible.
///
/// ```swift
/// var map = MapPicture(title: "Helsinki pharmacies")
/// map.fences = [MapPicture.Circle(center: helsinki, radius: 1609.344, label: "1 mile")]
/// let svgFile = map.render().fileText
/// ```
public struct MapPicture: Sendable {
    /// A circular fence: center and radius in meters (great-circle, sphere of radius
    /// `Earth/meanRadius`).
    public struct Circle: Sendable {
        /// Center of the fence.
        public var center: LatLng
        /// Radius in meters (finite; 0 or less draws a dot-sized ring at the center).
        public var radius: Double
        /// Shown as a tooltip (`<title>`) on the outline.
        public var label: String
        /// A fence at `center` with `radius` meters.
        public init(center: LatLng, radius: Double, label: String = "") {
            self.center = center
            self.radius = radius
            self.label = label
        }
    }

    /// A polygon fence: its loops (shells and holes alike, the interior being inside an odd
    /// number of them, as GeoCells' `Polygon` has it), each an open ring of vertices joined by
    /// straight map segments (geodesic edges of building-to-park size bend less than a pixel).
    public struct Shape: Sendable {
        /// The loops, open rings of vertices.
        public var loops: [[LatLng]]
        /// Shown as a tooltip (`<title>`) on the outline.
        public var label: String
        /// A polygon with these loops.
        public init(loops: [[LatLng]], label: String = "") {
            self.loops = loops
            self.label = label
        }
    }

    /// A labeled point (a POI, or a fix).
    public struct Point: Sendable {
        /// Where the point is.
        public var position: LatLng
        /// Shown as a tooltip, and beside the point when the map has few points.
        public var label: String
        /// A point at `position`.
        public init(position: LatLng, label: String = "") {
            self.position = position
            self.label = label
        }
    }

    /// The kinds of event a trajectory marks.
    public enum EventKind: String, Sendable, CaseIterable {
        /// The device entered a fence (green upward triangle).
        case enter
        /// The device left a fence (red downward triangle).
        case exit
        /// The device stayed in a fence for its dwell time (purple square).
        case dwell
    }

    /// A detector event at the position of the fix that raised it.
    public struct Event: Sendable {
        /// Where the device was (its reported fix).
        public var position: LatLng
        /// Enter, exit or dwell.
        public var kind: EventKind
        /// Tooltip text (fence and time, for example).
        public var label: String
        /// An event of `kind` at `position`.
        public init(position: LatLng, kind: EventKind, label: String = "") {
            self.position = position
            self.kind = kind
            self.label = label
        }
    }

    /// The heading line of the picture.
    public var title: String
    /// Lines printed under the title (what was drawn, what was skipped and why).
    public var notes: [String] = []
    /// The projection (Web Mercator by default).
    public var projection: MapProjection = .webMercator
    /// Canvas size in pixels.
    public var width = 1000.0, height = 720.0
    /// Fences, drawn as outlines with a light fill.
    public var fences: [Circle] = []
    /// Polygon fences, drawn over the fences and cells.
    public var polygons: [Shape] = []
    /// Enclosing circles (of the polygons: what the OS watches), drawn dashed.
    public var enclosingCircles: [Circle] = []
    /// S2 cells (for example a fence's cover), drawn as polygons.
    public var cells: [CellID] = []
    /// Points of interest, drawn as small dark dots (fainter and smaller when there are more than
    /// ``labeledPOILimit``, so that a dense cluster still shows its density).
    public var pois: [Point] = []
    /// Points called out over the POIs: a red ring with its label always written (for example
    /// the POI that the drawn fences belong to).
    public var marked: [Point] = []
    /// The fixes of one trajectory in time order, joined by a line, with a start marker (a ring)
    /// at the first and an end marker (a square) at the last.
    public var track: [Point] = []
    /// Detector events, drawn over everything else.
    public var events: [Event] = []

    /// An empty map with a title.
    public init(title: String) { self.title = title }

    /// Up to this many POIs are labeled beside their dots; more are drawn small and faint.
    public static let labeledPOILimit = 40

    /// Colors of the layers (fill, stroke), chosen to stay apart for color-blind readers.
    enum Color {
        static let fence = "#1f77b4", cell = "#e69f00", poi = "#222222", track = "#555555", polygon = "#0b5394"
        static let enter = "#009e73", exit = "#d55e00", dwell = "#7b3fa0", marked = "#cc0000"
    }

    /// Draws the map.
    /// - Precondition: ``width`` is finite and above 84 pixels, and ``height`` is finite and above
    ///   70 pixels plus 15 per line of ``notes`` (the plot area needs room), with finite
    ///   coordinates and fence radii (as ``MapFrame`` and ``GeoOutline/circle(center:radius:segments:)``).
    /// - Complexity: O(f·s + c + p + t + e) for f fences of s outline segments (16-360 each),
    ///   c cells, p POIs, t fixes and e events.
    public func render() -> SVGDocument {
        var svg = SVGDocument(width: width, height: height, title: title)
        let top = 40.0 + 15 * Double(notes.count)
        // A building is a few ten-thousandths of a degree across: with polygons, zoom in further.
        let frame = MapFrame.fitting(
            extentPoints(), projection: projection, plotX: 64, plotY: top,
            plotWidth: width - 84, plotHeight: height - top - 30, minimumSpanDegrees: polygons.isEmpty ? 0.01 : 0.001)
        svg.element("rect", ["width": SVGNumber.format(width), "height": SVGNumber.format(height), "fill": "#ffffff"])
        svg.element("text", ["x": "16", "y": "24", "font-size": "17", "font-weight": "bold", "fill": "#111"], text: title)
        for (i, note) in notes.enumerated() {
            svg.element("text", ["x": "16", "y": SVGNumber.format(40 + 15 * Double(i)), "font-size": "12", "fill": "#444"], text: note)
        }
        let plot = ["x": frame.plotX, "y": frame.plotY, "w": frame.plotWidth, "h": frame.plotHeight].mapValues { SVGNumber.format($0) }
        svg.open("defs")
        svg.open("clipPath", ["id": "plot-area"])
        svg.element("rect", ["x": plot["x"]!, "y": plot["y"]!, "width": plot["w"]!, "height": plot["h"]!])
        svg.close()
        svg.close()
        svg.element(
            "rect",
            [
                "class": "plot-background", "x": plot["x"]!, "y": plot["y"]!, "width": plot["w"]!,
                "height": plot["h"]!, "fill": "#f6f6f2", "stroke": "#888"
            ])
        Graticule(frame: frame).draw(in: &svg, frame: frame)

        svg.open("g", ["clip-path": "url(#plot-area)"])
        if !cells.isEmpty {
            svg.open("g", ["class": "cells", "fill": Color.cell, "fill-opacity": "0.18", "stroke": Color.cell, "stroke-width": "1"])
            for id in cells {
                drawOutline(
                    GeoOutline.cell(id, pointsPerEdge: GeoOutline.pointsPerEdge(level: id.level)), frame: frame,
                    in: &svg, label: "cell " + id.token)
            }
            svg.close()
        }
        if !fences.isEmpty {
            // Overlapping fills add up: many fences get a fainter fill so the trajectory stays visible.
            svg.open(
                "g",
                [
                    "class": "fences", "fill": Color.fence, "fill-opacity": fences.count <= 20 ? "0.07" : "0.025",
                    "stroke": Color.fence, "stroke-width": fences.count <= 20 ? "1.2" : "0.8"
                ])
            for fence in fences {
                let pixels = fence.radius / frame.metersPerPixel(atLatitude: fence.center.latitude)
                let outline = GeoOutline.circle(
                    center: fence.center, radius: fence.radius,
                    segments: GeoOutline.segments(forPixelRadius: pixels))
                drawOutline(outline, frame: frame, in: &svg, label: fence.label)
            }
            svg.close()
        }
        if !enclosingCircles.isEmpty {
            svg.open(
                "g",
                ["class": "enclosing-circles", "fill": "none", "stroke": Color.polygon, "stroke-width": "1.4", "stroke-dasharray": "6 4"])
            for circle in enclosingCircles {
                let pixels = circle.radius / frame.metersPerPixel(atLatitude: circle.center.latitude)
                let outline = GeoOutline.circle(
                    center: circle.center, radius: circle.radius, segments: GeoOutline.segments(forPixelRadius: pixels))
                drawOutline(outline, frame: frame, in: &svg, label: circle.label)
            }
            svg.close()
        }
        if !polygons.isEmpty {
            svg.open(
                "g",
                ["class": "polygons", "fill": Color.polygon, "fill-opacity": "0.3", "stroke": Color.polygon, "stroke-width": "1.6"])
            for shape in polygons { drawShape(shape, frame: frame, in: &svg) }
            svg.close()
        }
        if track.count >= 2 {
            var points: [(x: Double, y: Double)] = []
            var previous = frame.unwrap(track[0].position.longitude)
            for fix in track {
                var lon = fix.position.longitude
                lon -= 360 * ((lon - previous) / 360).rounded()
                previous = lon
                points.append(frame.point(latitude: fix.position.latitude, longitude: lon))
            }
            svg.path(
                points, closed: false,
                [
                    "class": "track", "fill": "none", "stroke": Color.track, "stroke-width": "1.5",
                    "stroke-linejoin": "round"
                ])
            svg.open("g", ["class": "fixes", "fill": Color.track])
            for p in points where track.count <= 2000 {
                svg.element("circle", ["cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": "1.6"])
            }
            svg.close()
            let first = points[0], last = points[points.count - 1]
            svg.open("g", ["class": "track-ends", "stroke": Color.track, "stroke-width": "2", "font-size": "11"])
            svg.element(
                "circle",
                [
                    "class": "start", "cx": SVGNumber.format(first.x), "cy": SVGNumber.format(first.y), "r": "6",
                    "fill": "#ffffff"
                ])
            svg.element(
                "rect",
                [
                    "class": "end", "x": SVGNumber.format(last.x - 5), "y": SVGNumber.format(last.y - 5),
                    "width": "10", "height": "10", "fill": Color.track
                ])
            svg.element(
                "text",
                [
                    "x": SVGNumber.format(first.x + 9), "y": SVGNumber.format(first.y + 4), "stroke": "#ffffff",
                    "stroke-width": "3", "paint-order": "stroke", "fill": "#222"
                ], text: "start")
            svg.element(
                "text",
                [
                    "x": SVGNumber.format(last.x + 9), "y": SVGNumber.format(last.y + 4), "stroke": "#ffffff",
                    "stroke-width": "3", "paint-order": "stroke", "fill": "#222"
                ], text: "end")
            svg.close()
        }
        if !pois.isEmpty {
            let labeled = pois.count <= Self.labeledPOILimit
            svg.open("g", ["class": "pois", "fill": Color.poi, "font-size": "10", "fill-opacity": labeled ? "1" : "0.45"])
            for poi in pois {
                let p = frame.point(latitude: poi.position.latitude, longitude: frame.unwrap(poi.position.longitude))
                svg.open("g", ["class": "poi"])
                svg.element("circle", ["cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": labeled ? "2.6" : "1.6"])
                if !poi.label.isEmpty { svg.element("title", text: poi.label) }
                if labeled && !poi.label.isEmpty {
                    svg.element("text", ["x": SVGNumber.format(p.x + 4), "y": SVGNumber.format(p.y - 3), "fill": "#333"], text: poi.label)
                }
                svg.close()
            }
            svg.close()
        }
        if !marked.isEmpty {
            svg.open("g", ["class": "marked", "font-size": "12", "font-weight": "bold"])
            for point in marked {
                let p = frame.point(latitude: point.position.latitude, longitude: frame.unwrap(point.position.longitude))
                svg.element(
                    "circle",
                    [
                        "cx": SVGNumber.format(p.x), "cy": SVGNumber.format(p.y), "r": "5", "fill": Color.marked,
                        "stroke": "#ffffff", "stroke-width": "1.5"
                    ])
                if !point.label.isEmpty {
                    svg.element(
                        "text",
                        [
                            "x": SVGNumber.format(p.x + 8), "y": SVGNumber.format(p.y - 6), "fill": Color.marked,
                            "stroke": "#ffffff", "stroke-width": "3", "paint-order": "stroke"
                        ], text: point.label)
                }
            }
            svg.close()
        }
        if !events.isEmpty {
            svg.open("g", ["class": "events", "stroke": "#ffffff", "stroke-width": "1"])
            for event in events {
                let p = frame.point(latitude: event.position.latitude, longitude: frame.unwrap(event.position.longitude))
                drawMarker(event.kind, at: p, in: &svg, label: event.label)
            }
            svg.close()
        }
        svg.close()

        ScaleBar(frame: frame, maxPixels: frame.plotWidth / 4)
            .draw(in: &svg, x: frame.plotX + 14, y: frame.plotY + frame.plotHeight - 20)
        drawLegend(in: &svg, frame: frame)
        return svg
    }

    /// Every point the view must hold: fence outlines (coarse), cell corners, POIs, fixes, events.
    func extentPoints() -> [LatLng] {
        var points: [LatLng] = []
        for fence in fences {
            let outline = GeoOutline.circle(center: fence.center, radius: fence.radius, segments: 16)
            if outline.pole != 0 || outline.isComplement {
                return fences.map(\.center) + [
                    LatLng(uncheckedLatitude: 90, longitude: -180),
                    LatLng(uncheckedLatitude: -90, longitude: 0),
                    LatLng(uncheckedLatitude: 0, longitude: 120)
                ]
            }
            points += outline.ring.map { LatLng(uncheckedLatitude: $0.latitude, longitude: LatLng.wrapLongitude($0.longitude)) }
        }
        for id in cells {
            let cell = Cell(id)
            points += (0..<4).map { cell.vertex($0).latLng }
        }
        for circle in enclosingCircles {
            points += GeoOutline.circle(center: circle.center, radius: circle.radius, segments: 16).ring.map {
                LatLng(uncheckedLatitude: $0.latitude, longitude: LatLng.wrapLongitude($0.longitude))
            }
        }
        for shape in polygons { points += shape.loops.joined() }
        points += pois.map(\.position)
        points += track.map(\.position)
        points += events.map(\.position)
        return points
    }

    /// Fills and strokes an outline, once for each shift by 360 degrees that reaches the view.
    func drawOutline(_ outline: GeoOutline, frame: MapFrame, in svg: inout SVGDocument, label: String) {
        let polygon = outline.mapPolygon(latitudeLimit: frame.projection.latitudeLimit)
        guard !polygon.isEmpty else { return }
        let range = outline.pole != 0 ? (min: -540.0, max: 540.0) : outline.longitudeRange
        let visible = frame.visible
        let base = frame.unwrap(polygon[0].longitude) - polygon[0].longitude
        for turn in -2...2 {
            let shift = base + 360 * Double(turn)
            guard range.max + shift >= visible.west - 1, range.min + shift <= visible.east + 1 else { continue }
            var d = ""
            for (i, v) in polygon.enumerated() {
                let p = frame.point(latitude: v.latitude, longitude: v.longitude + shift)
                d += (i == 0 ? "M" : " L") + SVGNumber.format(p.x) + " " + SVGNumber.format(p.y)
            }
            d += " Z"
            if outline.isComplement {
                let l = SVGNumber.format(frame.plotX - 10), r = SVGNumber.format(frame.plotX + frame.plotWidth + 10)
                let t = SVGNumber.format(frame.plotY - 10), b = SVGNumber.format(frame.plotY + frame.plotHeight + 10)
                d += " M\(l) \(t) L\(r) \(t) L\(r) \(b) L\(l) \(b) Z"
            }
            svg.open("path", ["d": d, "fill-rule": "evenodd"])
            if !label.isEmpty { svg.element("title", text: label) }
            svg.close()
        }
    }

    /// Fills and strokes a polygon as one path of all its loops (even-odd, so holes stay empty),
    /// once for each shift by 360 degrees that reaches the view.
    func drawShape(_ shape: Shape, frame: MapFrame, in svg: inout SVGDocument) {
        let outlines = shape.loops.filter { !$0.isEmpty }.map { GeoOutline(vertices: $0) }
        guard let first = outlines.first?.ring.first else { return }
        let visible = frame.visible
        let base = frame.unwrap(first.longitude) - first.longitude
        let west = outlines.map(\.longitudeRange.min).min()!, east = outlines.map(\.longitudeRange.max).max()!
        for turn in -2...2 {
            let shift = base + 360 * Double(turn)
            guard east + shift >= visible.west - 1, west + shift <= visible.east + 1 else { continue }
            var d = ""
            for outline in outlines {
                // Each loop shifted to start within 180 degrees of the first loop's first vertex.
                let own = 360 * ((first.longitude - outline.ring[0].longitude) / 360).rounded()
                for (i, v) in outline.mapPolygon(latitudeLimit: frame.projection.latitudeLimit).enumerated() {
                    let p = frame.point(latitude: v.latitude, longitude: v.longitude + own + shift)
                    d += (d.isEmpty ? "M" : i == 0 ? " M" : " L") + SVGNumber.format(p.x) + " " + SVGNumber.format(p.y)
                }
                d += " Z"
            }
            svg.open("path", ["d": d, "fill-rule": "evenodd"])
            if !shape.label.isEmpty { svg.element("title", text: shape.label) }
            svg.close()
        }
    }

    /// An event marker: a triangle up (enter), a triangle down (exit) or a square (dwell).
    func drawMarker(_ kind: EventKind, at p: (x: Double, y: Double), in svg: inout SVGDocument, label: String) {
        let s = 6.0
        let shape: [(x: Double, y: Double)]
        let color: String
        switch kind {
        case .enter: shape = [(p.x, p.y - s), (p.x + s, p.y + s * 0.8), (p.x - s, p.y + s * 0.8)]; color = Color.enter
        case .exit: shape = [(p.x, p.y + s), (p.x + s, p.y - s * 0.8), (p.x - s, p.y - s * 0.8)]; color = Color.exit
        case .dwell:
            shape = [
                (p.x - s * 0.8, p.y - s * 0.8), (p.x + s * 0.8, p.y - s * 0.8),
                (p.x + s * 0.8, p.y + s * 0.8), (p.x - s * 0.8, p.y + s * 0.8)
            ]; color = Color.dwell
        }
        var d = ""
        for (i, q) in shape.enumerated() { d += (i == 0 ? "M" : " L") + SVGNumber.format(q.x) + " " + SVGNumber.format(q.y) }
        svg.open("path", ["class": "event " + kind.rawValue, "d": d + " Z", "fill": color])
        svg.element("title", text: label.isEmpty ? kind.rawValue : label)
        svg.close()
    }

    /// The legend in the plot's top-right corner: one row per layer present.
    func drawLegend(in svg: inout SVGDocument, frame: MapFrame) {
        var rows: [(String, String, String)] = []  // (label, kind of swatch, color)
        if !fences.isEmpty { rows.append(("fence (\(DecimalFormatting.grouped(Double(fences.count), 0)))", "area", Color.fence)) }
        if !polygons.isEmpty { rows.append(("polygon (\(DecimalFormatting.grouped(Double(polygons.count), 0)))", "area", Color.polygon)) }
        if !enclosingCircles.isEmpty { rows.append(("enclosing circle", "dashed", Color.polygon)) }
        if !cells.isEmpty { rows.append(("S2 cell (\(DecimalFormatting.grouped(Double(cells.count), 0)))", "area", Color.cell)) }
        if !pois.isEmpty { rows.append(("POI (\(DecimalFormatting.grouped(Double(pois.count), 0)))", "dot", Color.poi)) }
        if !marked.isEmpty { rows.append((marked.count == 1 ? "the fences' POI" : "the fences' POIs", "dot", Color.marked)) }
        if !track.isEmpty { rows.append(("fixes (\(DecimalFormatting.grouped(Double(track.count), 0)))", "line", Color.track)) }
        if track.count >= 2 {
            rows.append(("start", "start", Color.track))
            rows.append(("end", "end", Color.track))
        }
        for kind in EventKind.allCases {
            let n = events.filter { $0.kind == kind }.count
            if n > 0 { rows.append(("\(kind.rawValue) (\(DecimalFormatting.grouped(Double(n), 0)))", kind.rawValue, "")) }
        }
        guard !rows.isEmpty else { return }
        let boxWidth = 150.0, rowHeight = 18.0
        let x = frame.plotX + frame.plotWidth - boxWidth - 8, y = frame.plotY + 8
        svg.open("g", ["class": "legend", "font-size": "12"])
        svg.element(
            "rect",
            [
                "x": SVGNumber.format(x), "y": SVGNumber.format(y), "width": SVGNumber.format(boxWidth),
                "height": SVGNumber.format(rowHeight * Double(rows.count) + 8), "fill": "#ffffff",
                "fill-opacity": "0.9", "stroke": "#999"
            ])
        for (i, row) in rows.enumerated() {
            let cy = y + 13 + rowHeight * Double(i)
            let sx = x + 16
            switch row.1 {
            case "area":
                svg.element(
                    "rect",
                    [
                        "x": SVGNumber.format(sx - 7), "y": SVGNumber.format(cy - 6), "width": "14", "height": "12",
                        "fill": row.2, "fill-opacity": "0.25", "stroke": row.2
                    ])
            case "dot":
                svg.element("circle", ["cx": SVGNumber.format(sx), "cy": SVGNumber.format(cy), "r": "3", "fill": row.2])
            case "line":
                svg.path([(sx - 8, cy), (sx + 8, cy)], closed: false, ["stroke": row.2, "stroke-width": "1.5"])
            case "dashed":
                svg.path(
                    [(sx - 8, cy), (sx + 8, cy)], closed: false,
                    ["stroke": row.2, "stroke-width": "1.4", "stroke-dasharray": "4 3"])
            case "start":
                svg.element(
                    "circle",
                    [
                        "cx": SVGNumber.format(sx), "cy": SVGNumber.format(cy), "r": "5", "fill": "#ffffff",
                        "stroke": row.2, "stroke-width": "2"
                    ])
            case "end":
                svg.element(
                    "rect",
                    [
                        "x": SVGNumber.format(sx - 5), "y": SVGNumber.format(cy - 5), "width": "10", "height": "10",
                        "fill": row.2
                    ])
            default:
                if let kind = EventKind(rawValue: row.1) { drawMarker(kind, at: (sx, cy), in: &svg, label: kind.rawValue) }
            }
            svg.element("text", ["x": SVGNumber.format(x + 30), "y": SVGNumber.format(cy + 4), "fill": "#222"], text: row.0)
        }
        svg.close()
    }
}
