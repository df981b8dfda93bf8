import Foundation
import Testing

/// End-to-end tests of `geofence reminders replay`: the documented example of each product runs
/// and prints what docs/REMINDERS.md says; a malformed scenario names its JSON path, exit 1.
@Suite struct RemindersCommandTests {
    let cli = GeofenceCLITests()
    static let examples = GeofenceCLITests.testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/reminders")

    func lines(_ product: String) throws -> [[String: Any]] {
        let result = try cli.run(["reminders", "replay", Self.examples.appendingPathComponent("\(product).json").path])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func documentedExamples() throws {
        let nearMe = try lines("near_me")
        #expect(
            nearMe.compactMap { $0["body"] as? String }.prefix(3) == [
                "You're 5 mi from Corner Grocery — buy milk?", "You're 3 mi from Corner Grocery — buy milk?",
                "You're 1 mi from Corner Grocery — buy milk?"
            ])
        #expect(nearMe.first?["at"] as? String == "2026-01-05T17:02:00-05:00")
        #expect(nearMe.last?["summary"] as? Bool == true)
        let kwilt = try lines("kwilt")
        #expect(
            kwilt.compactMap { $0["at"] as? String }.prefix(3) == [
                "2026-01-05T07:35:00-05:00", "2026-01-05T07:51:00-05:00",
                "2026-01-05T18:40:00-05:00"
            ])
        #expect(kwilt.last?["registered_fences"] as? [String] == [])
        let airfit = try lines("airfit")
        #expect(airfit.first?["category"] as? String == "GENERAL_CHECK_IN")
        #expect(airfit.first?["at"] as? String == "2026-01-09T09:00:00Z")
    }

    @Test func malformedScenarioNamesThePath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geofence-cli-\(getpid())-scenario.json").path
        defer { unlink(path) }
        try Data(
            #"{"product": "near_me", "tasks": [], "events": [{"at": "noon", "type": "app", "state": "foreground"}], "until": "2026-01-05T00:00:00Z"}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["reminders", "replay", path])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("\(path): events[0].at: expected an ISO 8601 instant"))
        #expect(try cli.run(["reminders", "replay"]).status == 2)
        #expect(try cli.run(["reminders", "replay", path + ".missing"]).status == 1)
        // Not a regular file: refused before reading (it read /dev/zero until memory ran out).
        let zero = try cli.run(["reminders", "replay", "/dev/zero"])
        #expect(zero.status == 1 && zero.stderr.hasPrefix("/dev/zero: not a regular file"), "\(zero.stderr)")
    }
}
