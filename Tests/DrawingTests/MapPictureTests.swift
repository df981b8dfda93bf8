import Geodesy
import GeoCells
import Testing
@testable import Drawing

@Suite struct MapPictureTests {
    func helsinkiMap() throws -> MapPicture {
        let center = try LatLng(latitude: 60.1699, longitude: 24.9384)
        var map = MapPicture(title: "Helsinki <test> & friends")
        map.notes = ["3 fences, 1 cover"]
        map.fences = [1609.344, 4828.032, 8046.72].map { MapPicture.Circle(center: center, radius: $0, label: "tier \($0) m") }
        map.cells = try RegionCoverer(maxCells: 8).covering(of: Cap(center: center, meters: 1609.344))
        map.pois = [MapPicture.Point(position: center, label: "Yliopiston apteekki")]
        map.track = (0..<20).map { k in MapPicture.Point(position: LatLng(uncheckedLatitude: 60.30 - Double(k) * 0.01, longitude: 24.932)) }
        map.events = [
            MapPicture.Event(position: map.track[5].position, kind: .enter, label: "enter fence 0"),
            MapPicture.Event(position: map.track[12].position, kind: .dwell),
            MapPicture.Event(position: map.track[18].position, kind: .exit)
        ]
        return map
    }

    @Test func aFullMapIsWellFormedAndHasEveryLayer() throws {
        let map = try helsinkiMap()
        let xml = ParsedXML(map.render().fileText)
        #expect(xml.isWellFormed, "\(xml.error ?? "")")
        #expect(xml.withClass("fences").count == 1)
        #expect(xml.withClass("cells").count == 1)
        #expect(xml.withClass("graticule").count == 1)
        #expect(xml.withClass("scale-bar").count == 1)
        #expect(xml.withClass("legend").count == 1)
        #expect(xml.withClass("track").count == 1)
        #expect(xml.withClass("poi").count == 1)
        #expect(xml.withClass("enter").count == 2)  // the marker and its legend swatch
        #expect(xml.withClass("exit").count == 2)
        #expect(xml.withClass("dwell").count == 2)
        #expect(xml.withClass("meridian").count >= 2 && xml.withClass("parallel").count >= 2)
        #expect(xml.all("title").first?.text == "Helsinki <test> & friends")
        let fencePaths = xml.elements.filter { $0.name == "path" && $0.attributes["fill-rule"] != nil }
        #expect(fencePaths.count == 3 + map.cells.count)
        #expect(!map.render().fileText.contains("nan"))
    }

    /// A trajectory gets a start ring at its first fix and an end square at its last, both in the
    /// legend; a marked point is drawn red with its label written out.
    @Test func trajectoriesHaveStartAndEndAndMarkedPointsTheirLabel() throws {
        var map = try helsinkiMap()
        map.marked = [MapPicture.Point(position: map.pois[0].position, label: "the chosen <pharmacy>")]
        let xml = ParsedXML(map.render().fileText)
        #expect(xml.isWellFormed, "\(xml.error ?? "")")
        let frame = MapFrame.fitting(
            map.extentPoints(), projection: map.projection, plotX: 64, plotY: 55,
            plotWidth: map.width - 84, plotHeight: map.height - 55 - 30)
        let start = try #require(xml.elements.first { $0.name == "circle" && $0.classes.contains("start") })
        let first = frame.point(latitude: map.track[0].position.latitude, longitude: map.track[0].position.longitude)
        #expect(start.attributes["cx"] == SVGNumber.format(first.x) && start.attributes["cy"] == SVGNumber.format(first.y))
        let end = try #require(xml.elements.first { $0.name == "rect" && $0.classes.contains("end") })
        let last = frame.point(latitude: map.track[19].position.latitude, longitude: map.track[19].position.longitude)
        #expect(end.attributes["x"] == SVGNumber.format(last.x - 5) && end.attributes["y"] == SVGNumber.format(last.y - 5))
        let legend = xml.all("text").map(\.text)
        #expect(legend.contains("start") && legend.contains("end") && legend.contains("the fences' POI"))
        #expect(legend.contains("the chosen <pharmacy>"))
        #expect(xml.withClass("marked").count == 1)
    }

