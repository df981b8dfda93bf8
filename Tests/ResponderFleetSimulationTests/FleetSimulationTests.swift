import Foundation
import Testing
import Responders
@testable import ResponderFleetSimulation

@Suite struct FleetSimulationTests {
    /// A small fleet with trouble ten times as often as the default, so a few minutes hold
    /// enough deaths, outages and incidents to score.
    static func troubled(seed: UInt64) -> FleetConfiguration {
        var c = FleetConfiguration(responders: 60, minutes: 20, seed: seed)
        c.deathsPerHour = 1
        c.networkLossesPerHour = 4
        c.captivePortalsPerHour = 2
        c.dutyChangesPerHour = 3
        c.incidentsPerHour = 300
        c.lostAnswerShare = 0.1
        c.slowUploadShare = 0.3
        return c
    }

    /// The goals hold on seeded runs: nothing lost or stored twice, no false OFFLINE, no offer
    /// to a responder unreachable past its DEGRADED threshold, every unreachable phone detected
    /// within its threshold + 1 s; and each measure had something to measure.
    @Test(arguments: [UInt64(1), 2])
    func goalsHoldWithTrouble(seed: UInt64) throws {
        let fleet = FleetSimulation(Self.troubled(seed: seed))
        fleet.run()
        let r = fleet.report
        #expect(r.fixesLost == 0, "seed \(seed)")
        #expect(r.duplicatesStored == 0)
        #expect(r.falseOffline == 0, "seed \(seed)")
        #expect(r.assignmentsToUnreachable == 0, "seed \(seed)")
        for duty in [DutyState.onDuty, .onMission] {
            let stats = try #require(r.detection[duty])
            #expect(stats.count > 0, "seed \(seed): no \(duty) episode")
            #expect(stats.missed == 0 && stats.max <= stats.threshold + 1, "seed \(seed): \(duty) \(stats)")
        }
        #expect(r.duplicatesReceived > 0 && r.incidents > 20 && r.assigned > 0)
        // 4 % of reachable responders never answer and silent phones cannot: some offers time
        // out; every offer ends at most once (acknowledged, declined or timed out).
        #expect(r.ackTimeouts > 0, "seed \(seed)")
        #expect(r.assigned + r.ackTimeouts <= r.offers, "seed \(seed): \(r.assigned) + \(r.ackTimeouts) > \(r.offers)")
        // Assignees whose phones die mid-incident: each such incident moves on, none is left.
        #expect(r.incidentsReassigned > 0, "seed \(seed)")
        #expect(r.incidentsLeftWithOfflineAssignee == 0, "seed \(seed)")
        #expect(r.fixesKept > 0 && r.fixesDelivered >= r.fixesKept - r.fixesQueuedAtEnd)
        #expect(r.fixesDropped[.inaccurate] > 0 && r.fixesDropped[.notDue] > 0)
        #expect(fleet.prometheusText.contains("responders_by_status{status=\"offline\"}"))
    }

    /// Phones that change duty every few minutes, with slow uploads: one that goes off duty a
    /// moment before it loses the network owes no fix (the server hears of the change when an
    /// upload in flight lands and rightly raises no OFFLINE), so it is no missed detection.
    @Test(arguments: [UInt64(1), 2, 3])
    func aPhoneOffDutyAsItGoesSilentIsNoMissedDetection(seed: UInt64) throws {
        var c = Self.troubled(seed: seed)
        c.dutyChangesPerHour = 40
        c.networkLossesPerHour = 8
        c.slowUploadShare = 0.6
        let fleet = FleetSimulation(c)
        fleet.run()
        for duty in [DutyState.onDuty, .onMission] {
            let stats = try #require(fleet.report.detection[duty])
            #expect(stats.count > 0 && stats.missed == 0 && stats.max <= stats.threshold + 1, "seed \(seed): \(duty) \(stats)")
        }
    }

    @Test func sameSeedSameRunAnotherSeedAnotherRun() {
        func summary(_ seed: UInt64) -> [Int] {
            let fleet = FleetSimulation(Self.troubled(seed: seed))
            fleet.run()
            let r = fleet.report
            return [
                r.fixesKept, r.fixesDelivered, r.duplicatesReceived, r.incidents, r.assigned, r.offers, r.transitions,
                r.detection[.onDuty]?.count ?? -1, fleet.arrivals.count
            ]
        }
        #expect(summary(3) == summary(3))
        #expect(summary(3) != summary(4))
    }

    /// The liveness replay records a rate.
    @Test func livenessReplayRecordsARate() {
        var c = Self.troubled(seed: 5)
        c.minutes = 10
        let fleet = FleetSimulation(c)
        fleet.run()
        fleet.measureLiveness(minimumUpdates: 1)
        #expect(fleet.report.livenessUpdatesPerSecond.count == 1 && fleet.report.livenessUpdatesPerSecond[0] > 0)
    }

    @Test func detectionStatsUseNearestRank() {
        let s = DetectionStats(times: [5, 1, 4, 2, 3, 10, 9, 8, 7, 6], threshold: 9, missed: 0)
        #expect([s.p50, s.p95, s.max] == [5, 10, 10])
        #expect(s.meetsGoal)  // 10 <= 9 + 1
        #expect(!DetectionStats(times: [10.5], threshold: 9, missed: 0).meetsGoal)
        let empty = DetectionStats(times: [], threshold: 60, missed: 1)
        #expect(empty.count == 0 && empty.max == 0 && !empty.meetsGoal)
    }
}
