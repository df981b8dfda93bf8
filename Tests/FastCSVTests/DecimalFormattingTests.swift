import Foundation
import Geodesy
import Testing
@testable import FastCSV

@Suite struct DecimalFormattingTests {
    func format(_ v: Double, _ d: Int) -> String {
        var out: [UInt8] = []
        DecimalFormatting.append(v, decimals: d, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func fixedCases() {
        #expect(format(0, 3) == "0.000")
        #expect(format(-0.5, 0) == "-1")
        #expect(format(-0.0000001, 7) == "-0.0000001")
        #expect(format(-0.00000004, 7) == "-0.0000000")
        #expect(format(179.9999999, 7) == "179.9999999")
        #expect(format(1609.344, 3) == "1609.344")
        #expect(format(12.25, 1) == "12.3")
        #expect(format(.nan, 3) == "nan")
    }

    @Test func agreesWithPrintfOnRandomValues() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let v = (rng.nextUnit() * 360 - 180)
            let d = Int(rng.next() % 8)
            let rounded = (v * pow(10, Double(d))).rounded() / pow(10, Double(d))  // avoid exact-half ties
            #expect(format(rounded, d) == String(format: "%.\(d)f", rounded), "seed 7, value \(rounded)")
        }
    }

    @Test func integers() {
        var out: [UInt8] = []
        DecimalFormatting.append(Int64.min, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "-9223372036854775808")
    }
}
