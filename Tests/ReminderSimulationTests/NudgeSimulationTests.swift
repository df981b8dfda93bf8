import FastCSV
import Foundation
import Geofencing
import Reminders
import SpatialIndex
import Testing
import Workloads
import DetectorScoring
@testable import ReminderSimulation

@Suite struct NudgeSimulationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    @Test func preferencesFixture() throws {
        let p = try NudgePreferencesReader.read(path: Self.fixtures.appendingPathComponent("nudge_preferences.csv").path)
        #expect(p.count == 3)
        #expect(p[0]?.timeZone.identifier == "America/New_York")
        #expect(p[0]?.proximity.quietHours == (try QuietHours(from: "22:00", to: "07:00")))
        #expect(p[0]?.proximity.dailyCap == 1 && p[0]?.proximity.minimumSpacingSeconds == 3_600 && p[0]?.proximity.defaultCooldownSeconds == 1_800)
        #expect(p[1]?.proximity.quietHours?.contains(minute: 2 * 60) == true)
        #expect(p[1]?.distanceUnit == .kilometers)
        #expect(p[2]?.proximity.quietHours == nil)
        #expect(p[2]?.distanceUnit == .miles)
    }

    @Test(arguments: [
        ("0,Mars/Olympus,22:00,07:00,2,0,0,en_US", "time_zone", "unknown IANA time zone 'Mars/Olympus'"),
        ("0,UTC,22:00,7,2,0,0,en_US", "quiet_end", "expected a 24-hour time HH:mm, found '7'"),
        ("0,UTC,25:00,07:00,2,0,0,en_US", "quiet_start", "expected a 24-hour time HH:mm, found '25:00'"),
        ("0,UTC,,07:00,2,0,0,en_US", "quiet_start", "quiet_start and quiet_end must both be set or both be empty"),
        ("0,UTC,22:00,07:00,-1,0,0,en_US", "daily_cap", "expected a daily cap >= 0, found '-1'"),
        ("0,UTC,22:00,07:00,two,0,0,en_US", "daily_cap", "expected a whole number in the 32-bit range, found 'two'"),
        ("0,UTC,22:00,07:00,2,-5,0,en_US", "spacing_s", "expected a value >= 0, found '-5'"),
        ("0,UTC,22:00,07:00,2,0,nan,en_US", "cooldown_s", "expected a number, found 'nan'"),
        ("x,UTC,22:00,07:00,2,0,0,en_US", "device", "expected a whole number in the 32-bit range, found 'x'"),
        ("-1,UTC,22:00,07:00,2,0,0,en_US", "device", "expected a whole number in 0...2147483647, found '-1'")
    ])
    func badPreferenceRowsNameLineAndField(row: String, column: String, message: String) throws {
        let path = try scratch.write(
            "device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n"
                + "7,UTC,22:00,07:00,2,0,0,en_US\n" + row + "\n")
        #expect(throws: WorkloadIOError.badRow(path: path, line: 3, column: column, message: message)) {
            try NudgePreferencesReader.read(path: path)
        }
    }

    /// A fence id far beyond the number of fences is refused with the fence named (the
    /// bindings are a table by fence id); the largest accepted id is built.
    @Test func sparseFenceIDsAreRefused() throws {
        let limit = NudgeSimulation.maximumFenceID(fenceCount: 2)
        func fences(_ id: Int32) -> [WorkloadFence] {
            [
                WorkloadFence(id: 0, latitude: 40.7, longitude: -74, radius: 1609, poiID: 1, tier: 0),
                WorkloadFence(id: id, latitude: 40.7, longitude: -74, radius: 4828, poiID: 1, tier: 1)
            ]
        }
        #expect(
            throws: ReminderError.invalidTask(
                id: "poi-1",
                message: "fence id 2000000000 is above \(limit), the largest id a world of 2 fences accepts (bindings are a table by fence id)")
        ) {
            try NudgeSimulation(fences: fences(2_000_000_000), events: [], epoch: 0)
        }
        #expect(try NudgeSimulation(fences: fences(Int32(limit)), events: [], epoch: 0).book.bindings.count == limit + 1)
    }

    @Test func duplicateDeviceAndMissingColumn() throws {
        let dup = try scratch.write(
            "device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n"
                + "7,UTC,,,2,0,0,\n7,UTC,,,2,0,0,\n")
        #expect(throws: WorkloadIOError.badRow(path: dup, line: 3, column: "device", message: "device 7 is listed twice")) {
            try NudgePreferencesReader.read(path: dup)
        }
        let missing = try scratch.write("device,time_zone\n7,UTC\n")
        #expect(throws: WorkloadIOError.missingColumn(path: missing, column: "quiet_start")) { try NudgePreferencesReader.read(path: missing) }
        let empty = try scratch.write("device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n")
        #expect(try NudgePreferencesReader.read(path: empty).isEmpty)
    }

    /// The checker finds each kind of broken promise in a hand-made file, and none in a clean one.
    @Test func checkerCountsViolations() throws {
        var p = ReminderPreferences()
        try p.setTimeZone(identifier: "America/New_York")
        p.proximity.quietHours = try QuietHours(from: "22:00", to: "07:00")
        p.proximity.dailyCap = 1
        p.proximity.minimumSpacingSeconds = 3_600
        p.proximity.defaultCooldownSeconds = 7_200
        let rules = NudgeDecisionsChecker.Rules(
            epoch: 1_767_571_200, defaults: ReminderPreferences(), perDevice: [0: p],
            completions: [0: ["c": 1_767_571_200 + 90_000]])
        // Epoch = 2026-01-04 19:00 in New York.
        let clean =
            "device,t,task,kind,decision,reason,channel,local_date\n"
            + "0,3600,a,approach,deliver,,notification,2026-01-04\n"  // 20:00
            + "0,7200,b,approach,suppress,daily_cap,,2026-01-04\n"
            + "0,7300,b,approach,queue,do_not_disturb,,2026-01-04\n"
            + "0,50000,a+c,bundle,deliver,,notification,2026-01-05\n"  // 08:53 next day
            + "1,40000,x,offer,deliver,,in_app,2026-01-05\n"  // device 1: UTC defaults, 11:06
        #expect(try NudgeDecisionsChecker.check(path: try scratch.write(clean), rules: rules) == NudgeInvariants())
        let broken =
            "device,t,task,kind,decision,reason,channel,local_date\n"
            + "0,3600,a,approach,deliver,,notification,2026-01-05\n"  // wrong date
            + "0,5000,a,approach,deliver,,notification,2026-01-04\n"  // over cap, spacing, cooldown
            + "0,11000,b,approach,deliver,,notification,2026-01-04\n"  // 22:03: quiet, over cap
            + "0,95000,c,approach,deliver,,notification,2026-01-05\n"  // after completion
        let found = try NudgeDecisionsChecker.check(path: try scratch.write(broken), rules: rules)
        #expect(found.wrongLocalDate == 1)
        #expect(found.overCap == 2)
        #expect(found.withinSpacing == 1)
        #expect(found.withinCooldown == 1)
        #expect(found.inQuietHours == 1)
        #expect(found.afterCompletion == 1)
        let bad = try scratch.write("device,t,task,kind,decision,reason,channel,local_date\n0,1,a,approach,deliver,,pigeon,2026-01-04\n")
        #expect(throws: WorkloadIOError.badRow(path: bad, line: 2, column: "channel", message: "unknown channel 'pigeon'")) {
            try NudgeDecisionsChecker.check(path: bad, rules: rules)
        }
    }

    /// A small synthetic world end to end: decisions are made, nothing breaks a promise by either
    /// count, and the run is deterministic.
    @Test func endToEnd() throws {
        let w = WorkloadGenerator.make(WorkloadSpec(pois: 300, devices: 30, fixes: 30_000, seed: 5))
        let fences = try w.fences.map { try Fence(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, radiusMeters: $0.radius) }
        var detector = try TransitionDetector(fences: fences)
        let events = TransitionScoring.detect(w.fixes, with: &detector)
        var prefs = try NudgePreferencesReader.read(path: Self.fixtures.appendingPathComponent("nudge_preferences.csv").path)
        prefs[3] = prefs[0]
        let sim = try NudgeSimulation(fences: w.fences, events: events, epoch: 1_767_571_200, perDevice: prefs)
        let run = sim.run()
        let again = sim.run()
        #expect(run.decisions == again.decisions && run.devices == again.devices)
        let report = NudgeReport(
            run: run, simulation: sim, fixes: w.fixes, truth: try TransitionScoring.trueTransitions(w.fixes, index: PackedRTree(fences)))
        #expect(report.decisions == run.decisions.count)
        #expect(report.delivered > 10)
        #expect(report.suppressedByReason["already_nudged", default: 0] > 0)
        #expect(report.invariants == NudgeInvariants())
        #expect(report.precision! > 0.9)
        let writer = CSVWriter(collectingWithCapacity: 1 << 16)
        NudgeDecisionsCSV.write(run, of: sim, to: writer)
        let bytes = writer.bytes
        let path = try scratch.write(String(decoding: bytes, as: UTF8.self))
        #expect(try NudgeDecisionsChecker.check(path: path, rules: .init(sim, run)) == NudgeInvariants())
        #expect(String(decoding: bytes, as: UTF8.self).split(separator: "\n").count == run.decisions.count + 1)
    }
}
