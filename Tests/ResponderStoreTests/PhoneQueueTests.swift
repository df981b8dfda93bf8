import Foundation
import Geodesy
import Testing
import Responders
@testable import ResponderStore

@Suite struct PhoneQueueTests {
    func fix(_ t: Double) -> LocationFix { LocationFix(time: t, latitude: 60, longitude: 25 + t / 1000, accuracy: 5) }

    @Test func appendPeekAcknowledgeAndSequencesAcrossReopen() throws {
        let dir = try TestDirectory()
        let path = dir.path("queue.sqlite")
        do {
            let queue = try PhoneQueue(path: path, responder: ResponderID(9))
            #expect(try queue.depth() == 0 && queue.oldestTime() == nil && queue.peek(limit: 10).isEmpty)
            #expect(try queue.append(fix(10), duty: .onDuty).sequence == 1)
            let more = try queue.append(contentsOf: [fix(20), fix(30), fix(40)], duty: .onMission, powerMode: .lowPower)
            #expect(more.map(\.sequence) == [2, 3, 4])
            #expect(try queue.append(contentsOf: [], duty: .onDuty).isEmpty)
            let front = try queue.peek(limit: 2)
            #expect(front.map(\.sequence) == [1, 2])
            #expect(front[1] == ReportedFix(responder: ResponderID(9), sequence: 2, fix: fix(20), duty: .onMission, powerMode: .lowPower))
            #expect(try queue.oldestTime() == 10)
            try queue.acknowledge(through: 2)
            #expect(try queue.peek(limit: 100).map(\.sequence) == [3, 4])
            try queue.acknowledge(through: 4)
            #expect(try queue.depth() == 0)
        }
        let reopened = try PhoneQueue(path: path, responder: ResponderID(9))
        #expect(reopened.lastSequence == 4)
        #expect(try reopened.append(fix(50), duty: .onDuty).sequence == 5)  // never reused, though the queue was empty
        #expect(throws: ResponderStoreError.responderMismatch(path: path, stored: 9, requested: 8)) {
            _ = try PhoneQueue(path: path, responder: ResponderID(8))
        }
    }

    @Test func anInvalidFixNamesTheFieldAndAppendsNothing() throws {
        let dir = try TestDirectory()
        let queue = try PhoneQueue(path: dir.path("q.sqlite"), responder: ResponderID(1))
        let bad = LocationFix(time: 5, latitude: .nan, longitude: 25, accuracy: 5)
        #expect {
            _ = try queue.append(contentsOf: [fix(1), bad], duty: .onDuty)
        } throws: { error in
            (error as? ResponderStoreError)?.description == "\(dir.path("q.sqlite")): fix 2: latitude is nan, not a finite number"
        }
        #expect(try queue.depth() == 0)
        #expect(queue.lastSequence == 0)
    }

    @Test(arguments: [UInt64(1), 2])
    func randomBytesAreNotADatabaseAndStayUntouched(seed: UInt64) throws {
        let dir = try TestDirectory()
        let path = try dir.randomFile("noise.sqlite", count: 65_536, seed: seed)
        let before = try dir.bytes(path)
        #expect(throws: ResponderStoreError.notADatabase(path: path)) { _ = try PhoneQueue(path: path, responder: ResponderID(1)) }
        #expect(throws: ResponderStoreError.notADatabase(path: path)) { _ = try SQLiteServerStore(path: path) }
        #expect(try dir.bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["noise.sqlite"])
    }

    @Test func aForeignDatabaseIsRefusedAndLeftAsItWas() throws {
        let dir = try TestDirectory()
        let path = dir.path("other.db")
        #expect(
            TestDirectory.sql(
                path,
                "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE orders (id INTEGER); INSERT INTO customers VALUES (1, 'a');"
            ) == 0)
        let before = try dir.bytes(path)
        let found = "application id 0, tables customers, orders"
        #expect(throws: ResponderStoreError.foreignDatabase(path: path, expected: "phone queue", found: found)) {
            _ = try PhoneQueue(path: path, responder: ResponderID(1))
        }
        #expect(throws: ResponderStoreError.foreignDatabase(path: path, expected: "server store", found: found)) {
            _ = try SQLiteServerStore(path: path)
        }
        #expect(try dir.bytes(path) == before)
        // A phone queue is foreign to the server store and the other way round.
        let queuePath = dir.path("queue.db")
        _ = try PhoneQueue(path: queuePath, responder: ResponderID(1))
        #expect(
            throws: ResponderStoreError.foreignDatabase(
                path: queuePath, expected: "server store",
                found: "application id \(0x4746_5051), tables queue_meta, queued_fix")
        ) {
            _ = try SQLiteServerStore(path: queuePath)
        }
    }

    @Test func anotherSchemaVersionIsRefused() throws {
        let dir = try TestDirectory()
        let path = dir.path("queue.db")
        _ = try PhoneQueue(path: path, responder: ResponderID(1))
        #expect(TestDirectory.sql(path, "PRAGMA user_version = 99") == 0)
        #expect(throws: ResponderStoreError.unsupportedVersion(path: path, found: 99, supported: 1)) {
            _ = try PhoneQueue(path: path, responder: ResponderID(1))
        }
    }

    /// Our own file with damaged pages: the quick check on open reports it, nothing is written.
    @Test func damagedPagesAreReportedAsCorrupt() throws {
        let dir = try TestDirectory()
        let path = dir.path("queue.db")
        do {
            let queue = try PhoneQueue(path: path, responder: ResponderID(1))
            for k in 0..<40 { try queue.append(contentsOf: (0..<50).map { fix(Double(k * 50 + $0)) }, duty: .onDuty) }
        }
        var bytes = try dir.bytes(path)
        #expect(bytes.count > 40_000)
        var rng = SplitMix64(seed: 3)
        for k in 12_288..<(bytes.count - 4_096) where rng.nextUnit() < 0.5 { bytes[k] = UInt8(truncatingIfNeeded: rng.next()) }
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try PhoneQueue(path: path, responder: ResponderID(1))
        } throws: { error in
            guard case .corrupt(let p, _) = error as? ResponderStoreError else { return false }
            return p == path
        }
        #expect(try dir.bytes(path) == bytes)
    }

    @Test func aMissingDirectoryCannotBeOpened() throws {
        let dir = try TestDirectory()
        let path = dir.path("missing/queue.db")
        #expect {
            _ = try PhoneQueue(path: path, responder: ResponderID(1))
        } throws: { error in
            guard case .cannotOpen(let p, _) = error as? ResponderStoreError else { return false }
            return p == path
        }
    }
}
