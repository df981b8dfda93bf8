import JSON
import Geodesy
import Geofencing
import SpatialIndex
import Workloads
import RegionMonitorSimulation
import CommandSupport

/// `geofence-bench plan`: region selection under an OS cap, scored through the simulated OS
/// against the noise-free truth (definitions in ``PlanScoring``), for the MonitorPlanner and
/// two baselines in the same run.
struct PlanCommand: BenchSubcommand {
    static let name = "plan"
    static let help = """
        geofence-bench plan --fences F --fixes X --truth T [--polygons P.geojson] [--cap N] [--json]
                            [--margin M] [--min-refresh M] [--min-refresh-seconds S] [--lead-seconds S] [--lead-min-speed V]
                            [--max-unguarded K] [--no-unguarded-budget]
                            [--crowded priority|boundary] [--catch-up K] [--pass M] [--delay S] [--significant-change M]
                            [--significant-change-replans] [--no-initial-state] [--seed S]
                            [--wake-gate G] [--wake-exit-gate G] [--wake-confirm K] [--motion-max-accuracy M]
                            [--ring-shielding] [--fence-event-replans] [--check-at-plans-only]
          Simulates an OS that monitors at most N regions (default 20; iOS 20, Android 100), sees the true
          position, reports a crossing once it is --pass meters past the boundary (default 50) after a
          uniform delay in [0, --delay] seconds (default 60, seeded by --seed), and reports a newly
          registered region's state unless --no-initial-state. Three policies:
            planner          MonitorPlanner: N-1 fences by boundary distance + a refresh region; replans when
                             the refresh region is exited. Defaults are the planner's: safety margin --margin
                             meters (0); --min-refresh-seconds S (240) floors the refresh radius to the distance
                             covered in S seconds at the app's speed; --lead-seconds S (240) centers the refresh
                             circle speed x S meters ahead along its heading (at --lead-min-speed V m/s or
                             faster, default 2); 0 turns either off. Both are shortened where a plan would
                             leave more than --max-unguarded K fences (default 30) with a boundary inside the
                             refresh circle unmonitored; --no-unguarded-budget: never.
                             --min-refresh M floors the refresh radius in meters; --crowded says who gets the
                             slots when the cap is too small for the guarantee; --catch-up K caps the slots for
                             fences entered unseen since the previous plan (default all). The OS's
                             significant-change signal (every --significant-change meters, default 500, at most
                             every 300 s; 0: none) wakes the app for its check; --significant-change-replans
                             makes it plan instead.
            nearest-once     the N fences with the nearest centers, planned at the first fix only
            nearest-15min    the same, replanned every 15 minutes
          A true entry (truth outside -> inside between consecutive fixes) is caught when an enter event for
          that fence is delivered 0-600 s after it while the truth is inside; entries the truth reverses
          within 60 s are optional. recall counts OS events alone; recall_with_wakeup_check (system recall)
          also counts the app's own check of its noisy fix at every wake-up (any delivered OS event or plan;
          --check-at-plans-only: at plans only), the same for all three policies: it fires a fence when the
          fix is --wake-gate G x its accuracy inside (default 1), forgets it when the fix is
          --wake-exit-gate G x accuracy outside (default 0), and takes up to --wake-confirm K more fixes
          (default 3) when a fix is inside but not by the gate. The app's speed and heading come from its
          latest fix and the latest of the 4 before it with accuracy <= --motion-max-accuracy M (100).
          --polygons P.geojson: the fences with a feature there are polygon fences (as in transitions): the
          planner plans each as its row's circle (the polygon's enclosing circle, with an arrival fence's
          priority), the OS watches that circle, and the app, woken by its enter, checks the polygon at every
          fix until the OS reports the circle left: it runs the TransitionDetector (its defaults, on the
          distance to the polygon's boundary) over every fix it wakes for, and the polygon fires when the
          detector reports its entry; a true polygon entry counts as caught only when the polygon fires.
          Reports replans and wakes per device-hour, fences added/removed per replan, false and repeated
          wake-time fires. --ring-shielding: concentric
          rings behind a nearer ring of the same place get no slot; --fence-event-replans: the app plans
          again on every crossing a monitored fence reports (which shielding needs).
          --significant-change-wakes-only states the default (the signal only wakes the app).
        """

