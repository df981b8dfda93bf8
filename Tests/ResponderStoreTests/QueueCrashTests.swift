import Foundation
import Geodesy
import Testing
import Responders
@testable import ResponderStore

/// The durable queue against SIGKILL at random moments. Forking inside this multithreaded test
/// process is unsafe, so a separate executable (`QueueCrashChild`, built with the tests) is the
/// writer: it appends and acknowledges in a loop and prints a line before and after each commit.
/// The test kills it, reopens the file itself, and checks what must hold whatever the moment.
@Suite struct QueueCrashTests {
    /// The child next to the test bundle (SwiftPM puts every product of a configuration in one
    /// directory), else in the package's `.build/debug`.
    static let child: URL? = {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        return candidates.map { $0.appendingPathComponent("QueueCrashChild") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The fix the child stores under `sequence` (the same function as in its main.swift).
    static func expectedFix(_ sequence: Int64) -> LocationFix {
        LocationFix(
            time: Double(sequence), latitude: Double(sequence % 90), longitude: Double((sequence * 7) % 180),
            accuracy: Double(sequence % 50))
    }

    @Test func killedWritersLoseNothingAndResurrectNothing() throws {
        let child = try #require(Self.child, "QueueCrashChild not found; build it with `swift build --build-tests`")
        let dir = try TestDirectory()
        let path = dir.path("queue.db")
        var rng = SplitMix64(seed: 2024)
        var appended = Set<Int64>()  // committed and not acknowledged
        var acknowledgedThrough: Int64 = 0  // everything up to here was acknowledged
        var lastCommitted: Int64 = 0  // highest sequence known committed
        var kills = 0, killsMidRun = 0, operations = 0, acknowledgements = 0, interrupted = 0
        for round in 0..<55 {
            let process = Process()
            process.executableURL = child
            process.arguments = [path, String(1_000 + round)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Wait until the child is at work (its first line), however slow the machine, then
            // kill it 0-60 ms later: the moment falls anywhere in its loop.
            var said = Data()
            while !said.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the child ended early; checked below
                said.append(chunk)
            }
            usleep(UInt32(rng.next() % 60_000))
            kill(process.processIdentifier, SIGKILL)
            said.append(output.fileHandleForReading.readDataToEndOfFile())
            let text = String(decoding: said, as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): child exited by itself: \(text.suffix(300))")
            kills += 1

            // What the child said happened.
            var pendingAppend: ClosedRange<Int64>?
            var pendingAcknowledge: Int64?
            var lines = 0
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count >= 2, let a = Int64(parts[1]) else {
                    Issue.record("round \(round): unexpected line '\(line)'")
                    continue
                }
                lines += 1
                switch parts[0] {
                case "a":
                    let b = Int64(parts[2])!
                    #expect(a == lastCommitted + 1 && b >= a, "round \(round): append \(a)...\(b) after \(lastCommitted)")
                    pendingAppend = a...b
                case "A":
                    #expect(pendingAppend == a...Int64(parts[2])!)
                    appended.formUnion(pendingAppend!)
                    lastCommitted = pendingAppend!.upperBound
                    pendingAppend = nil
                    operations += 1
                case "d":
                    pendingAcknowledge = a
                case "D":
                    #expect(pendingAcknowledge == a)
                    appended = appended.filter { $0 > a }
                    acknowledgedThrough = max(acknowledgedThrough, a)
                    pendingAcknowledge = nil
                    operations += 1
                    acknowledgements += 1
                default:
                    Issue.record("round \(round): unexpected line '\(line)'")
                }
            }
            if lines > 0 { killsMidRun += 1 }
            if pendingAppend != nil || pendingAcknowledge != nil { interrupted += 1 }

            // What the file says, read by this process.
            let queue = try PhoneQueue(path: path, responder: ResponderID(1))
            let rows = try queue.peek(limit: 1_000_000)
            let stored = Set(rows.map(\.sequence))
            for row in rows { #expect(row.fix == Self.expectedFix(row.sequence), "round \(round): fix \(row.sequence) altered") }
            #expect(rows.map(\.sequence) == rows.map(\.sequence).sorted())
            // An interrupted append is all there or not at all.
            if let pending = pendingAppend {
                let present = pending.filter { stored.contains($0) }.count
                #expect(present == 0 || present == pending.count, "round \(round): append \(pending) half done")
                if present == pending.count { appended.formUnion(pending); lastCommitted = pending.upperBound }
            }
            // An interrupted acknowledgement likewise.
            if let through = pendingAcknowledge {
                let covered = appended.filter { $0 <= through }
                let present = covered.filter { stored.contains($0) }.count
                #expect(present == 0 || present == covered.count, "round \(round): acknowledgement through \(through) half done")
                if present == 0 { appended = appended.filter { $0 > through }; acknowledgedThrough = max(acknowledgedThrough, through) }
            }
            // No acknowledged fix reappears; no appended fix is lost; nothing else is there.
            #expect(!stored.contains { $0 <= acknowledgedThrough && !appended.contains($0) }, "round \(round): acknowledged fix back")
            #expect(appended.subtracting(stored).isEmpty, "round \(round): lost \(appended.subtracting(stored).sorted().prefix(5))")
            #expect(stored == appended, "round \(round)")
            // Sequences: the file remembers the last one committed.
            #expect(queue.lastSequence == lastCommitted, "round \(round)")
        }
        #expect(kills >= 50)
        #expect(killsMidRun == kills, "every kill should land while the child is writing")
        #expect(operations >= kills && acknowledgements > 0, "too few committed operations to mean anything: \(operations)")
        #expect(interrupted > 0, "no kill landed inside a call")
        print(
            "QueueCrashTests: \(kills) kills (\(killsMidRun) mid-run, \(interrupted) inside a call), \(operations) committed operations (\(acknowledgements) acknowledgements), \(appended.count) fixes queued at the end, last sequence \(lastCommitted)"
        )
    }
}
