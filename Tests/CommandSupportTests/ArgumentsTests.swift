import CommandSupport
import Testing

@Suite struct ArgumentsTests {
    static let options: [Arguments.Option] = [
        .value("fences"), .value("reps"), .value("lat"), .value("ratio"), .flag("json"), .flag("per-fix")
    ]

    func parse(_ words: [String], maxPositionals: Int = 0) throws(UsageError) -> Arguments {
        try Arguments(words, options: Self.options, maxPositionals: maxPositionals)
    }

    func message(_ words: [String], maxPositionals: Int = 0) -> String? {
        do {
            _ = try parse(words, maxPositionals: maxPositionals)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func bothValueSpellingsAndFlags() throws {
        let a = try parse(["--fences", "f.csv", "--reps=5", "--json"])
        #expect(a.string("fences") == "f.csv")
        #expect(try a.int("reps", default: 3, in: 1...10) == 5)
        #expect(a.flag("json"))
        #expect(!a.flag("per-fix"))
        #expect(a.string("lat") == nil)
        #expect(try a.int("reps", in: 1...10) == 5)
        #expect(try parse([]).int("reps", default: 3, in: 1...10) == 3)
        // An `=` inside the value stays in the value; an empty value is a value.
        #expect(try parse(["--fences=a=b.csv"]).string("fences") == "a=b.csv")
        #expect(try parse(["--fences="]).string("fences") == "")
    }

    @Test func strictRejectionsNameTheCulprit() {
        let cases: [([String], String)] = [
            (["--frob"], "unknown option '--frob'"),
            (["--frob=1"], "unknown option '--frob'"),
            (["-index", "cells"], "unknown option '-index'"),
            (["-x"], "unknown option '-x'"),
            (["stray"], "unexpected argument 'stray'"),
            (["--fences", "f.csv", "word"], "unexpected argument 'word'"),
            (["--fences"], "option '--fences' needs a value"),
            (["--fences", "--json"], "option '--fences' needs a value"),  // a flag is never swallowed
            (["--fences", "--reps", "3"], "option '--fences' needs a value"),
            (["--json=yes"], "option '--json' takes no value"),
            (["--json", "--json"], "option '--json' given more than once"),
            (["--reps", "1", "--reps=2"], "option '--reps' given more than once")
        ]
        for (words, expected) in cases {
            #expect(message(words) == expected, "\(words)")
        }
    }

    @Test func valuesMayStartWithOneDash() throws {
        let a = try parse(["--lat", "-33.9", "--fences", "-"])
        #expect(try a.double("lat", in: -90...90) == -33.9)
        #expect(a.string("fences") == "-")
        // A negative number or `-` is positional, not an option.
        #expect(try parse(["-", "-1.5"], maxPositionals: 2).positionals == ["-", "-1.5"])
        #expect(try parse(["--", "--json"], maxPositionals: 1).positionals == ["--json"])
        #expect(message(["a", "b"], maxPositionals: 1) == "unexpected argument 'b'")
    }

    @Test func helpAnywhereWins() throws {
        for words in [["--help"], ["-h"], ["--frob", "--help"], ["stray", "-h"]] {
            let a = try parse(words)
            #expect(a.wantsHelp, "\(words)")
        }
        #expect(try !parse(["--json"]).wantsHelp)
    }

    @Test func numbersAreCheckedAgainstTheirRange() throws {
        func intMessage(_ text: String, _ range: ClosedRange<Int>) -> String? {
            do { _ = try parse(["--reps", text]).int("reps", in: range); return nil } catch { return error.message }
        }
        #expect(intMessage("0", 1...10) == "option '--reps' expects an integer in 1...10, got '0'")
        #expect(intMessage("-1", 0...Int.max) == "option '--reps' expects an integer >= 0, got '-1'")
        #expect(intMessage("1.5", 0...Int.max) != nil)
        #expect(intMessage("", 0...Int.max) != nil)
        #expect(intMessage("99999999999999999999999", 0...Int.max) != nil)  // overflow is an error, not a trap
        #expect(intMessage("1_000_000", 0...Int.max) == nil)
        #expect(try parse(["--reps", "1_000"]).int("reps", in: 0...Int.max) == 1_000)

        func doubleMessage(_ text: String, _ range: ClosedRange<Double>) -> String? {
            do { _ = try parse(["--ratio", text]).double("ratio", in: range); return nil } catch { return error.message }
        }
        for bad in ["nan", "NaN", "inf", "-inf", "1e999", "x", ""] {
            #expect(doubleMessage(bad, -Double.infinity...Double.infinity) != nil, "\(bad)")
        }
        #expect(doubleMessage("-0.5", 0...Double.infinity) == "option '--ratio' expects a finite number >= 0, got '-0.5'")
        #expect(doubleMessage("2", 0...1) == "option '--ratio' expects a finite number in 0...1, got '2'")
        #expect(doubleMessage("0.25", 0...1) == nil)
    }

    enum Shape: String, CaseIterable { case circle, square }

    @Test func choicesListTheAllowedValues() throws {
        #expect(try parse(["--fences", "square"]).choice("fences", default: Shape.circle) == .square)
        #expect(try parse([]).choice("fences", default: Shape.circle) == .circle)
        #expect(throws: UsageError("option '--fences' must be one of circle, square; got 'oval'")) {
            try parse(["--fences", "oval"]).choice("fences", default: Shape.circle)
        }
        #expect(throws: UsageError("missing required option '--fences'")) { try parse([]).required("fences") }
    }

    @Test func optionNamesInHelpText() {
        let help = """
            tool stab --fences F [--index packed|cells] [--reps=R] [--per-fix]
              --json prints JSON; -h, --help shows this. A range 1--3 and a dash -- alone are no option.
            """
        #expect(Arguments.optionNames(mentionedIn: help) == ["fences", "index", "reps", "per-fix", "json"])
        #expect(Arguments.optionNames(mentionedIn: "") == [])
    }
}
