import Foundation
import Testing

/// DESIGN.md's contracts for `geofence-bench`, checked as an independent client checks them: the
/// built executable run as a subprocess on a hand-made workload, its stdout parsed as JSON, and
/// every key the contract names present with its type; the checksum is the one computed here
/// from the contract's definition, not from our code.
@Suite struct BenchContractTests {
    /// Two fences (ids 5 and 2,000,000,000, 1 km) 556 m apart; fix 0 is at the first centre, fix
    /// 1 is 92 km north, fix 2 halfway between the centres: fixes 0 and 2 are in both fences.
    static let fences = """
        id,lat,lon,radius_m,poi_id,tier
        5,60.17,24.94,1000,0,0
        2000000000,60.175,24.94,1000,1,0

        """
    static let fixes = """
        device,t,lat,lon,accuracy_m
        1,0,60.17,24.94,5
        1,10,61,24.94,5
        2,5,60.1725,24.94,5

        """

    /// The contract's checksum: the wrapping UInt64 sum over hits of `fix_index &* 1_000_003 &+ fence_id`.
    static let checksum: UInt64 = {
        var sum: UInt64 = 0
        for (fix, fence) in [(0, 5), (0, 2_000_000_000), (2, 5), (2, 2_000_000_000)] as [(UInt64, UInt64)] {
            sum = sum &+ (fix &* 1_000_003 &+ fence)
        }
        return sum
    }()

    /// ``fences`` and ``fixes`` written to a new temporary directory: (directory, fences path, fixes path).
    static func writeWorkload() throws -> (URL, String, String) {
        let directory = try ScriptSupport.temporaryDirectory()
        let fences = directory.appendingPathComponent("fences.csv").path, fixes = directory.appendingPathComponent("fixes.csv").path
        try Self.fences.write(toFile: fences, atomically: true, encoding: .utf8)
        try Self.fixes.write(toFile: fixes, atomically: true, encoding: .utf8)
        return (directory, fences, fixes)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not one JSON object: \(text)")
    }

    @Test(arguments: ["packed", "dynamic", "grid", "brute"], [1, 2])
    func stabJSONHasEveryContractKey(index: String, threads: Int) throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let (directory, fences, fixes) = try Self.writeWorkload()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptSupport.runProgram(
            bench.path, ["stab", "--fences", fences, "--fixes", fixes, "--index", index, "--threads", "\(threads)", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        #expect(json["index"] as? String == index)
        #expect((json["fences"] as? NSNumber)?.intValue == 2)
        #expect((json["fixes"] as? NSNumber)?.intValue == 3)
        #expect((json["threads"] as? NSNumber)?.intValue == threads)
        #expect((json["hits"] as? NSNumber)?.intValue == 4)
        // A decimal string, so that no JSON reader rounds a UInt64 through a Double.
        #expect(json["checksum"] as? String == String(Self.checksum))
        for key in [
            "build_seconds", "query_seconds", "fixes_per_second", "candidates", "candidate_false_positive_rate", "peak_rss_mb"
        ] {
            let value = try #require(json[key] as? NSNumber, "\(key) missing or not a number")
            #expect(value.doubleValue >= 0, "\(key)")
        }
        let rate = try #require(json["candidate_false_positive_rate"] as? NSNumber).doubleValue
        #expect((0...1).contains(rate))
    }

    /// DESIGN.md: "`--json` anywhere switches to JSON": also before the command's name
    /// (`geofence-bench --json stab ...` was a usage error, "unexpected argument 'stab'").
    @Test func jsonBeforeTheCommandName() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let (directory, fences, fixes) = try Self.writeWorkload()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptSupport.runProgram(bench.path, ["--json", "stab", "--fences", fences, "--fixes", fixes])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        #expect(json["checksum"] as? String == String(Self.checksum))
        // A command without --json still says so, naming the option.
        let chart = try ScriptSupport.runProgram(bench.path, ["--json", "peers-chart", "--peers", fences, "--out", fixes + ".svg"])
        #expect(chart.status == 2 && chart.stderr.contains("--json"), "\(chart.stderr)")
    }

    /// Issue 3: "`--json` everywhere". `generate --json` was a usage error (exit 2, unknown
    /// option); it writes the same files and prints one JSON object saying what it wrote.
    @Test func generateTakesJSON() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let directory = try ScriptSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("w").path
        let result = try ScriptSupport.runProgram(
            bench.path, ["generate", "--pois", "5", "--devices", "2", "--fixes", "11", "--seed", "3", "--out", out, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        #expect(json["out"] as? String == out)
        #expect((json["fences"] as? NSNumber)?.intValue == 15)
        #expect((json["polygons"] as? NSNumber)?.intValue == 0)
        #expect((json["fixes"] as? NSNumber)?.intValue == 11)
        #expect((json["devices"] as? NSNumber)?.intValue == 2)
        #expect((json["seed"] as? NSNumber)?.intValue == 3)
        #expect(json["seconds"] as? NSNumber != nil)
        let fixes = try String(contentsOfFile: out + "/fixes.csv", encoding: .utf8)
        #expect(fixes.split(separator: "\n").count == 12)
    }

    /// `geofence-bench responders --json`: issue 11's keys (at least) and issue 22's two.
    @Test func respondersJSONHasEveryContractKey() throws {
        let bench = try #require(ScriptSupport.builtProduct("geofence-bench"), "geofence-bench not built")
        let result = try ScriptSupport.runProgram(
            bench.path, ["responders", "--responders", "10", "--minutes", "5", "--seed", "2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.object(result.stdout)
        for key in [
            "ingest_fixes_per_second", "liveness_updates_per_second", "false_offline", "assignments_to_unreachable", "fixes_lost",
            "duplicates_stored", "incidents", "assigned", "incidents_reassigned", "incidents_left_with_offline_assignee"
        ] {
            #expect(json[key] as? NSNumber != nil, "\(key) missing or not a number")
        }
        let detect = try #require(json["detect_seconds"] as? [String: Any], "detect_seconds")
        for duty in ["on_duty", "on_mission"] {
            let figures = try #require(detect[duty] as? [String: Any], "detect_seconds.\(duty)")
            for key in ["p50", "p95", "max", "threshold"] {
                #expect(figures[key] as? NSNumber != nil, "detect_seconds.\(duty).\(key)")
            }
        }
    }
}
