import Foundation
import ResponderFleetSimulation
import ResponderStore
import Testing
@testable import GeofenceBench

/// The ingest replay stores one row per distinct (responder, sequence), whatever the
/// transaction size.
@Test func fleetIngestStoresEveryDistinctFixOnce() throws {
    var c = FleetConfiguration(responders: 60, minutes: 10, seed: 5)
    c.networkLossesPerHour = 4
    c.lostAnswerShare = 0.1
    c.slowUploadShare = 0.3
    let fleet = FleetSimulation(c)
    fleet.run()
    let distinct = Set(fleet.arrivals.map { "\($0.fix.responder.rawValue)/\($0.fix.sequence)" }).count
    #expect(distinct < fleet.arrivals.count)  // copies were delivered
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(getpid()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    for size in [1, 7, 10_000] {
        let run = try FleetIngest.ingest(fleet.arrivals, transactionSize: size, path: path)
        #expect(run.duplicatesStored == 0 && run.perSecond > 0 && run.perCPUSecond > 0, "transaction size \(size)")
        #expect(try SQLiteServerStore(path: path).historyCount() == distinct, "transaction size \(size)")
        #expect(try FleetIngest.serverIngest(fleet.arrivals, transactionSize: size, path: path) > 0)
    }
}