    static let options: [Arguments.Option] = [
        .value("fences"), .value("fixes"), .value("truth"), .value("polygons"), .value("cap"), .flag("json"),
        .value("margin"), .value("min-refresh"), .value("min-refresh-seconds"), .value("lead-seconds"),
        .value("lead-min-speed"), .value("max-unguarded"), .flag("no-unguarded-budget"),
        .value("crowded"), .value("catch-up"), .value("pass"), .value("delay"), .value("significant-change"),
        .flag("significant-change-replans"), .flag("significant-change-wakes-only"), .flag("no-initial-state"),
        .value("seed"), .value("wake-gate"), .value("wake-exit-gate"), .value("wake-confirm"),
        .value("motion-max-accuracy"), .flag("ring-shielding"), .flag("fence-event-replans"),
        .flag("check-at-plans-only")
    ]

    let fencesPath: String, fixesPath: String, truthPath: String
    let polygonsPath: String?
    let cap: Int, catchUp: Int, seed: Int, wakeConfirm: Int, unguardedBudget: Int
    let margin: Double, pass: Double, delay: Double, significant: Double, minRefresh: Double, minRefreshSeconds: Double
    let crowded: MonitorPlanner.Configuration.CrowdedOrder
    let initialState: Bool, json: Bool, ringShielding: Bool, fenceEventReplans: Bool, everyWake: Bool, significantReplans: Bool
    let noBudget: Bool
    let wakeGate: Double, wakeExitGate: Double, leadSeconds: Double, leadMinSpeed: Double, motionAccuracy: Double
    let configuration: MonitorPlanner.Configuration

    /// Every option range-checked (distances up to 10,000 km, times up to 10^9 s, counts up
    /// to what a plan can use), then the planner's configuration built and checked.
    init(arguments args: Arguments) throws(UsageError) {
        fencesPath = try args.required("fences")
        fixesPath = try args.required("fixes")
        truthPath = try args.required("truth")
        polygonsPath = args.string("polygons")
        cap = try args.int("cap", default: 20, in: 1...10_000)
        let defaults = MonitorPlanner.Configuration(capacity: cap)
        let meters = 0...1e7, seconds = 0...1e9, gates = 0...1e6
        margin = try args.double("margin", default: defaults.safetyMarginMeters, in: meters)
        pass = try args.double("pass", default: 50, in: meters)
        delay = try args.double("delay", default: 60, in: seconds)
        significant = try args.double("significant-change", default: 500, in: meters)  // iOS: about 500 m
        minRefresh = try args.double("min-refresh", default: 0, in: 0...defaults.maximumRefreshRadiusMeters)
        minRefreshSeconds = try args.double("min-refresh-seconds", default: defaults.minimumRefreshSeconds ?? 0, in: seconds)
        catchUp = try args.int("catch-up", in: 0...10_000) ?? Int.max
        crowded = try args.choice("crowded", default: MonitorPlanner.Configuration.CrowdedOrder.priority)
        seed = try args.int("seed", default: 1, in: 0...Int.max)
        initialState = !args.flag("no-initial-state")
        json = args.flag("json")
        ringShielding = args.flag("ring-shielding")
        fenceEventReplans = args.flag("fence-event-replans")
        everyWake = !args.flag("check-at-plans-only")
        significantReplans = args.flag("significant-change-replans")
        let appDefaults = PlanScoring.Settings(os: .init(capacity: cap))
        wakeGate = try args.double("wake-gate", default: appDefaults.wakeCheckGate, in: gates)
        wakeExitGate = try args.double("wake-exit-gate", default: appDefaults.wakeCheckExitGate, in: gates)
        wakeConfirm = try args.int("wake-confirm", default: appDefaults.wakeCheckConfirmFixes, in: 0...1_000)
        leadSeconds = try args.double("lead-seconds", default: defaults.leadSeconds ?? 0, in: seconds)
        leadMinSpeed = try args.double("lead-min-speed", default: defaults.minimumLeadSpeedMetersPerSecond, in: 0...1e5)
        motionAccuracy = try args.double("motion-max-accuracy", default: appDefaults.motionFixMaximumAccuracyMeters, in: meters)
        unguardedBudget = try args.int("max-unguarded", default: defaults.maximumUnguardedFences ?? 30, in: 0...1_000_000)
        noBudget = args.flag("no-unguarded-budget")
        var configuration = MonitorPlanner.Configuration(
            capacity: cap, safetyMarginMeters: margin,
            minimumRefreshRadiusMeters: minRefresh > 0 ? minRefresh : nil,
            crowdedOrder: crowded, catchUpSlots: catchUp,
            shieldsNestedRings: ringShielding,
            minimumRefreshSeconds: minRefreshSeconds > 0 ? minRefreshSeconds : nil)
        configuration.leadSeconds = leadSeconds > 0 ? leadSeconds : nil
        configuration.minimumLeadSpeedMetersPerSecond = leadMinSpeed
        configuration.maximumUnguardedFences = noBudget ? nil : unguardedBudget
        do {
            try configuration.validate()
        } catch {
            throw UsageError("the planner options are invalid together: \(error)")
        }
        self.configuration = configuration
    }

