import NumberFormatting

/// Latitude and longitude lines at a round spacing, with labels in degrees.
///
/// In both of the package's projections meridians are vertical and parallels horizontal, so each
/// line is one straight segment across the plot.
public struct Graticule: Sendable {
    /// Spacing between neighboring lines, degrees.
    public let step: Double
    /// Latitudes of the parallels drawn (degrees).
    public let latitudes: [Double]
    /// Longitudes of the meridians drawn (degrees, unwrapped into the frame's range).
    public let longitudes: [Double]

    /// Spacings a graticule may use (degrees): 1, 2 and 5 times a power of ten, and the
    /// customary 15, 30 and 45 for whole-world views.
    public static let steps: [Double] = [
        0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
        0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45
    ]

    /// The graticule for the frame's visible area: the finest step that gives at most
    /// `maxLines` lines along the longer side.
    public init(frame: MapFrame, maxLines: Int = 8) {
        let v = frame.visible
        // A view wider than the world repeats it; meridians are labeled once, over the frame's range.
        let (west, east) = v.east - v.west > 360 ? (frame.west, frame.east) : (v.west, v.east)
        let span = max(v.north - v.south, east - west)
        step = Self.steps.first { span / $0 <= Double(maxLines) } ?? 90
        latitudes = Self.multiples(of: step, from: v.south, to: v.north)
        longitudes = Self.multiples(of: step, from: west, to: east)
    }

    static func multiples(of step: Double, from low: Double, to high: Double) -> [Double] {
        var out: [Double] = []
        var k = (low / step).rounded(.up)
        while k * step <= high && out.count < 1000 {
            out.append(k * step)
            k += 1
        }
        return out
    }

    /// Decimal places that show `step` exactly (0 for whole degrees, 2 for 0.05).
    public var decimals: Int {
        var d = 0, s = step
        while (s - s.rounded()).magnitude > 1e-9 && d < 6 { s *= 10; d += 1 }
        return d
    }

    /// A latitude label: `60.15°N`, `33°S`, `0°`.
    public func latitudeLabel(_ latitude: Double) -> String {
        let text = DecimalFormatting.fixed(abs(latitude), decimals)
        if abs(latitude) < step / 1e6 { return "0°" }
        return text + (latitude > 0 ? "°N" : "°S")
    }

    /// A longitude label for an unwrapped longitude: `24.9°E`, `179°W` (for 181), `180°`.
    public func longitudeLabel(_ longitude: Double) -> String {
        let lon = longitude - 360 * (longitude / 360).rounded()  // into [-180, 180]
        if abs(lon) < step / 1e6 { return "0°" }
        if abs(abs(lon) - 180) < step / 1e6 { return "180°" }
        return DecimalFormatting.fixed(abs(lon), decimals) + (lon > 0 ? "°E" : "°W")
    }

    /// Draws the lines (thin gray) and their labels (along the left and bottom edges of the plot)
    /// into `svg`, in a group of class `graticule`.
    public func draw(in svg: inout SVGDocument, frame: MapFrame) {
        svg.open("g", ["class": "graticule", "stroke": "#b8b8b8", "stroke-width": "0.6", "fill": "none"])
        let left = frame.plotX, right = frame.plotX + frame.plotWidth
        let top = frame.plotY, bottom = frame.plotY + frame.plotHeight
        for lat in latitudes {
            let y = frame.point(latitude: lat, longitude: frame.west).y
            svg.path([(left, y), (right, y)], closed: false, ["class": "parallel"])
        }
        for lon in longitudes {
            let x = frame.point(latitude: 0, longitude: lon).x
            svg.path([(x, top), (x, bottom)], closed: false, ["class": "meridian"])
        }
        svg.close()
        svg.open("g", ["class": "graticule-labels", "font-size": "11", "fill": "#555"])
        for lat in latitudes {
            let y = frame.point(latitude: lat, longitude: frame.west).y
            svg.element(
                "text", ["x": SVGNumber.format(left - 4), "y": SVGNumber.format(y + 4), "text-anchor": "end"],
                text: latitudeLabel(lat))
        }
        for lon in longitudes {
            let x = frame.point(latitude: 0, longitude: lon).x
            svg.element(
                "text", ["x": SVGNumber.format(x), "y": SVGNumber.format(bottom + 14), "text-anchor": "middle"],
                text: longitudeLabel(lon))
        }
        svg.close()
    }
}
