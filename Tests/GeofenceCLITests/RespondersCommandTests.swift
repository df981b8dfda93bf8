import CSQLite
import Foundation
import ResponderStore
import Responders
import Testing

/// End-to-end tests of `geofence responders metrics`: the built binary on a store written here,
/// against the library's own replay as the oracle, and on files that are not responder stores.
@Suite struct RespondersCommandTests {
    let cli = GeofenceCLITests()

    func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("geofence-cli-\(getpid())-\(name)").path
    }

    func remove(_ path: String) { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }

    func fix(_ responder: Int, _ sequence: Int64, _ time: Double, _ duty: DutyState = .onDuty) -> ReportedFix {
        ReportedFix(
            responder: ResponderID(responder), sequence: sequence,
            fix: LocationFix(time: time, latitude: 60.17, longitude: 24.94, accuracy: 8), duty: duty)
    }

    @Test func metricsOfAStoreMatchTheLibraryReplay() throws {
        let path = scratch("store.sqlite")
        defer { remove(path) }
        do {
            var server = ResponderServer(store: try SQLiteServerStore(path: path))
            try server.ingest([fix(1, 1, 0), fix(2, 1, 0, .onMission)], receivedAt: 1.5)
            try server.ingest([fix(1, 2, 60), fix(1, 1, 0)], receivedAt: 62)  // with a copy
            try server.ingest([fix(3, 1, 50, .offDuty)], receivedAt: 400)
        }
        let result = try cli.run(["responders", "metrics", "--db", path, "--now", "300"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let history = try SQLiteServerStore(path: path, readOnly: true).historyByArrival()
        #expect(history.count == 4)
        #expect(result.stdout == ResponderServer<MemoryServerStore>.replaying(history, until: 300).prometheusText)
        // At 300 s: responder 1 (last fix 60 s, on duty) offline at 240; 2 (mission) offline at 60;
        // 3 not yet seen (its fix arrives at 400).
        #expect(result.stdout.contains("responders_by_status{status=\"offline\"} 2\n"))
        #expect(result.stdout.contains("status_transitions_total{from=\"degraded\",to=\"offline\"} 2\n"))
        #expect(result.stdout.contains("location_update_delay_seconds_count 3\n"))  // the fix of 400 s is not in yet
        // Default --now: the latest arrival (400 s).
        let latest = try cli.run(["responders", "metrics", "--db", path])
        #expect(latest.stdout.contains("responders_by_status{status=\"off_duty\"} 1\n"))
        #expect(latest.stdout.contains("location_update_delay_seconds_count 4\n"))
    }

    /// "Opened read-only" is true of the files: no `-wal` or `-shm` appears beside the store,
    /// whether it is writable or mode 444, and its bytes do not change.
    @Test func metricsLeaveNothingBesideTheStore() throws {
        let path = scratch("readonly.sqlite")
        defer { chmod(path, 0o644); remove(path) }
        do {
            var server = ResponderServer(store: try SQLiteServerStore(path: path))
            try server.ingest([fix(1, 1, 0)], receivedAt: 1)
        }
        #expect(access(path + "-wal", F_OK) != 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for mode: mode_t in [0o644, 0o444] {
            chmod(path, mode)
            let result = try cli.run(["responders", "metrics", "--db", path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("responders_by_status"))
            #expect(access(path + "-wal", F_OK) != 0 && access(path + "-shm", F_OK) != 0, "mode \(String(mode, radix: 8))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    /// A store whose `received_at` was edited to text: status 1 and the field named, where the
    /// replay used to trap on arrivals out of order.
    @Test func aHandEditedArrivalTimeFailsWithTheFieldNamed() throws {
        let path = scratch("edited.sqlite")
        defer { remove(path) }
        do {
            var server = ResponderServer(store: try SQLiteServerStore(path: path))
            try server.ingest([fix(1, 1, 0)], receivedAt: 1.5)
            try server.ingest([fix(1, 2, 60)], receivedAt: 62)
        }
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "UPDATE fix_history SET received_at = 'abc' WHERE sequence = 1", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let result = try cli.run(["responders", "metrics", "--db", path, "--now", "100"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(path): database is corrupt: fix 1 of responder 1: received_at is not a finite number (left unchanged)\n")
    }

    @Test func filesThatAreNotStoresFailWithTheFileNamed() throws {
        let missing = scratch("missing.sqlite")
        defer { remove(missing) }
        let noStore = try cli.run(["responders", "metrics", "--db", missing])
        #expect(noStore.status == 1)
        #expect(noStore.stderr.hasPrefix("\(missing): cannot open"))
        #expect(!FileManager.default.fileExists(atPath: missing))  // read-only: nothing created

        let noise = scratch("noise.sqlite")
        defer { remove(noise) }
        try Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(to: URL(fileURLWithPath: noise))
        let garbage = try cli.run(["responders", "metrics", "--db", noise])
        #expect(garbage.status == 1)
        #expect(garbage.stderr == "\(noise): not an SQLite database (left unchanged)\n")

        let queue = scratch("queue.sqlite")
        defer { remove(queue) }
        _ = try PhoneQueue(path: queue, responder: ResponderID(1))
        let wrongKind = try cli.run(["responders", "metrics", "--db", queue])
        #expect(wrongKind.status == 1)
        #expect(
            wrongKind.stderr == "\(queue): not a responder server store (application id 1195790417, tables queue_meta, queued_fix); left unchanged\n")
    }

    @Test(arguments: [
        ["responders"], ["responders", "stats"], ["responders", "metrics"], ["responders", "metrics", "--db"],
        ["responders", "metrics", "--db", "x", "--now", "soon"], ["responders", "metrics", "--db", "x", "--verbose"]
    ])
    func badCommandLinesExitTwo(arguments: [String]) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.hasPrefix("geofence responders: "), "\(arguments): \(result.stderr)")
    }
}
