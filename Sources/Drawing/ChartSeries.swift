/// One data series of a ``Chart``: a name for the legend, its points in data units, and how they
/// are drawn.
public struct ChartSeries: Sendable {
    /// How the points are drawn.
    public enum Style: String, Sendable {
        /// A line through the points in the order given.
        case line
        /// A marker at each point.
        case scatter
        /// A line with a marker at each point.
        case lineWithMarkers
        /// A staircase (for cumulative distributions): horizontal, then vertical.
        case steps
    }

    /// The legend text.
    public var name: String
    /// The points, data units, in drawing order.
    public var points: [(x: Double, y: Double)]
    /// Line, markers, both, or steps.
    public var style: Style
    /// Dashed line (to tell apart series of one kind, such as peers beside our own indexes).
    public var dashed: Bool
    /// The line color (any SVG color); `nil` takes the chart palette's color for the series'
    /// position. Set it to keep one thing the same color across several charts.
    public var color: String?
    /// Values of the source data that could not become points (non-finite inputs of ``cdf(_:values:dashed:)``);
    /// the chart reports them with the points it cannot place.
    public var omittedCount = 0

    /// A series named `name`.
    public init(_ name: String, points: [(x: Double, y: Double)], style: Style = .lineWithMarkers, dashed: Bool = false) {
        self.name = name
        self.points = points
        self.style = style
        self.dashed = dashed
    }

    /// The empirical cumulative distribution of `values`: for each distinct value v (ascending),
    /// the point (v, fraction of values <= v), drawn as ``Style/steps``. Non-finite values are left
    /// out and counted in `droppedCount`-style notes by the chart (they cannot be placed).
    /// - Complexity: O(n log n).
    public static func cdf(_ name: String, values: [Double], dashed: Bool = false) -> ChartSeries {
        let sorted = values.filter(\.isFinite).sorted()
        var points: [(x: Double, y: Double)] = []
        let n = Double(sorted.count)
        for (i, v) in sorted.enumerated() where i == sorted.count - 1 || sorted[i + 1] != v {
            points.append((v, Double(i + 1) / n))
        }
        var series = ChartSeries(name, points: points, style: .steps, dashed: dashed)
        series.omittedCount = values.count - sorted.count
        return series
    }
}

/// A point a chart calls out with a ring and a label (such as "defaults" on a trade-off curve).
public struct ChartHighlight: Sendable {
    /// Position in data units.
    public var x: Double, y: Double
    /// Text beside the ring.
    public var label: String
    /// A highlight at (`x`, `y`).
    public init(x: Double, y: Double, label: String) {
        self.x = x
        self.y = y
        self.label = label
    }
}