    /// Up to ``MapPicture/labeledPOILimit`` POIs are labeled; more are drawn small, faint and unlabeled.
    @Test func manyPOIsAreThinnedNotLabelled() throws {
        var map = try helsinkiMap()
        let center = map.pois[0].position
        map.pois = (0..<(MapPicture.labeledPOILimit + 1)).map { k in
            MapPicture.Point(
                position: LatLng(uncheckedLatitude: center.latitude + Double(k) * 1e-4, longitude: center.longitude),
                label: "poi \(k)")
        }
        let xml = ParsedXML(map.render().fileText)
        let group = try #require(xml.elements.first { $0.classes.contains("pois") })
        #expect(group.attributes["fill-opacity"] == "0.45")
        #expect(!xml.all("text").contains { $0.text == "poi 0" })
        map.pois.removeLast()
        #expect(ParsedXML(map.render().fileText).all("text").contains { $0.text == "poi 0" })
    }

    /// The POI dot sits exactly where the frame puts its coordinates.
    @Test func aPOILandsWhereTheFrameSays() throws {
        let map = try helsinkiMap()
        let frame = MapFrame.fitting(
            map.extentPoints(), projection: map.projection, plotX: 64, plotY: 55,
            plotWidth: map.width - 84, plotHeight: map.height - 55 - 30)
        let expected = frame.point(latitude: 60.1699, longitude: 24.9384)
        let xml = ParsedXML(map.render().fileText)
        let group = try #require(xml.elements.firstIndex { $0.classes.contains("poi") })
        let dot = xml.elements[group + 1]
        #expect(dot.name == "circle")
        #expect(abs(Double(dot.attributes["cx"]!)! - expected.x) < 0.01)
        #expect(abs(Double(dot.attributes["cy"]!)! - expected.y) < 0.01)
    }

    /// A fence on the antimeridian is drawn as one continuous ring: no edge jumps across the map.
    @Test func antimeridianFencesDrawWithoutJumps() throws {
        var map = MapPicture(title: "Fiji")
        map.fences = [
            MapPicture.Circle(center: try LatLng(latitude: -16.5, longitude: 179.95), radius: 20_000),
            MapPicture.Circle(center: try LatLng(latitude: -16.6, longitude: -179.9), radius: 15_000)
        ]
        map.track = [
            MapPicture.Point(position: try LatLng(latitude: -16.5, longitude: 179.97)),
            MapPicture.Point(position: try LatLng(latitude: -16.55, longitude: -179.97))
        ]
        for projection in MapProjection.allCases {
            map.projection = projection
            let xml = ParsedXML(map.render().fileText)
            #expect(xml.isWellFormed)
            let paths = xml.elements.filter { $0.name == "path" && $0.attributes["fill-rule"] != nil }
            #expect(paths.count >= 2)
            for path in paths + xml.withClass("track") {
                for ring in subpaths(path.attributes["d"]!) {
                    for k in 1..<ring.count { #expect(abs(ring[k].x - ring[k - 1].x) < map.width / 4, "\(projection) \(path.attributes["d"]!)") }
                    // Inside the canvas: the view is the antimeridian, not the whole world.
                    #expect(ring.allSatisfy { $0.x > 0 && $0.x < map.width })
                }
            }
        }
    }

    /// A fence around the North Pole fills the polar side of the map: its polygon reaches the
    /// top of the projection, and nothing is NaN.
    @Test func polarFencesDrawSanely() throws {
        for projection in MapProjection.allCases {
            var map = MapPicture(title: "Pole")
            map.projection = projection
            map.fences = [
                MapPicture.Circle(center: try LatLng(latitude: 88, longitude: 45), radius: 500_000),
                MapPicture.Circle(center: try LatLng(latitude: -90, longitude: 0), radius: 300_000)
            ]
            let text = map.render().fileText
            #expect(!text.contains("nan") && !text.contains("inf"))
            let xml = ParsedXML(text)
            #expect(xml.isWellFormed)
            let paths = xml.elements.filter { $0.name == "path" && $0.attributes["fill-rule"] != nil }
            #expect(paths.count >= 2)
            let ys = paths.flatMap { subpaths($0.attributes["d"]!).flatMap { $0.map(\.y) } }
            #expect(ys.min()! < 60)  // reaches the top edge of the plot (y = 40)
            #expect(ys.max()! > map.height - 40)  // and the bottom one
        }
    }

    @Test func anEmptyMapShowsTheWorld() {
        let xml = ParsedXML(MapPicture(title: "nothing").render().fileText)
        #expect(xml.isWellFormed)
        #expect(xml.withClass("legend").isEmpty)
        #expect(xml.withClass("meridian").count >= 3)
    }
}
