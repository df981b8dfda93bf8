import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import FastCSV
import Geofencing
import Reminders
import Statistics
import Workloads
import DetectorScoring
import ReminderSimulation
import SpatialIndex

/// `geofence-bench nudges`: the transition detector, then the reminders layer for every device
/// (Simulation's NudgeSimulation), its decisions written and checked again from the file.
struct NudgesCommand: BenchSubcommand {
    static let name = "nudges"
    static let help = """
        geofence-bench nudges --fences F --fixes X [--truth T] [--preferences P] [--epoch ISO8601] [--out N.csv] [--json] [--reps R]
          Runs the transition detector over the fixes, then one reminders engine per device over its
          events: one task per POI (its fences are approach rings), simulated users who mark 30 % of
          the nudges done a minute after they see them.
          --preferences P  CSV device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale
                           (IANA zone, HH:mm; both quiet times empty = none); devices not listed get the
                           benchmark user's limits: UTC, quiet 22:00-07:00, cap 2 a day, 6 h spacing,
                           2 h cooldown (Near Me's policy with the user's own limits set).
          --epoch          the UTC instant of t = 0, 1900 or later (default 2026-01-05T00:00:00Z).
          --out N.csv      one row per decision: device,t,task,kind,decision,reason,channel,local_date.
          --truth T        adds nudge precision: delivered nudges whose triggering enter is true.
          Prints decisions per second of the reminders pass alone (wall and on-CPU, medians of R runs,
          default 3; a decision is one row of the decisions file),
          nudges per device-day, suppressions by reason and the invariants (over cap, in quiet hours,
          after completion, within cooldown, within spacing), counted in memory and again by an
          independent checker that re-reads the decisions file. Exit status 1 if any is not 0.
        """

    static let options: [Arguments.Option] = [
        .value("fences"), .value("fixes"), .value("truth"), .value("preferences"), .value("epoch"), .value("out"),
        .flag("json"), .value("reps")
    ]

    /// 1900-01-01T00:00:00Z in Unix seconds: the earliest `--epoch` accepted.
    static let earliestEpoch = -2_208_988_800.0

    let fencesPath: String, fixesPath: String
    let truthPath: String?, preferencesPath: String?, outPath: String?
    let epoch: Double
    let json: Bool
    let reps: Int

    init(arguments args: Arguments) throws(UsageError) {
        fencesPath = try args.required("fences")
        fixesPath = try args.required("fixes")
        truthPath = args.string("truth")
        preferencesPath = args.string("preferences")
        let epochText = args.string("epoch") ?? "2026-01-05T00:00:00Z"
        guard let epoch = ISO8601Instant.parse(epochText) else {
            throw UsageError("option '--epoch' expects an ISO 8601 instant such as 2026-01-05T00:00:00Z, got '\(MessageText.clipped(epochText))'")
        }
        // Local dates are proleptic Gregorian; Foundation's calendar (the checker's) switches to
        // Julian dates before 1582, so the two would disagree on older epochs.
        guard epoch >= Self.earliestEpoch else {
            throw UsageError("option '--epoch' must be 1900-01-01T00:00:00Z or later, got '\(MessageText.clipped(epochText))'")
        }
        self.epoch = epoch
        outPath = args.string("out")
        json = args.flag("json")
        reps = try args.int("reps", default: 3, in: 1...BenchLimits.maxReps)
    }

    func validate() throws(UsageError) {
        try FileIdentity.refuseOverwriting(
            outPath, option: "out",
            inputs: [
                ("fences", fencesPath), ("fixes", fixesPath), ("truth", truthPath), ("preferences", preferencesPath)
            ])
    }

