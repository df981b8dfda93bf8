import Geodesy
import Testing
@testable import Drawing

@Suite struct MapFrameTests {
    /// The whole world in equirectangular on a 360 x 180 plot: one pixel per degree, so known
    /// points land on known pixels.
    @Test func knownPointsLandOnKnownPixelsInEquirectangular() {
        let frame = MapFrame(
            projection: .equirectangular, south: -90, north: 90, west: -180, east: 180,
            plotX: 10, plotY: 20, plotWidth: 360, plotHeight: 180)
        let origin = frame.point(latitude: 0, longitude: 0)
        #expect(abs(origin.x - 190) < 1e-9 && abs(origin.y - 110) < 1e-9)
        let p = frame.point(latitude: 45, longitude: 90)
        #expect(abs(p.x - 280) < 1e-9 && abs(p.y - 65) < 1e-9)
        let corner = frame.point(latitude: -90, longitude: -180)
        #expect(abs(corner.x - 10) < 1e-9 && abs(corner.y - 200) < 1e-9)
    }

    /// Web Mercator's world is square: the latitude limit lands on the plot's top edge, the
    /// equator on its middle, and latitude 60 at y = ln(tan(75°)) = 1.316958 units above it.
    @Test func webMercatorPlacesLatitudesByTheMercatorFormula() {
        let limit = MapProjection.mercatorLatitudeLimit
        let frame = MapFrame(
            projection: .webMercator, south: -limit, north: limit, west: -180, east: 180,
            plotX: 0, plotY: 0, plotWidth: 512, plotHeight: 512)
        #expect(abs(frame.point(latitude: limit, longitude: 0).y) < 1e-6)
        #expect(abs(frame.point(latitude: 0, longitude: 0).y - 256) < 1e-9)
        let unitsPerPixel = 2 * Double.pi / 512
        #expect(abs((256 - frame.point(latitude: 60, longitude: 0).y) * unitsPerPixel - 1.3169578969248166) < 1e-9)
        #expect(abs(frame.point(latitude: 89.9, longitude: 0).y) < 1e-6)  // clamped at the limit
    }

    /// Seeded: pixel -> coordinate inverts coordinate -> pixel in both projections.
    @Test func coordinateInvertsPoint() {
        var rng = SplitMix64(seed: 7)
        for projection in MapProjection.allCases {
            let frame = MapFrame(
                projection: projection, south: 10, north: 70, west: 150, east: 210,
                plotX: 50, plotY: 40, plotWidth: 800, plotHeight: 600)
            for _ in 0..<500 {
                let lat = 10 + 60 * Double(rng.next() % 1_000_000) / 1e6
                let lon = 150 + 60 * Double(rng.next() % 1_000_000) / 1e6
                let p = frame.point(latitude: lat, longitude: lon)
                let back = frame.coordinate(x: p.x, y: p.y)
                #expect(abs(back.latitude - lat) < 1e-9 && abs(back.longitude - lon) < 1e-9, "seed 7, \(projection) \(lat),\(lon)")
            }
        }
    }

    @Test func shortestArcCrossesTheAntimeridianWhenTheDataDoes() {
        #expect(MapFrame.shortestLongitudeArc([170, -170, 179]) == (170, 190))
        #expect(MapFrame.shortestLongitudeArc([-10, 10, 0]) == (-10, 10))
        #expect(MapFrame.shortestLongitudeArc([24.9]) == (24.9, 24.9))
        #expect(MapFrame.shortestLongitudeArc([]) == (-180, 180))
        #expect(MapFrame.shortestLongitudeArc([-180, 180]) == (-180, -180))
    }

    @Test func fittingKeepsEveryPointInsideThePlot() throws {
        let points = [try LatLng(latitude: 51.0, longitude: 179.5), try LatLng(latitude: 52.0, longitude: -179.0)]
        for projection in MapProjection.allCases {
            let frame = MapFrame.fitting(points, projection: projection, plotX: 0, plotY: 0, plotWidth: 400, plotHeight: 300)
            #expect(frame.east - frame.west < 5)  // the short way round, not the whole world
            for p in points {
                let q = frame.point(latitude: p.latitude, longitude: frame.unwrap(p.longitude))
                #expect(q.x > 0 && q.x < 400 && q.y > 0 && q.y < 300)
            }
        }
        let world = MapFrame.fitting([], projection: .equirectangular, plotX: 0, plotY: 0, plotWidth: 360, plotHeight: 180)
        #expect(world.west == -180 && world.east == 180 && world.south == -90 && world.north == 90)
    }

