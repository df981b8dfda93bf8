#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Geodesy

/// The part of the Earth a map shows and where it lands on the canvas: a latitude range, a
/// longitude range that may run past ±180 (so a view across the antimeridian is one interval,
/// `west < east`, for example 170...190), a projection, and a plot rectangle in pixels.
///
/// The scale is the same on both axes (the projection's shape is kept); the view is centered in
/// the plot rectangle, so one of the two ranges usually shows a little more than asked for.
public struct MapFrame: Sendable {
    /// The projection from degrees to map units.
    public let projection: MapProjection
    /// Southern and northern edge of the requested view (degrees, within the projection's limit).
    public let south: Double, north: Double
    /// Western and eastern edge of the requested view (degrees, `west < east <= west + 360`;
    /// values beyond ±180 denote the same meridians shifted by 360).
    public let west: Double, east: Double
    /// The plot rectangle in pixels (origin top left, y down).
    public let plotX: Double, plotY: Double, plotWidth: Double, plotHeight: Double
    /// Pixels per projected unit (per radian of longitude), the same for x and y.
    public let pixelsPerUnit: Double
    private let originX: Double, originY: Double

    /// A frame that shows latitudes `south...north` and longitudes `west...east` inside the plot
    /// rectangle.
    ///
    /// - Precondition: the four edges are finite, `south < north`, `west < east <= west + 360`,
    ///   and `plotWidth > 0`, `plotHeight > 0`.
    public init(
        projection: MapProjection, south: Double, north: Double, west: Double, east: Double,
        plotX: Double, plotY: Double, plotWidth: Double, plotHeight: Double
    ) {
        precondition(south.isFinite && north.isFinite && west.isFinite && east.isFinite, "MapFrame: ranges must be finite")
        precondition(south < north && west < east && east - west <= 360, "MapFrame: empty or too wide a view")
        precondition(plotWidth > 0 && plotHeight > 0, "MapFrame: the plot rectangle must have an area")
        self.projection = projection
        let limit = projection.latitudeLimit
        self.south = max(-limit, south)
        self.north = min(limit, north)
        self.west = west
        self.east = east
        self.plotX = plotX
        self.plotY = plotY
        self.plotWidth = plotWidth
        self.plotHeight = plotHeight
        let unitsWide = projection.x(longitude: east) - projection.x(longitude: west)
        let unitsHigh = max(projection.y(latitude: self.north) - projection.y(latitude: self.south), 1e-12)
        pixelsPerUnit = min(plotWidth / unitsWide, plotHeight / unitsHigh)
        let centerX = (projection.x(longitude: east) + projection.x(longitude: west)) / 2
        let centerY = (projection.y(latitude: self.north) + projection.y(latitude: self.south)) / 2
        originX = plotX + plotWidth / 2 - centerX * pixelsPerUnit
        originY = plotY + plotHeight / 2 + centerY * pixelsPerUnit
    }

