import Foundation
import Testing
@testable import FastCSV

@Suite struct NumberParsingTests {
    /// Compares `parseDouble` with Swift's `Double(String)` bit for bit.
    func expectSameAsSwift(_ text: String, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = withField(text) { parseDouble($0) }
        let swift = Double(text)
        #expect(
            ours?.bitPattern == swift?.bitPattern,
            "\(text.debugDescription): ours \(String(describing: ours)), Double(String) \(String(describing: swift)) \(comment)",
            sourceLocation: sourceLocation)
    }

    @Test func trickyDecimals() {
        let cases = [
            "0", "-0", "+0", "0.0", "-0.0", "00012", "1.", ".5", "+.5", "-.5", "1.e5", "1E5", "1e+5", "1e-5",
            "60.1680505", "-180.0000000", "180.0000001", "90", "-90", "1700000000.123",
            "0.1", "0.2", "0.3", "9007199254740992", "9007199254740993", "9007199254740991.5",
            "1e22", "1e23", "123456789012345678901234567890", "0.000000000000000000000000000001",
            "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
            "1.7976931348623159e308", "1e308", "1e309", "1e-400", "0e999999", "1e999999999999",
            "7.038531e-26", "3.0517578125e-05", "8.98846567431158e307", "0.1e23", "100000000000000000000000",
            "5e-324", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "9007199254740993.0000000000000000000001", "43.7306164", "24.9423794",
            "12345678901234567890.5", "0.00000000000000000000000000000000000000000000001e46"
        ]
        for text in cases { expectSameAsSwift(text) }
    }

    @Test func garbageIsRejected() {
        let garbage = [
            "", " ", " 1", "1 ", "1,5", "60,17", "1e", "1e+", "e5", ".e5", ".", "-", "+", "--1", "1.2.3",
            "0x1p3", "1_000", "NaN", "nan", "inf", "-inf", "Infinity", "1e5.5", "abc", "60.1x80505", "1d", "١"
        ]
        for text in garbage {
            #expect(withField(text) { parseDouble($0) } == nil, "\(text.debugDescription) must be rejected")
        }
        #expect(withField("") { parseInt64($0) } == nil)
    }

    @Test func nonFiniteWordsOnlyWhenAsked() {
        #expect(withField("NaN") { parseDouble($0, allowingNonFinite: true) }?.isNaN == true)
        #expect(withField("-inf") { parseDouble($0, allowingNonFinite: true) } == -.infinity)
        #expect(withField("Infinity") { parseDouble($0, allowingNonFinite: true) } == .infinity)
        #expect(withField("infinit") { parseDouble($0, allowingNonFinite: true) } == nil)
        #expect(parseDouble("+INF", allowingNonFinite: true) == .infinity)
        #expect(parseDouble("inf") == nil)
    }

    /// Random doubles printed with `description` (shortest round trip) and with 17-25 significant
    /// digits and in fixed notation with 0-12 decimals: parsing must equal `Double(String)`.
    @Test func randomDoublesMatchSwift() {
        let seed: UInt64 = 0xD0_0B1E
        var rng = TestRNG(seed: seed)
        for i in 0..<20_000 {
            let value: Double
            switch rng.below(4) {
            case 0: value = Double(bitPattern: rng.next())  // any bit pattern, all magnitudes
            case 1: value = (rng.nextUnit() * 360 - 180)  // a longitude
            case 2: value = rng.nextUnit() * pow(10, Double(rng.below(40) - 20))
            default: value = Double(Int64(bitPattern: rng.next()) >> rng.below(63))
            }
            guard value.isFinite else { continue }
            let comment = "seed \(seed) i \(i)"
            expectSameAsSwift(value.description, comment)
            expectSameAsSwift(String(format: "%.\(17 + rng.below(9))g", value), comment)
            if abs(value) < 1e15 {
                expectSameAsSwift(String(format: "%.\(rng.below(13))f", value), comment)
            }
        }
    }

    /// Random digit strings (up to 30 digits, a random point and exponent): exercises the
    /// boundary between the exact fast path and the strtod fallback.
    @Test func randomDigitStringsMatchSwift() {
        let seed: UInt64 = 0xF00D
        var rng = TestRNG(seed: seed)
        for i in 0..<20_000 {
            let digits = 1 + rng.below(30)
            var text = rng.below(3) == 0 ? "-" : ""
            let point = rng.below(digits + 1)
            for k in 0..<digits {
                if k == point && k > 0 { text += "." }
                text += String(rng.below(10))
            }
            if rng.below(2) == 0 { text += "e\(rng.below(60) - 30)" }
            expectSameAsSwift(text, "seed \(seed) i \(i)")
        }
    }

    @Test func integers() {
        let cases = [
            "0", "-0", "+7", "42", "-42", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808", "-9223372036854775809", "18446744073709551615",
            "18446744073709551616", "99999999999999999999", "", "-", "+", "1.0", " 1", "1e3", "0x10", "007"
        ]
        for text in cases {
            #expect(withField(text) { parseInt64($0) } == Int64(text), "Int64 \(text.debugDescription)")
            #expect(withField(text) { parseUInt64($0) } == UInt64(text), "UInt64 \(text.debugDescription)")
        }
        var rng = TestRNG(seed: 77)
        for _ in 0..<2_000 {
            let value = rng.next()
            #expect(withField(String(value)) { parseUInt64($0) } == value)
            let signed = Int64(bitPattern: value)
            #expect(withField(String(signed)) { parseInt64($0) } == signed)
        }
    }

    @Test func recordAccessors() throws {
        let reader = CSVReader(string: "d7,1700000000.5,60.1,-18446744073709551615,18446744073709551615\n")
        let record = try #require(try reader.nextRecord())
        #expect(record.double(at: 0) == nil)
        #expect(record.double(at: 1) == 1_700_000_000.5)
        #expect(record.double(at: 2) == 60.1)
        #expect(record.int64(at: 3) == nil)
        #expect(record.uint64(at: 4) == UInt64.max)
        #expect(record.field(0, equals: "d7"))
        #expect(!record.field(0, equals: "d"))
    }
}