    func execute() throws {
        // The simulated OS and app follow each device through time: its fixes must be in time order.
        let (rows, fixes) = try loadWorkload(fencesPath: fencesPath, fixesPath: fixesPath, truthPath: truthPath, order: .perDevice)
        let fences = try makeFences(rows)
        let outlines = try loadOutlines(polygonsPath, rows: rows)

        let planner: MonitorPlanner
        do {
            planner = try MonitorPlanner(
                candidates: PlanScoring.candidates(from: rows, outlines: outlines), configuration: configuration)
        } catch {
            throw BenchError("\(fencesPath): \(error)")
        }
        let t1 = monotonicSeconds()
        printError("truth: finding the true fence entries")
        let truth = try PlanScoring.truth(fences: fences, fixes: fixes, outlines: outlines)
        printError("truth: \(truth.entryCount) true entries over \(truth.rowsByDevice.count) devices in \(formatFixed(monotonicSeconds() - t1, 2)) s")

        var settings = PlanScoring.Settings(
            os: .init(capacity: cap, passDistanceMeters: pass, maximumDelaySeconds: delay, reportsInitialState: initialState),
            seed: UInt64(seed), replansOnFenceEvents: fenceEventReplans, checksAtEveryWake: everyWake,
            significantChangeReplans: significantReplans)
        settings.wakeCheckGate = wakeGate
        settings.wakeCheckExitGate = wakeExitGate
        settings.wakeCheckConfirmFixes = wakeConfirm
        settings.motionFixMaximumAccuracyMeters = motionAccuracy
        let policies: [(String, PlanScoring.Policy)] = [
            ("planner", .planner(planner, significantChangeMeters: significant > 0 ? significant : nil)),
            ("nearest-once", .nearestCenters(count: cap, replanEverySeconds: nil)),
            ("nearest-15min", .nearestCenters(count: cap, replanEverySeconds: 900))  // 15 minutes
        ]
        var results: [(String, PlanScoring.Score, Double)] = []
        for (name, policy) in policies {
            printError("[\(name)] simulating the OS and the app over \(fixes.count) fixes")
            let s0 = monotonicSeconds()
            let score: PlanScoring.Score
            do {
                score = try PlanScoring.score(policy, truth: truth, fixes: fixes, settings: settings)
            } catch {
                // The fixes' times are the problem: name their file.
                if case .tooManyObservations = error { throw BenchError("\(fixesPath): \(error)") }
                throw error
            }
            let seconds = monotonicSeconds() - s0
            printError(
                "[\(name)] recall \(formatFixed(score.recall * 100, 2))%, \(formatFixed(score.replansPerDeviceHour, 2)) replans/device-hour, \(formatFixed(seconds, 2)) s"
            )
            results.append((name, score, seconds))
            // Near Me 8.6: above 3 % of the battery a day, the app saves power; the report shows
            // what that costs in recall.
            let budget = PowerBudget()
            if case .planner = policy, budget.exceeds(score) {
                printError(
                    "[\(name)] \(formatFixed(budget.percentPerDay(score), 2)) % battery a day > \(budget.thresholdPercentPerDay) %: power-saving mode"
                )
                let t0 = monotonicSeconds()
                let saving = try PlanScoring.score(policy, truth: truth, fixes: fixes, settings: PowerBudget.powerSaving(settings))
                results.append((name + "-power-saving", saving, monotonicSeconds() - t0))
            }
        }
        let planSpeed = Self.measurePlanSpeed(planner, fixes: fixes)

        if json {
            var o = JSONObject()
            o.set("fences", fences.count)
            o.set("polygon_fences", outlines.count)
            o.set("fixes", fixes.count)
            o.set("devices", truth.rowsByDevice.count)
            o.set("cap", cap)
            o.set("margin_m", margin, decimals: 1)
            o.set("pass_m", pass, decimals: 1)
            o.set("max_delay_s", delay, decimals: 1)
            o.set("initial_state", initialState)
            o.set("significant_change_m", significant, decimals: 1)
            o.set("min_refresh_m", minRefresh, decimals: 1)
            o.set("min_refresh_s", minRefreshSeconds, decimals: 1)
            o.set("crowded_order", crowded.rawValue)
            o.set("catch_up_slots", min(catchUp, cap - 1))
            o.set("ring_shielding", ringShielding)
            o.set("fence_event_replans", fenceEventReplans)
            o.set("checks_at_every_wake", everyWake)
            o.set("significant_change_replans", significantReplans)
            o.set("lead_s", leadSeconds, decimals: 1)
            if !noBudget { o.set("max_unguarded", unguardedBudget) }
            o.set("lead_min_speed_mps", leadMinSpeed, decimals: 1)
            o.set("wake_gate", wakeGate, decimals: 2)
            o.set("wake_exit_gate", wakeExitGate, decimals: 2)
            o.set("wake_confirm_fixes", wakeConfirm)
            o.set("motion_max_accuracy_m", motionAccuracy, decimals: 1)
            o.set("plans_per_second", planSpeed, decimals: 0)
            for (name, s, seconds) in results { o.set(name, object: Self.jsonObject(s, seconds: seconds)) }
            print(o.text)
        } else {
            print(Self.table(results, cap: cap))
            print("planner: \(formatFixed(planSpeed, 0)) plans/s (\(formatFixed(1e6 / planSpeed, 1)) µs per plan) on \(fences.count) fences")
        }
    }

