@testable import FastCSV
import Testing

@Suite struct DecimalFixedTests {
    /// Golden values: C's printf("%.Nf") (glibc), which rounds the exact binary value.
    @Test func fixedMatchesPrintf() {
        let cases: [(Double, Int, String)] = [
            (0, 0, "0"), (0, 3, "0.000"), (-0.0, 2, "-0.00"), (1.5, 0, "2"), (2.5, 0, "2"), (0.125, 2, "0.12"),
            (0.375, 2, "0.38"), (2.675, 2, "2.67"), (-1.005, 2, "-1.00"), (123456.789, 1, "123456.8"),
            (1e21, 0, "1000000000000000000000"), (Double.leastNonzeroMagnitude, 3, "0.000"), (-0.0004, 3, "-0.000"),
            (0.1, 20, "0.10000000000000000555")
        ]
        for (value, decimals, expected) in cases {
            #expect(DecimalFormatting.fixed(value, decimals) == expected, "\(value) \(decimals)")
        }
    }

    @Test func extremesAndNonFinite() {
        #expect(DecimalFormatting.fixed(.nan, 2) == "NaN")
        #expect(DecimalFormatting.fixed(.infinity, 2) == "inf")
        #expect(DecimalFormatting.fixed(-.infinity, 0) == "-inf")
        let largest = DecimalFormatting.fixed(.greatestFiniteMagnitude, 40)
        #expect(largest.hasPrefix("17976931348623157"))
        #expect(largest.count == 309 + 1 + 40)
        #expect(DecimalFormatting.fixed(1, -3) == "1")  // negative digit counts clamp to 0
    }

    /// Seeded property: the text reads back within half a unit of its last digit.
    @Test func fixedRoundTripsWithinHalfAUnit() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = (Double(state >> 11) / Double(1 << 53) - 0.5) * 2e6
            let decimals = Int(state % 7)
            let text = DecimalFormatting.fixed(value, decimals)
            let back = Double(text)!
            var unit = 1.0
            for _ in 0..<decimals { unit /= 10 }
            #expect(abs(back - value) <= unit / 2 * (1 + 1e-9), "\(value) \(decimals) \(text)")
        }
    }
}
