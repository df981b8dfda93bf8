/// A measure of cell size that scales as `deriv * 2^(-dim * level)` (S2's `S2::Metric`):
/// dimension 1 for lengths (angles in radians on the unit sphere), 2 for areas
/// (steradians). Each constant bounds or averages a quantity over all cells of a level,
/// for S2's quadratic projection (values from `s2metrics.cc`).
///
/// Example: `CellMetric.minWidth.levelForMinValue(r)` is the deepest level whose cells are
/// all at least `r` radians wide.
public struct CellMetric: Hashable, Sendable {
    /// The scale factor: the metric's value at level 0.
    public let deriv: Double
    /// 1 for lengths, 2 for areas.
    public let dim: Int

    /// A metric with value `deriv` at level 0 and dimension `dim` (1 lengths, 2 areas).
    @inlinable
    public init(deriv: Double, dim: Int) {
        self.deriv = deriv
        self.dim = dim
    }

    // Lengths (dim 1), radians. The quadratic projection's constants were derived in S2.
    /// Minimum angular span (`kMinAngleSpan`).
    public static let minAngleSpan = CellMetric(deriv: 4.0 / 3, dim: 1)
    /// Maximum angular span (`kMaxAngleSpan`).
    public static let maxAngleSpan = CellMetric(deriv: 1.704897179199218452, dim: 1)
    /// Average angular span (`kAvgAngleSpan`): π/2 for every projection.
    public static let avgAngleSpan = CellMetric(deriv: Double.pi / 2, dim: 1)
    /// Minimum width: the least distance between opposite edges (`kMinWidth`).
    public static let minWidth = CellMetric(deriv: 2 * 2.0.squareRoot() / 3, dim: 1)
    /// Maximum width (`kMaxWidth`) = maximum angular span.
    public static let maxWidth = CellMetric(deriv: 1.704897179199218452, dim: 1)
    /// Average width (`kAvgWidth`).
    public static let avgWidth = CellMetric(deriv: 1.434523672886099389, dim: 1)
    /// Minimum edge length (`kMinEdge`).
    public static let minEdge = CellMetric(deriv: 2 * 2.0.squareRoot() / 3, dim: 1)
    /// Maximum edge length (`kMaxEdge`) = maximum angular span.
    public static let maxEdge = CellMetric(deriv: 1.704897179199218452, dim: 1)
    /// Average edge length (`kAvgEdge`).
    public static let avgEdge = CellMetric(deriv: 1.459213746386106062, dim: 1)
    /// Minimum diagonal (`kMinDiag`).
    public static let minDiag = CellMetric(deriv: 8 * 2.0.squareRoot() / 9, dim: 1)
    /// Maximum diagonal (`kMaxDiag`).
    public static let maxDiag = CellMetric(deriv: 2.438654594434021032, dim: 1)
    /// Average diagonal (`kAvgDiag`).
    public static let avgDiag = CellMetric(deriv: 2.060422738998471683, dim: 1)

    // Areas (dim 2), steradians.
    /// Minimum area (`kMinArea`).
    public static let minArea = CellMetric(deriv: 8 * 2.0.squareRoot() / 9, dim: 2)
    /// Maximum area (`kMaxArea`).
    public static let maxArea = CellMetric(deriv: 2.635799256963161491, dim: 2)
    /// Average area (`kAvgArea`): 4π/6, a sixth of the sphere, for every projection.
    public static let avgArea = CellMetric(deriv: 4 * Double.pi / 6, dim: 2)

    /// Maximum ratio of a cell's longest edge to its shortest (`kMaxEdgeAspect`).
    public static let maxEdgeAspect = 1.442615274452682920
    /// Maximum ratio of a cell's diagonals (`kMaxDiagAspect`): sqrt(3).
    public static let maxDiagAspect = 3.0.squareRoot()

    /// The metric at `level`: `deriv * 2^(-dim * level)`, exact (`GetValue`, via ldexp).
    @inlinable
    public func value(level: Int) -> Double {
        Double(sign: .plus, exponent: -dim * level, significand: deriv)
    }

    /// S2 spelling of ``value(level:)``.
    @inlinable
    public func getValue(_ level: Int) -> Double { value(level: level) }

    /// The shallowest level (0...30) whose metric is at most `value`: rounding a real-valued
    /// level up (`GetLevelForMaxValue`). Returns 30 when `value <= 0`.
    @inlinable
    public func levelForMaxValue(_ value: Double) -> Int {
        if value <= 0 { return CellID.maxLevel }
        // ilogb(value / deriv): the binary exponent of a fraction in [1, 2).
        let level = (value / deriv).exponent
        return max(0, min(CellID.maxLevel, 0 &- (level >> (dim - 1))))
    }

    /// The deepest level (0...30) whose metric is at least `value`: rounding a real-valued
    /// level down (`GetLevelForMinValue`). Returns 30 when `value <= 0`.
    @inlinable
    public func levelForMinValue(_ value: Double) -> Int {
        if value <= 0 { return CellID.maxLevel }
        let level = (deriv / value).exponent
        return max(0, min(CellID.maxLevel, level >> (dim - 1)))
    }

    /// The level whose metric is closest to `value` (`GetClosestLevel`): the max-value level
    /// of `value * sqrt(2)` for lengths, `value * 2` for areas.
    @inlinable
    public func closestLevel(_ value: Double) -> Int {
        levelForMaxValue((dim == 1 ? 2.0.squareRoot() : 2) * value)
    }
}