    @Test func graticuleAndScaleBarUseRoundValues() {
        let frame = MapFrame(
            projection: .webMercator, south: 60.1, north: 60.3, west: 24.8, east: 25.1,
            plotX: 0, plotY: 0, plotWidth: 900, plotHeight: 700)
        let graticule = Graticule(frame: frame)
        // 0.2° of latitude at 60°N is as tall as 0.4° of longitude is wide in Web Mercator, and
        // the view widens to the plot's aspect: about 0.6° across, so 0.1° lines (at most 8).
        #expect(graticule.step == 0.1)
        #expect(graticule.latitudes.count >= 2 && graticule.longitudes.count >= 5)
        #expect(graticule.latitudeLabel(60.2) == "60.2°N")
        #expect(graticule.longitudeLabel(181) == "179.0°W")
        #expect(graticule.longitudeLabel(-33.5) == "33.5°W")
        #expect(graticule.longitudeLabel(180) == "180°")
        #expect(graticule.latitudeLabel(0) == "0°")
        let world = MapFrame(
            projection: .equirectangular, south: -90, north: 90, west: -180, east: 180,
            plotX: 0, plotY: 0, plotWidth: 720, plotHeight: 360)
        #expect(Graticule(frame: world).step == 45)
        #expect(Graticule(frame: world).latitudeLabel(-45) == "45°S")
        let bar = ScaleBar(frame: frame, maxPixels: 225)
        #expect([1.0, 2, 5].contains(bar.meters / pow10(floorLog10(bar.meters))))
        #expect(bar.pixels <= 225 && bar.pixels > 225 / 5.01)
        // Meters per pixel along the parallel: R cos(lat) per radian of longitude.
        let expected = bar.meters / (Earth.meanRadius * cosDegrees(bar.latitude) / frame.pixelsPerUnit)
        #expect(abs(bar.pixels - expected) < 1e-9)
    }

    /// Points all beyond Web Mercator's latitude limit on one side (a fence at 89°S) give a thin
    /// strip along that edge of the map, north and south alike, not an empty view.
    @Test func fittingPointsBeyondTheMercatorLimitGivesAStripAtTheEdge() {
        let limit = MapProjection.mercatorLatitudeLimit
        for latitude in [-89.0, 89.0] {
            let frame = MapFrame.fitting(
                [LatLng(uncheckedLatitude: latitude, longitude: 10)], projection: .webMercator,
                plotX: 0, plotY: 0, plotWidth: 400, plotHeight: 300)
            #expect(frame.south < frame.north)
            #expect(abs(latitude < 0 ? frame.south + limit : frame.north - limit) < 1e-9)
            #expect(frame.north - frame.south <= 0.01 + 1e-9)
        }
    }

    /// Pixel radii past `Int`'s range, infinite, NaN or negative still give 16...360 segments.
    @Test func segmentsForAnyPixelRadius() {
        #expect(GeoOutline.segments(forPixelRadius: 1e300) == 360)
        #expect(GeoOutline.segments(forPixelRadius: .infinity) == 360)
        #expect(GeoOutline.segments(forPixelRadius: .nan) == 360)
        #expect(GeoOutline.segments(forPixelRadius: -5) == 16)
        #expect(GeoOutline.segments(forPixelRadius: 100) == 210)
    }
}

private func floorLog10(_ v: Double) -> Int { var p = 0; var x = v; while x >= 10 { x /= 10; p += 1 }; while x < 1 { x *= 10; p -= 1 }; return p }
private func pow10(_ k: Int) -> Double { var r = 1.0; for _ in 0..<abs(k) { r *= 10 }; return k >= 0 ? r : 1 / r }
private func cosDegrees(_ d: Double) -> Double { UnitVector(LatLng(uncheckedLatitude: d, longitude: 0)).x }