    /// Pixel position of a latitude/longitude in degrees. The longitude is used as given (call
    /// ``unwrap(_:)`` first for a longitude in [-180, 180] that should land in the view).
    public func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (
            originX + projection.x(longitude: longitude) * pixelsPerUnit,
            originY - projection.y(latitude: latitude) * pixelsPerUnit
        )
    }

    /// The latitude/longitude (degrees) at a pixel position; the inverse of
    /// ``point(latitude:longitude:)``.
    public func coordinate(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        let px = (x - originX) / pixelsPerUnit, py = (originY - y) / pixelsPerUnit
        let latitude: Double
        switch projection {
        case .equirectangular: latitude = degrees(radians: py)
        case .webMercator: latitude = degrees(radians: 2 * atan(exp(py)) - Double.pi / 2)
        }
        return (latitude, degrees(radians: px))
    }

    /// The longitude shifted by a multiple of 360 degrees to lie as near the view's center as
    /// possible.
    public func unwrap(_ longitude: Double) -> Double {
        let center = (west + east) / 2
        return longitude - 360 * ((longitude - center) / 360).rounded()
    }

    /// Ground meters per pixel along the parallel at `latitude` (degrees).
    public func metersPerPixel(atLatitude latitude: Double) -> Double {
        projection.metersPerUnit(atLatitude: latitude) / pixelsPerUnit
    }

    /// The latitude and longitude ranges actually visible in the plot rectangle (a little more
    /// than asked for along one axis), clamped to the projection's latitude limit.
    public var visible: (south: Double, north: Double, west: Double, east: Double) {
        let topLeft = coordinate(x: plotX, y: plotY)
        let bottomRight = coordinate(x: plotX + plotWidth, y: plotY + plotHeight)
        let limit = projection.latitudeLimit
        return (max(-limit, bottomRight.latitude), min(limit, topLeft.latitude), topLeft.longitude, bottomRight.longitude)
    }

    /// The frame that shows every point of `points` with `marginFraction` of the span added on
    /// each side, never less than `minimumSpanDegrees` across. Longitudes are covered by the
    /// shortest arc holding them all (a cluster around ±180 gives a view across the antimeridian).
    /// With no points, the whole world.
    ///
    /// - Precondition: `minimumSpanDegrees > 0`, `marginFraction >= 0` (both finite), a plot
    ///   rectangle with an area, and finite coordinates in `points` (as ``init(projection:south:north:west:east:plotX:plotY:plotWidth:plotHeight:)``).
    /// - Complexity: O(n log n) for n points (the longitudes are sorted to find the widest gap).
    public static func fitting(
        _ points: [LatLng], projection: MapProjection, plotX: Double, plotY: Double,
        plotWidth: Double, plotHeight: Double, marginFraction: Double = 0.08,
        minimumSpanDegrees: Double = 0.01
    ) -> MapFrame {
        let limit = projection.latitudeLimit
        guard !points.isEmpty else {
            return MapFrame(
                projection: projection, south: -limit, north: limit, west: -180, east: 180,
                plotX: plotX, plotY: plotY, plotWidth: plotWidth, plotHeight: plotHeight)
        }
        var south = Double.infinity, north = -Double.infinity
        for p in points {
            south = min(south, p.latitude)
            north = max(north, p.latitude)
        }
        var (west, east) = shortestLongitudeArc(points.map(\.longitude))
        let latSpan = max(north - south, minimumSpanDegrees)
        let lonSpan = max(east - west, minimumSpanDegrees)
        let latCenter = (north + south) / 2, lonCenter = (east + west) / 2
        south = max(-limit, latCenter - latSpan * (0.5 + marginFraction))
        north = min(limit, latCenter + latSpan * (0.5 + marginFraction))
        if south >= north {
            // Every point lies beyond the projection's latitude limit on one side: show a strip
            // along that edge.
            if latCenter >= 0 { south = max(-limit, north - minimumSpanDegrees) } else { north = min(limit, south + minimumSpanDegrees) }
        }
        west = lonCenter - lonSpan * (0.5 + marginFraction)
        east = lonCenter + lonSpan * (0.5 + marginFraction)
        if east - west > 360 { west = lonCenter - 180; east = lonCenter + 180 }
        return MapFrame(
            projection: projection, south: south, north: north, west: west, east: east,
            plotX: plotX, plotY: plotY, plotWidth: plotWidth, plotHeight: plotHeight)
    }

    /// The shortest longitude interval `west...east` (degrees, `west` in [-180, 180), `east`
    /// possibly beyond 180) that holds every given longitude: the complement of the widest gap
    /// between neighboring longitudes around the circle.
    public static func shortestLongitudeArc(_ longitudes: [Double]) -> (west: Double, east: Double) {
        guard !longitudes.isEmpty else { return (-180, 180) }
        let sorted = longitudes.map { LatLng.wrapLongitude($0) }.sorted()
        var widestGap = sorted[0] + 360 - sorted[sorted.count - 1]
        var westIndex = 0
        for i in 1..<sorted.count where sorted[i] - sorted[i - 1] > widestGap {
            widestGap = sorted[i] - sorted[i - 1]
            westIndex = i
        }
        let west = sorted[westIndex]
        let east = westIndex == 0 ? sorted[sorted.count - 1] : sorted[westIndex - 1] + 360
        return (west, east)
    }
}