    /// Plans per second of the MonitorPlanner alone, at up to 20,000 fixes spread over the file.
    static func measurePlanSpeed(_ planner: MonitorPlanner, fixes: FixStream) -> Double {
        let n = min(fixes.count, 20_000)  // enough for a stable figure in well under a second
        guard n > 0 else { return 0 }
        let stride = max(1, fixes.count / n)
        var checksum = 0.0
        let t0 = monotonicSeconds()
        for k in Swift.stride(from: 0, to: stride * n, by: stride) {
            let p = LatLng(uncheckedLatitude: fixes.latitude[k], longitude: fixes.longitude[k])
            checksum += (try? planner.plan(at: p, uncertaintyMeters: fixes.accuracy[k]))?.refreshRadiusMeters ?? 0
        }
        let seconds = monotonicSeconds() - t0
        if checksum.isNaN { printError("plan checksum NaN") }  // keeps the work observable
        return Double(n) / seconds
    }

    static func jsonObject(_ s: PlanScoring.Score, seconds: Double) -> JSONObject {
        var o = JSONObject()
        o.set("true_entries", s.trueEntries)
        o.set("required_entries", s.requiredEntries)
        o.set("caught_required", s.caughtRequired)
        o.set("caught_optional", s.caughtOptional)
        o.set("recall", s.recall)
        o.set("recall_with_wakeup_check", s.recallWithWakeUpCheck)
        o.set("wakes_per_device_hour", s.wakesPerDeviceHour, decimals: 3)
        let budget = PowerBudget()
        o.set("wake_ups_per_device_day", s.wakeUpsPerDeviceDay, decimals: 2)
        o.set("gps_fixes_per_device_day", s.gpsFixesPerDeviceDay, decimals: 2)
        o.set("battery_percent_per_day", budget.percentPerDay(s), decimals: 3)
        o.set("power_saving_needed", budget.exceeds(s))
        o.set("wake_check_fires", s.wakeCheckFires)
        o.set("wake_check_false_fires", s.wakeCheckFalseFires)
        o.set("wake_check_repeat_fires", s.wakeCheckRepeatFires)
        var misses = JSONObject()
        for (key, count) in s.systemMisses.sorted(by: { $0.key < $1.key }) { misses.set(key, count) }
        o.set("system_misses", object: misses)
        o.set("deep_required_entries", s.deepRequiredEntries)
        o.set("recall_deep", s.deepRecall)
        o.set("plans", s.plans)
        o.set("replans", s.replans)
        o.set("device_hours", s.deviceHours, decimals: 2)
        o.set("replans_per_device_hour", s.replansPerDeviceHour, decimals: 3)
        o.set("fences_added_per_replan", s.fencesAddedPerReplan, decimals: 3)
        o.set("fences_removed_per_replan", s.fencesRemovedPerReplan, decimals: 3)
        o.set("guaranteed_plan_share", s.plans == 0 ? 0 : Double(s.guaranteedPlans) / Double(s.plans))
        o.set("enter_events", s.enterEvents)
        o.set("unmatched_enter_events", s.unmatchedEnterEvents)
        o.set("latency_p50_s", s.latencyPercentile(0.5), decimals: 1)
        o.set("latency_p95_s", s.latencyPercentile(0.95), decimals: 1)
        o.set("missed_while_monitored", s.missedWhileMonitored)
        o.set("missed_unmonitored", s.missedUnmonitored)
        o.set("rejected_registrations", s.rejectedRegistrations)
        o.set("dropped_events", s.droppedEvents)
        o.set("seconds", seconds, decimals: 3)
        return o
    }

