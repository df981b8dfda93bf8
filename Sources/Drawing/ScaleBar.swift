import NumberFormatting

/// A scale bar: a round ground distance (1, 2 or 5 times a power of ten meters) and its length
/// in pixels along the parallel at the frame's center latitude.
///
/// In Web Mercator and equirectangular maps the east-west scale changes with latitude, so the
/// bar says which latitude it holds at.
public struct ScaleBar: Sendable {
    /// The distance the bar stands for, meters.
    public let meters: Double
    /// The bar's length, pixels.
    public let pixels: Double
    /// The latitude (degrees) where the bar is true.
    public let latitude: Double

    /// The longest round distance whose bar is at most `maxPixels` long at the center latitude
    /// of the frame's visible area.
    public init(frame: MapFrame, maxPixels: Double) {
        let v = frame.visible
        latitude = (v.north + v.south) / 2
        let metersPerPixel = frame.metersPerPixel(atLatitude: latitude)
        let budget = maxPixels * metersPerPixel
        var power = 1.0
        while power * 10 <= budget { power *= 10 }
        while power > budget && power > 1e-3 { power /= 10 }
        let multiple = [5.0, 2, 1].first { $0 * power <= budget } ?? 1
        meters = multiple * power
        pixels = meters / metersPerPixel
    }

    /// The label under the bar, e.g. `2 km (at 60.2°N)`.
    public var label: String {
        let lat = DecimalFormatting.fixed(abs(latitude), 1) + (latitude >= 0 ? "°N" : "°S")
        return NumberText.meters(meters) + " (at " + lat + ")"
    }

    /// Draws the bar with end ticks and its label, left end at (`x`, `y`), into `svg` in a group of
    /// class `scale-bar`.
    public func draw(in svg: inout SVGDocument, x: Double, y: Double) {
        svg.open("g", ["class": "scale-bar"])
        svg.element(
            "rect",
            [
                "x": SVGNumber.format(x - 6), "y": SVGNumber.format(y - 16), "width": SVGNumber.format(pixels + 12),
                "height": "30", "fill": "#ffffff", "fill-opacity": "0.8"
            ])
        svg.path(
            [(x, y - 5), (x, y), (x + pixels, y), (x + pixels, y - 5)], closed: false,
            ["stroke": "#222", "stroke-width": "2", "fill": "none"])
        svg.element(
            "text", ["x": SVGNumber.format(x), "y": SVGNumber.format(y + 12), "font-size": "11", "fill": "#222"],
            text: label)
        svg.close()
    }
}
