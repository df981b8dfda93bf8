import Foundation
import Testing

@testable import NumberFormatting

/// The one rounding rule (the exact binary value, ties to even: glibc's printf) in every mode.
@Suite struct DecimalFormattingTests {
    func append(_ v: Double, _ d: Int) -> String {
        var out: [UInt8] = []
        DecimalFormatting.append(v, decimals: d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Golden values: C's printf("%.Nf") (glibc).
    @Test func fixedMatchesPrintfGoldens() {
        let cases: [(Double, Int, String)] = [
            (0, 0, "0"), (0, 3, "0.000"), (-0.0, 2, "-0.00"), (1.5, 0, "2"), (2.5, 0, "2"), (-2.5, 0, "-2"), (3.5, 0, "4"),
            (0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.675, 2, "2.67"), (-1.005, 2, "-1.00"), (12.25, 1, "12.2"),
            (12.35, 1, "12.3"), (123456.789, 1, "123456.8"), (1e21, 0, "1000000000000000000000"),
            (Double.leastNonzeroMagnitude, 3, "0.000"), (-Double.leastNonzeroMagnitude, 3, "-0.000"), (-0.0004, 3, "-0.000"),
            (0.1, 20, "0.10000000000000000555"), (4_503_599_627_370_495.5, 0, "4503599627370496"),
            (4_503_599_627_370_497, 1, "4503599627370497.0"), (-0.5, 0, "-0"), (0.5, 0, "0"), (1609.344, 3, "1609.344"),
            (179.9999999, 7, "179.9999999"), (-0.0000001, 7, "-0.0000001"), (-0.00000004, 7, "-0.0000000")
        ]
        for (value, decimals, expected) in cases {
            #expect(DecimalFormatting.fixed(value, decimals) == expected, "fixed \(value) \(decimals)")
            #expect(append(value, decimals) == expected, "append \(value) \(decimals)")
        }
    }

    @Test func nonFiniteValuesHaveOneTextInEveryMode() {
        for (value, text) in [(Double.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf")] {
            #expect(DecimalFormatting.fixed(value, 2) == text)
            #expect(append(value, 3) == text)
            #expect(DecimalFormatting.grouped(value, 1) == text)
            #expect(DecimalFormatting.trimmed(value, 2) == text)
            #expect(DecimalFormatting.shortest(value) == text)
        }
        let largest = DecimalFormatting.fixed(.greatestFiniteMagnitude, 40)
        #expect(largest.hasPrefix("17976931348623157"))
        #expect(largest.count == 309 + 1 + 40)
        #expect(DecimalFormatting.fixed(1, -3) == "1")  // negative digit counts clamp to 0
    }

    /// Seeded property: append and fixed equal glibc's printf on any value, ties included
    /// (values on a 1/64 grid are exact binary halves at 1 decimal and below).
    @Test func agreesWithPrintfOnRandomValues() {
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        for k in 0..<40_000 {
            let r = Double(next() >> 11) / Double(1 << 53)
            let magnitude = [1.0, 360, 1e6, 1e12, 1e17, 1e-6][k % 6]
            var v = (r - 0.5) * 2 * magnitude
            if k % 4 == 0 { v = (v * 64).rounded() / 64 }  // exact binary ties
            let d = Int(next() % 16)
            let printf = String(format: "%.\(d)f", v)
            #expect(DecimalFormatting.fixed(v, d) == printf, "seed 7, value \(v), \(d) decimals")
            #expect(append(v, d) == printf, "seed 7, value \(v), \(d) decimals")
        }
    }

    @Test func groupedPutsACommaEveryThreeIntegerDigits() {
        #expect(DecimalFormatting.grouped(1_234_567.891, 1) == "1,234,567.9")
        #expect(DecimalFormatting.grouped(-1234, 0) == "-1,234")
        #expect(DecimalFormatting.grouped(999.5, 0) == "1,000")
        #expect(DecimalFormatting.grouped(123, 2) == "123.00")
        #expect(DecimalFormatting.grouped(-0.001, 2) == "-0.00")
        #expect(DecimalFormatting.grouped(1e21, 0) == "1,000,000,000,000,000,000,000")
    }

    @Test func trimmedDropsTrailingZerosAndNegativeZero() {
        #expect(DecimalFormatting.trimmed(12.5, 2) == "12.5")
        #expect(DecimalFormatting.trimmed(3.0001, 2) == "3")
        #expect(DecimalFormatting.trimmed(-0.001, 2) == "0")
        #expect(DecimalFormatting.trimmed(-0.0, 2) == "0")
        #expect(DecimalFormatting.trimmed(-0.25, 2) == "-0.25")
        #expect(DecimalFormatting.trimmed(0.125, 2) == "0.12")
        #expect(DecimalFormatting.trimmed(100, 0) == "100")
    }

    @Test func shortestReadsBackExactly() {
        #expect(DecimalFormatting.shortest(3) == "3")
        #expect(DecimalFormatting.shortest(-0.0) == "-0")
        #expect(DecimalFormatting.shortest(0.1) == "0.1")
        #expect(DecimalFormatting.shortest(1e20) == "1e+20")
        #expect(DecimalFormatting.shortest(5e-324) == "5e-324")
        #expect(DecimalFormatting.shortest(123_456_789_012_345) == "123456789012345")
        var state: UInt64 = 11
        for _ in 0..<10_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let v = Double(bitPattern: state)
            guard v.isFinite else { continue }
            #expect(Double(DecimalFormatting.shortest(v)) == v, "\(v)")
        }
    }

    @Test func integers() {
        var out: [UInt8] = []
        DecimalFormatting.append(Int64.min, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "-9223372036854775808")
    }
}
