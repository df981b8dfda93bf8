import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ResponderService

/// `responder-load`, the load and fault bench, run short: the numbers it reports must show that
/// nothing was lost under its faults, not how fast it went (that is docs/SERVICE.md's table,
/// on an idle machine).
@Suite(.serialized) struct LoadBenchTests {
    /// 30 phones for 100 s (the shortest run that silences phones) at 2 fixes a second, on a
    /// fresh PostgreSQL database: lost answers, dropped connections, duplicated requests and
    /// reordered batches are injected, and the leader is killed with SIGKILL and restarted. Every
    /// fix a phone kept is stored once or still in the queue of a phone the bench silenced,
    /// another instance leads within 5 s, and no incident is offered to a silent phone.
    /// Bounded: killed after 300 s.
    @Test func aShortFaultRunLosesNothing() throws {
        guard let url = try TestPostgres.freshDatabase() else {
            Issue.record("no PostgreSQL: set RESPONDER_TEST_POSTGRES or install postgresql (initdb)")
            return
        }
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("responder-load")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            Issue.record("responder-load is not built beside the tests (\(binary.path))")
            return
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "--postgres", url, "--phones", "30", "--seconds", "100", "--rate", "2", "--workers", "4", "--dir", scratch.file("phones"),
            "--json"
        ]
        FileManager.default.createFile(atPath: scratch.file("out.json"), contents: nil)
        FileManager.default.createFile(atPath: scratch.file("err.txt"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: scratch.file("out.json"))
        process.standardError = FileHandle(forWritingAtPath: scratch.file("err.txt"))
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning && Date() < deadline { usleep(200_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("responder-load did not finish within 300 s")
            return
        }
        let err = (try? String(contentsOfFile: scratch.file("err.txt"), encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(err)")
        let text = try String(contentsOfFile: scratch.file("out.json"), encoding: .utf8)
        let report = try #require(try json(text) as? [String: Any], "\(text)\n\(err)")
        func int(_ key: String) -> Int? { report[key] as? Int }
        #expect(int("fixes_lost") == 0 && int("duplicates_stored") == 0, "\(text)")
        // Kept = stored + still queued (the silenced phones' fixes, never sent), nothing else.
        let kept = int("fixes_kept") ?? 0, stored = int("fixes_stored") ?? 0, queued = int("fixes_queued_at_end") ?? 0
        #expect(kept == stored + queued && kept > 3_000 && queued < kept / 10, "\(text)")
        #expect(int("offers_to_unreachable") == 0 && (int("incidents_posted") ?? 0) > 0, "\(text)")
        #expect((report["failover_seconds"] as? Double ?? .infinity) <= 5, "\(text)")
        // The faults were there to survive.
        #expect((int("lost_answers") ?? 0) > 0 && (int("dropped_connections") ?? 0) > 0 && (int("duplicated_requests") ?? 0) > 0, "\(text)")
    }
}