    static func table(_ results: [(String, PlanScoring.Score, Double)], cap: Int) -> String {
        let header = [
            "policy (cap \(cap))", "OS recall", "caught/required", "deep", "system recall", "replans/dev-h", "+fences/replan",
            "-fences/replan", "guaranteed", "lat p50 s", "lat p95 s", "missed mon/unmon", "fixes/dev-day", "battery %/day", "seconds"
        ]
        var rows = [header]
        for (name, s, seconds) in results {
            rows.append([
                name, formatFixed(s.recall * 100, 2) + "%", "\(s.caughtRequired)/\(s.requiredEntries)",
                formatFixed(s.deepRecall * 100, 2) + "%", formatFixed(s.recallWithWakeUpCheck * 100, 2) + "%",
                formatFixed(s.replansPerDeviceHour, 2), formatFixed(s.fencesAddedPerReplan, 2),
                formatFixed(s.fencesRemovedPerReplan, 2),
                name == "planner" && s.plans > 0 ? formatFixed(Double(s.guaranteedPlans) / Double(s.plans) * 100, 1) + "%" : "-",
                formatFixed(s.latencyPercentile(0.5), 0), formatFixed(s.latencyPercentile(0.95), 0),
                "\(s.missedWhileMonitored)/\(s.missedUnmonitored)",
                formatFixed(s.gpsFixesPerDeviceDay, 1), formatFixed(PowerBudget().percentPerDay(s), 2), formatFixed(seconds, 2)
            ])
        }
        return TextTable.render(rows) + "\n" + columns
    }

    /// What the text table's columns mean (the words of README and docs/WORKLOADS.md).
    static let columns = """
        OS recall: required true entries caught by an OS enter event (caught/required); deep: the same over
        entries that go at least --pass meters inside; system recall: caught by an OS event or by the app's own
        check at a wake-up; replans/dev-h: plans after each device's first, per device-hour; +/-fences/replan:
        fences registered and removed per replan; guaranteed: plans with the refresh-region guarantee; lat: delay
        of caught entries; missed mon/unmon: missed entries of fences monitored / not monitored at the time;
        fixes/dev-day: GPS fixes the app takes per device-day; battery %/day: their and the wake-ups' share of the
        battery (energy model in docs/REMINDERS.md); a policy over 3 % a day is run again in power-saving mode.
        """
}
