import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// scripts/scratch-postgres leaves none of its caller's descriptors open in the cluster it
/// starts: a pipe the test process holds when it forks (another test reading a child's output)
/// must reach its end when the test closes it, not when the cluster stops.
@Suite struct ScratchPostgresTests {
    @Test func theClusterHoldsNoneOfTheCallersDescriptors() throws {
        let script = serverPackage.appendingPathComponent("scripts/scratch-postgres").path
        guard runTool("initdb", ["--version"]) != nil || FileManager.default.fileExists(atPath: "/usr/lib/postgresql") else {
            Issue.record("postgresql not installed: no cluster started")
            return
        }
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        // A pipe without close-on-exec, as Foundation's Pipe and pipe(2) make them.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let started = system("'\(script)' > '\(scratch.file("url"))' 2> '\(scratch.file("dir"))' < /dev/null")
        close(writeEnd)
        let dir = (try? String(contentsOfFile: scratch.file("dir"), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        defer { if !dir.isEmpty { _ = system("'\(script)' stop '\(dir)' > /dev/null 2>&1") } }
        try #require(started == 0, "scratch-postgres failed: \(dir)")
        let url = try String(contentsOfFile: scratch.file("url"), encoding: .utf8)
        #expect(url.hasPrefix("postgresql://") && url.contains("@127.0.0.1:"))
        // The end of the pipe within 5 s: nobody else holds its write end.
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 5_000) == 1)
        var byte: UInt8 = 0
        #expect(read(readEnd, &byte, 1) == 0, "the cluster holds the caller's pipe")
    }
}
