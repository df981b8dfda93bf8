import Testing
import Geodesy
@testable import GeoCells

@Suite struct CellMetricTests {
    @Test func levelsAtExactThresholdsLikeS2() {
        // S2's s2metrics_test: a width of deriv * 2^-level maps back to that level (clamped).
        for level in -2...33 {
            let expected = max(0, min(30, level))
            let width = level >= 33 ? 0 : CellMetric.minWidth.deriv * pow2(-level)
            let m = CellMetric.minWidth
            #expect(m.levelForMaxValue(width) == expected, "level \(level)")
            #expect(m.levelForMinValue(width) == expected, "level \(level)")
            #expect(m.closestLevel(width) == expected, "level \(level)")
            if level < 33 {
                #expect(m.levelForMaxValue(1.2 * width) == expected)
                #expect(m.levelForMinValue(0.8 * width) == expected)
                #expect(m.closestLevel(1.2 * width) == expected)
                #expect(m.closestLevel(0.8 * width) == expected)
            }
            let a = CellMetric.minArea
            let area = level >= 33 ? 0 : a.deriv * pow2(-2 * level)
            #expect(a.levelForMaxValue(area) == expected, "level \(level)")
            #expect(a.levelForMinValue(area) == expected, "level \(level)")
            #expect(a.closestLevel(area) == expected, "level \(level)")
            if level < 33 {
                #expect(a.levelForMaxValue(1.2 * area) == expected)
                #expect(a.levelForMinValue(0.8 * area) == expected)
                #expect(a.closestLevel(1.2 * area) == expected)
                #expect(a.closestLevel(0.8 * area) == expected)
            }
        }
    }

    @Test func levelsAgreeWithBruteForce() {
        let metrics: [CellMetric] = [.minWidth, .maxWidth, .avgEdge, .maxDiag, .minArea, .avgArea, .maxArea]
        var rng = SplitMix64(seed: 11)
        for m in metrics {
            for _ in 0..<400 {
                let v = m.deriv * pow2(-Int(rng.next() % 70) + 3) * (0.5 + rng.nextUnit())
                // Smallest level whose value is <= v; largest whose value is >= v.
                let forMax = (0...30).first { m.value(level: $0) <= v } ?? 30
                let forMin = (0...30).last { m.value(level: $0) >= v } ?? 0
                #expect(m.levelForMaxValue(v) == forMax, "seed 11 deriv \(m.deriv) v \(v)")
                #expect(m.levelForMinValue(v) == forMin, "seed 11 deriv \(m.deriv) v \(v)")
            }
            #expect(m.levelForMaxValue(-1) == 30 && m.levelForMinValue(0) == 30)
        }
    }

    @Test func valuesAndConstants() {
        #expect(CellMetric.avgArea.value(level: 0) == 4 * Double.pi / 6)
        #expect(CellMetric.avgArea.value(level: 3) == 4 * Double.pi / 6 / 64)
        #expect(CellMetric.minWidth.getValue(1) == CellMetric.minWidth.deriv / 2)
        #expect(CellMetric.maxWidth == CellMetric.maxAngleSpan && CellMetric.maxEdge == CellMetric.maxAngleSpan)
        #expect(CellMetric.minWidth.dim == 1 && CellMetric.minArea.dim == 2)
        // Cell areas fall within the area metrics at every level.
        var rng = SplitMix64(seed: 12)
        for level in 0...30 {
            let c = Cell(randomCell(&rng, level: level))
            let area = c.exactArea()
            #expect(area >= CellMetric.minArea.value(level: level) * (1 - 1e-9), "level \(level)")
            #expect(area <= CellMetric.maxArea.value(level: level) * (1 + 1e-9), "level \(level)")
        }
    }

    func pow2(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }
}
