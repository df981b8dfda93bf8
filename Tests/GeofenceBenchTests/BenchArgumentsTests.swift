import CommandSupport
import Testing
@testable import GeofenceBench

/// Every `geofence-bench` command's declared options against its help, and the strict
/// command line end to end through ``BenchTool/main(_:)`` (exit status 2 before any file is read).
@Suite struct BenchArgumentsTests {
    @Test func helpAndOptionsAgree() {
        for command in BenchTool.commands {
            let declared = Set(command.options.map(\.name))
            let documented = Arguments.optionNames(mentionedIn: command.help)
            #expect(
                declared == documented,
                "\(command.name.isEmpty ? "suite" : command.name): declared-only \(declared.subtracting(documented).sorted()), documented-only \(documented.subtracting(declared).sorted())"
            )
        }
    }

    @Test func everyCommandIsListedInTheToolsUsage() {
        let usage = BenchTool.usage
        for command in BenchTool.commands {
            if !command.name.isEmpty { #expect(usage.contains("geofence-bench \(command.name) "), "\(command.name)") }
        }
    }

    @Test func badCommandLinesExitWithStatus2() {
        let files = ["--fences", "/nonexistent/f.csv", "--fixes", "/nonexistent/x.csv"]
        let cases: [[String]] = [
            ["stab"] + files + ["-index", "grid"],  // a single-dash word is not silently ignored
            ["stab"] + files + ["grid"],  // nor is a stray word
            ["stab"] + files + ["--index", "cells"],  // the grid's former name is gone
            ["stab"] + files + ["--index"],
            ["stab"] + files + ["--threads", "0"],
            ["stab", "--fences", "--fixes", "/nonexistent/x.csv"],
            ["generate", "--truth", "--out", "/nonexistent/dir"],
            ["transitions"] + files + ["--truth", "--events-out", "/nonexistent/e.csv"],
            ["transitions"] + files + ["--truth", "t.csv", "--hysteresis", "nan"],
            ["transitions"] + files + ["--truth", "t.csv", "--slack", "-5"],  // tuning options: before any file
            ["transitions"] + files + ["--truth", "t.csv", "--max-speed", "0"],
            ["transitions"] + files + ["--truth", "t.csv", "--enter-confirm", "0"],
            ["plan"] + files + ["--truth", "t.csv", "--min-refresh", "1e20"],
            ["plan"] + files + ["--truth", "t.csv", "--cap", "9223372036854775807"],
            ["stab"] + files + ["--reps", "9223372036854775807"],
            ["poi", "--rows", "9223372036854775807"],
            ["generate", "--fixes", "9223372036854775807", "--out", "/nonexistent/dir"],
            ["generate", "--devices", "3000000000", "--out", "/nonexistent/dir"],
            ["plan"] + files + ["--truth", "t.csv", "--cap", "0"],
            ["plan"] + files + ["--truth", "t.csv", "--lead-seconds", "-1"],
            ["plan"] + files + ["--truth", "t.csv", "--crowded", "nearest"],
            ["poi", "--rows", "-5"],
            ["--quick", "--frob"],
            ["frobnicate"],
            ["stab", "--fixes", "/nonexistent/x.csv"],  // a required option missing
            ["stab", "--polygons", "/nonexistent/p.geojson", "--fixes", "/nonexistent/x.csv", "--index", "packed"]
        ]
        for words in cases {
            #expect(BenchTool.main(words) == 2, "\(words)")
        }
    }

    @Test func wellFormedCommandLinesReachTheFiles() {
        // Parsing succeeds, so the run fails on the missing file: status 1, not 2.
        let files = ["--fences", "/nonexistent/f.csv", "--fixes", "/nonexistent/x.csv"]
        let cases: [[String]] = [
            ["stab"] + files + ["--index=grid", "--threads", "2", "--json"],
            ["stab"] + files + ["--index", "cell"],
            ["stab", "--polygons", "/nonexistent/p.geojson", "--fixes", "/nonexistent/x.csv"],
            ["transitions"] + files + ["--truth=/nonexistent/t.csv", "--slack", "5", "--diagnose"],
            ["plan"] + files + ["--truth", "/nonexistent/t.csv", "--lead-seconds=0"],
            ["plan"] + files + ["--truth", "/nonexistent/t.csv", "--max-unguarded", "15", "--wake-gate", "0"]
        ]
        for words in cases {
            #expect(BenchTool.main(words) == 1, "\(words)")
        }
        #expect(BenchTool.main(["stab", "--help"]) == 0)
        #expect(BenchTool.main(["plan", "--frob", "-h"]) == 0)
    }
}
