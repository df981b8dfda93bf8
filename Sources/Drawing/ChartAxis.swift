#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One axis of a ``Chart``: its label (with the unit), its scale, and optionally a fixed range.
///
/// Ticks fall on round values: 1, 2 or 5 times a power of ten on a linear axis; every decade on
/// a logarithmic one (with 2 and 5 in between when the range spans fewer than three decades).
public struct ChartAxis: Sendable {
    /// How data values map to positions.
    public enum Scale: String, Sendable {
        /// Position proportional to the value.
        case linear
        /// Position proportional to log10 of the value; only positive values can be drawn.
        case logarithmic
    }

    /// The axis title, naming the quantity and its unit: "fences", "fixes per second (millions)".
    public var label: String
    /// Linear or logarithmic.
    public var scale: Scale
    /// A fixed range in data units; `nil` fits the data (padded to round ticks).
    public var range: ClosedRange<Double>?
    /// Tick label text for a value (short SI forms by default: `3k`, `1.5M`).
    public var tickLabel: @Sendable (Double) -> String

    /// An axis titled `label`.
    public init(
        _ label: String, scale: Scale = .linear, range: ClosedRange<Double>? = nil,
        tickLabel: @escaping @Sendable (Double) -> String = { NumberText.short($0) }
    ) {
        self.label = label
        self.scale = scale
        self.range = range
        self.tickLabel = tickLabel
    }

    /// True when `value` can be placed on this axis (finite, and positive on a log axis).
    public func canShow(_ value: Double) -> Bool { value.isFinite && (scale == .linear || value > 0) }

    /// The value in axis space: itself (linear) or its log10 (logarithmic).
    public func transformed(_ value: Double) -> Double { scale == .linear ? value : log10(value) }

    /// The range the axis draws for data spanning `low...high` (values it can show): the fixed
    /// ``range`` when set, otherwise the data widened to round tick values (a linear axis over
    /// positive data starts at 0; a chart whose axis must not says why). An empty data range
    /// gets a unit-wide (linear) or one-decade (logarithmic) range around it.
    public func resolvedRange(dataLow low: Double?, dataHigh high: Double?) -> ClosedRange<Double> {
        if let range, canShow(range.lowerBound), canShow(range.upperBound), range.lowerBound < range.upperBound {
            return range
        }
        switch scale {
        case .linear:
            guard var lo = low, var hi = high else { return 0...1 }
            if lo > 0 { lo = 0 }  // positive data: the axis starts at 0, so lengths compare
            if lo == hi { lo -= 0.5 * max(1, abs(lo)); hi += 0.5 * max(1, abs(hi)) }
            let step = Self.niceStep((hi - lo) / 5)
            return (lo / step).rounded(.down) * step...(hi / step).rounded(.up) * step
        case .logarithmic:
            guard let lo = low, let hi = high else { return 1...10 }
            var a = pow(10, log10(lo).rounded(.down)), b = pow(10, log10(hi).rounded(.up))
            if a == b { a /= 10; b *= 10 }
            if b / a <= 100 {  // under two decades: tighten to 1-2-5 steps
                a = Self.logStepsBelowOrAt(lo, from: a)
                b = Self.logStepsAtOrAbove(hi, to: b)
            }
            return a...b
        }
    }

    /// Tick values inside `range`.
    public func ticks(in range: ClosedRange<Double>) -> [Double] {
        switch scale {
        case .linear:
            let step = Self.niceStep((range.upperBound - range.lowerBound) / 5)
            var out: [Double] = []
            var k = (range.lowerBound / step - 1e-9).rounded(.up)
            while k * step <= range.upperBound * (1 + 1e-12) + 1e-12 && out.count < 50 {
                out.append(k * step == 0 ? 0 : k * step)
                k += 1
            }
            return out
        case .logarithmic:
            let decades = log10(range.upperBound / range.lowerBound)
            let multiples: [Double] = decades < 3 ? [1, 2, 5] : [1]
            var out: [Double] = []
            var power = pow(10, log10(range.lowerBound).rounded(.down))
            while power <= range.upperBound * (1 + 1e-9) && out.count < 60 {
                for m in multiples where m * power >= range.lowerBound * (1 - 1e-9) && m * power <= range.upperBound * (1 + 1e-9) {
                    out.append(m * power)
                }
                power *= 10
            }
            return out
        }
    }

    /// 1, 2 or 5 times a power of ten, the smallest such value at least `rough` (positive).
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0 && rough.isFinite else { return 1 }
        let power = pow(10, log10(rough).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * power >= rough * (1 - 1e-12) { return m * power }
        return 10 * power
    }

    static func logStepsBelowOrAt(_ value: Double, from decade: Double) -> Double {
        [5.0, 2, 1].map { $0 * decade }.first { $0 <= value } ?? decade
    }

    static func logStepsAtOrAbove(_ value: Double, to decade: Double) -> Double {
        [0.1, 0.2, 0.5, 1].map { $0 * decade }.first { $0 >= value } ?? decade
    }
}