    func execute() throws {
        // Every input is read before any work: the preferences first (the smallest file).
        let perDevice: [Int32: ReminderPreferences]
        do {
            perDevice = try preferencesPath.map { path throws(WorkloadIOError) in try NudgePreferencesReader.read(path: path) } ?? [:]
        } catch {
            throw BenchError("\(error)")
        }
        // The detector and the reminders follow each device through time: its fixes must be in time order.
        let (rows, fixes) = try loadWorkload(fencesPath: fencesPath, fixesPath: fixesPath, truthPath: truthPath, order: .perDevice)
        let fences = try makeFences(rows)
        var detector = try TransitionsCommand.makeDetector(fences, .default)
        let t0 = monotonicSeconds()
        let events = TransitionScoring.detect(fixes, with: &detector)
        printError("detector: \(events.count) events in \(formatFixed(monotonicSeconds() - t0, 2)) s")
        let simulation: NudgeSimulation
        do {
            simulation = try NudgeSimulation(fences: rows, events: events, epoch: epoch, perDevice: perDevice)
        } catch {
            throw BenchError("\(fencesPath): \(error)")
        }
        var runs: [Double] = [], cpuRuns: [Double] = []
        var run = NudgeRun()
        for _ in 0..<reps {
            let start = monotonicSeconds(), cpuStart = ProcessStats.threadCPUSeconds()
            run = simulation.run()
            runs.append(monotonicSeconds() - start)
            cpuRuns.append(ProcessStats.threadCPUSeconds() - cpuStart)
        }
        runs.sort()
        cpuRuns.sort()
        let seconds = OrderStatistics.median(runs), cpuSeconds = OrderStatistics.median(cpuRuns)
        let truth = truthPath == nil ? nil : try TransitionScoring.trueTransitions(fixes, index: PackedRTree(fences))
        let report = NudgeReport(run: run, simulation: simulation, fixes: fixes, truth: truth)
        let path = outPath ?? scratchPath("nudges", extension: "csv")
        defer { if outPath == nil { unlink(path) } }
        let checked: NudgeInvariants
        do {
            let w = try CSVWriter(path: path)
            NudgeDecisionsCSV.write(run, of: simulation, to: w)
            try w.close()
            checked = try NudgeDecisionsChecker.check(path: path, rules: .init(simulation, run))
        } catch let error as CSVError {
            // Writing: the message names the file, and there is no line; reading it back: its line.
            throw BenchError(error.line == 0 ? error.message : error.formatted(source: path))
        } catch {
            throw BenchError("\(error)")
        }
        let devices = Set(fixes.device).count
        if json {
            var o = JSONObject()
            o.set("fences", fences.count); o.set("fixes", fixes.count); o.set("devices", devices)
            o.set("tasks", simulation.book.entries.count); o.set("events", events.count)
            o.set("events_ignored", run.counters.ignored); o.set("decisions", report.decisions)
            o.set("decisions_per_second", Double(report.decisions) / seconds, decimals: 0)
            o.set("decisions_per_cpu_second", Double(report.decisions) / cpuSeconds, decimals: 0)
            o.set("events_per_second", Double(events.count) / seconds, decimals: 0)
            o.set("seconds_runs", array: runs.map { formatFixed($0, 4) })
            o.set("delivered", report.delivered); o.set("bundles", report.bundles)
            o.set("delivered_task_nudges", report.deliveredItems); o.set("queued", report.queued)
            o.set("device_days", report.deviceDays, decimals: 2)
            o.set("nudges_per_device_day", report.nudgesPerDeviceDay, decimals: 3)
            var s = JSONObject()
            for (reason, n) in report.suppressedByReason.sorted(by: { $0.key < $1.key }) { s.set(reason, n) }
            o.set("suppressed", object: s)
            if let p = report.precision, let hits = report.truePositiveItems {
                o.set("precision", p, decimals: 4); o.set("true_positive_nudges", hits)
            }
            o.set("completions", run.completions.count)
            o.set("invariants", object: Self.invariantsJSON(report.invariants))
            o.set("checker", object: Self.invariantsJSON(checked))
            print(o.text)
        } else {
            print("\(devices) devices, \(simulation.book.entries.count) tasks, \(events.count) events -> \(report.decisions) decisions")
            print(
                "reminders pass: \(formatFixed(Double(report.decisions) / seconds / 1e6, 2)) M decisions/s, "
                    + "\(formatFixed(Double(events.count) / seconds / 1e6, 2)) M events/s (median of \(reps); on-CPU "
                    + "\(formatFixed(Double(report.decisions) / cpuSeconds / 1e6, 2)) M decisions/s)")
            print(
                "delivered \(report.delivered) (\(report.bundles) bundles, \(report.deliveredItems) task nudges), "
                    + "\(formatFixed(report.nudgesPerDeviceDay, 3)) per device-day over \(formatFixed(report.deviceDays, 1)) device-days")
            if let p = report.precision, let hits = report.truePositiveItems {
                print("precision \(formatFixed(p * 100, 2)) % (\(hits) of \(report.deliveredItems))")
            }
            print("suppressed: " + report.suppressedByReason.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            print("invariants (benchmark): \(Self.invariantsJSON(report.invariants).text)")
            print("invariants (checker):   \(Self.invariantsJSON(checked).text)")
        }
        if report.invariants.total + checked.total > 0 { throw BenchError("nudges: an invariant is broken (see above)") }
    }

    static func invariantsJSON(_ i: NudgeInvariants) -> JSONObject {
        var o = JSONObject()
        o.set("over_cap", i.overCap); o.set("in_quiet_hours", i.inQuietHours); o.set("after_completion", i.afterCompletion)
        o.set("within_cooldown", i.withinCooldown); o.set("within_spacing", i.withinSpacing); o.set("wrong_local_date", i.wrongLocalDate)
        return o
    }
}
