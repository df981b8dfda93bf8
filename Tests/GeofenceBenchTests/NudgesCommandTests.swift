import Foundation
import Testing
@testable import GeofenceBench

/// `geofence-bench nudges` end to end through ``BenchTool/main(_:)``.
@Suite struct NudgesCommandTests {
    static let files = ["--fences", "/nonexistent/f.csv", "--fixes", "/nonexistent/x.csv"]

    @Test func badCommandLinesExitWithStatus2() {
        for words in [
            ["nudges"] + Self.files + ["--epoch", "2026-01-05"],
            ["nudges"] + Self.files + ["--epoch", "2026-02-30T00:00:00Z"],
            ["nudges"] + Self.files + ["--epoch", "0001-01-01T00:00:00Z"],
            ["nudges"] + Self.files + ["--epoch", "1899-12-31T23:59:59Z"],
            ["nudges"] + Self.files + ["--reps", "0"],
            ["nudges", "--fences", "/nonexistent/f.csv"],
            ["nudges"] + Self.files + ["--preferences"]
        ] {
            #expect(BenchTool.main(words) == 2, "\(words)")
        }
        #expect(BenchTool.main(["nudges"] + Self.files + ["--epoch=2026-03-01T12:00:00-05:00", "--json"]) == 1)
        #expect(BenchTool.main(["nudges", "--help"]) == 0)
    }

    /// A small generated workload: the run succeeds (every invariant 0) and writes one row per
    /// decision; a preferences file with a bad zone fails with status 1.
    @Test func runsOnAGeneratedWorkload() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudges-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(BenchTool.main(["generate", "--pois", "200", "--devices", "20", "--fixes", "20000", "--seed", "3", "--out", dir]) == 0)
        let prefs = dir + "/prefs.csv"
        try "device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n0,Asia/Tokyo,23:00,06:00,1,0,600,ja_JP\n"
            .write(toFile: prefs, atomically: true, encoding: .utf8)
        let out = dir + "/nudges.csv"
        let workload = ["nudges", "--fences", dir + "/fences.csv", "--fixes", dir + "/fixes.csv", "--reps", "1"]
        #expect(BenchTool.main(workload + ["--preferences", prefs, "--out", out]) == 0)
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "device,t,task,kind,decision,reason,channel,local_date")
        #expect(rows.count > 1)
        try "device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n0,Mars/Base,,,1,0,0,en_US\n"
            .write(toFile: prefs, atomically: true, encoding: .utf8)
        #expect(BenchTool.main(workload + ["--preferences", prefs]) == 1)
    }

    /// A fences file with one fence whose id is 2,000,000,000: status 1 (the reminders layer's
    /// table by fence id would need 96 GB), not an allocation failure.
    @Test func aSparseFenceIDFailsWithStatus1() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nudges-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(BenchTool.main(["generate", "--pois", "20", "--devices", "2", "--fixes", "2000", "--seed", "3", "--out", dir]) == 0)
        let fences = dir + "/sparse.csv"
        try "id,lat,lon,radius_m,poi_id,tier\n0,40.7,-74.0,1609,1,0\n2000000000,40.7,-74.0,4828,1,1\n"
            .write(toFile: fences, atomically: true, encoding: .utf8)
        #expect(BenchTool.main(["nudges", "--fences", fences, "--fixes", dir + "/fixes.csv", "--reps", "1"]) == 1)
    }
}
