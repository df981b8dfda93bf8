import Foundation
import Geodesy
import Testing
import Responders
@testable import ResponderStore

@Suite struct SQLiteServerStoreTests {
    /// Seeded property: the SQLite store and the in-memory reference agree on every batch
    /// (new flags, counts), on the latest locations and on the history, with batches that are
    /// reordered, duplicated and stale; and all of it survives a reopen.
    @Test(arguments: [UInt64(41), 42])
    func agreesWithTheMemoryStore(seed: UInt64) throws {
        let dir = try TestDirectory()
        let path = dir.path("server.db")
        var rng = SplitMix64(seed: seed)
        var sqlite = try SQLiteServerStore(path: path)
        var memory = MemoryServerStore()
        var sent: [ReportedFix] = []
        var flagsA: [Bool] = [], flagsB: [Bool] = []
        for step in 0..<400 {
            var batch: [ReportedFix] = []
            for _ in 0..<Int(rng.next() % 20) {
                if !sent.isEmpty && rng.nextUnit() < 0.3 {
                    batch.append(sent[Int(rng.next() % UInt64(sent.count))])  // a copy
                } else {
                    let responder = Int(rng.next() % 15)
                    let fix = ReportedFix(
                        responder: ResponderID(responder), sequence: Int64(rng.next() % 200),
                        fix: LocationFix(
                            time: Double(rng.next() % 1_000), latitude: -90 + 180 * rng.nextUnit(),
                            longitude: -180 + 360 * rng.nextUnit(), accuracy: 10 * rng.nextUnit()),
                        duty: DutyState(rawValue: UInt8(rng.next() % 3))!, powerMode: rng.nextUnit() < 0.2 ? .lowPower : .normal)
                    batch.append(fix)
                    sent.append(fix)
                }
            }
            let arrivals = batch.map { StoredFix(fix: $0, receivedAt: Double(step) + rng.nextUnit()) }
            let a = try sqlite.insert(arrivals, isNew: &flagsA)
            let b = memory.insert(arrivals, isNew: &flagsB)
            #expect(a == b, "seed \(seed), step \(step)")
            #expect(flagsA == flagsB, "seed \(seed), step \(step)")
        }
        #expect(try sqlite.historyCount() == memory.historyCount())
        #expect(try sqlite.allLatest() == memory.allLatest())
        #expect(try sqlite.historyByArrival() == memory.historyByArrival())
        sqlite = try SQLiteServerStore(path: path)
        #expect(try sqlite.historyCount() == memory.historyCount())
        #expect(try sqlite.latest(of: ResponderID(3)) == memory.latest(of: ResponderID(3)))
        #expect(try sqlite.latest(of: ResponderID(99)) == nil)
    }

    /// The uniqueness is the database's own constraint: a second row written past the store's
    /// code is rejected by SQLite itself.
    @Test func uniquenessIsAConstraintOfTheSchema() throws {
        let dir = try TestDirectory()
        let path = dir.path("server.db")
        let store = try SQLiteServerStore(path: path)
        var flags: [Bool] = []
        _ = try store.insert(
            [
                StoredFix(
                    fix: ReportedFix(
                        responder: ResponderID(1), sequence: 1, fix: LocationFix(time: 1, latitude: 0, longitude: 0, accuracy: 1), duty: .onDuty),
                    receivedAt: 2)
            ],
            isNew: &flags)
        let duplicate = "INSERT INTO fix_history VALUES (1, 1, 5, 0, 0, 1, 1, 0, 6)"
        #expect(TestDirectory.sql(path, duplicate) == 19)  // SQLITE_CONSTRAINT
        #expect(TestDirectory.sql(path, "INSERT INTO fix_history VALUES (1, 2, 5, 0, 0, 1, 1, 0, 6)") == 0)
    }

    @Test func aBadBatchIsRejectedWhole() throws {
        let dir = try TestDirectory()
        let store = try SQLiteServerStore(path: dir.path("server.db"))
        var flags: [Bool] = []
        let good = ReportedFix(
            responder: ResponderID(1), sequence: 1, fix: LocationFix(time: 1, latitude: 0, longitude: 0, accuracy: 1), duty: .onDuty)
        var bad = good
        bad.sequence = 2
        bad.fix.accuracy = .infinity
        #expect {
            _ = try store.insert([good, bad].map { StoredFix(fix: $0, receivedAt: 3) }, isNew: &flags)
        } throws: { error in
            guard case .invalidValue(_, 2, "accuracy", let value) = error as? ResponderStoreError else { return false }
            return value == .infinity
        }
        #expect(try store.historyCount() == 0)
        #expect(try store.allLatest().isEmpty)
    }

    /// A hand-edited file: a field that is text, NULL or not finite where the schema wants a
    /// number is reported as corruption naming the fix and the field, not read as 0 (a text
    /// `received_at` sorts after every number and would break the arrival order).
    @Test(arguments: [
        ("received_at", "'abc'"), ("received_at", "9e999"), ("latitude", "'north'"), ("time", "-9e999"),
        ("accuracy", "x'00'")
    ])
    func nonNumericFieldsAreCorruption(field: String, value: String) throws {
        let dir = try TestDirectory()
        let path = dir.path("server.db")
        do {
            let store = try SQLiteServerStore(path: path)
            var flags: [Bool] = []
            let fixes = (1...2).map {
                ReportedFix(
                    responder: ResponderID(3), sequence: Int64($0), fix: LocationFix(time: Double($0), latitude: 0, longitude: 0, accuracy: 1),
                    duty: .onDuty)
            }
            _ = try store.insert(fixes.map { StoredFix(fix: $0, receivedAt: 10 * $0.fix.time) }, isNew: &flags)
        }
        #expect(TestDirectory.sql(path, "UPDATE fix_history SET \(field) = \(value) WHERE sequence = 1") == 0)
        let store = try SQLiteServerStore(path: path, readOnly: true)
        #expect {
            _ = try store.historyByArrival()
        } throws: { error in
            guard case .corrupt(_, let message) = error as? ResponderStoreError else { return false }
            return message == "fix 1 of responder 3: \(field) is not a finite number"
        }
        #expect(try store.allLatest().count == 1)  // latest_fix was not edited
    }
}
