import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import ResponderStore
import Responders
import ResponderFleetSimulation
import Statistics

/// `geofence-bench responders`: the fleet simulation (``FleetSimulation``) and the two speed
/// figures, ingest into SQLite and liveness in memory. Parses, calls, prints.
struct RespondersCommand: BenchSubcommand {
    static let name = "responders"
    static let help = """
        geofence-bench responders [--responders N] [--minutes M] [--seed S] [--runs R] [--transaction-fixes T]
                                  [--db FILE] [--json]
          Simulates N responders (default 1000) for M minutes (default 60, seed S = 1): duty changes,
          phones that die silently, network losses, captive portals, delayed, reordered and duplicated
          batches, incidents assigned to the nearest ONLINE responder with a 30 s ACK timeout. Reports:
            ingest_fixes_per_second      every fix the server received (copies included), replayed into
                                         a fresh SQLite server store, T fixes per transaction (default
                                         10000), one thread, wall clock; median of R runs (default 3)
                                         after a warm-up run (ingest_fixes_per_cpu_second: per second of
                                         the thread's CPU time; server_ingest_fixes_per_second: the same
                                         through ResponderServer, liveness and dispatcher included)
            liveness_updates_per_second  the same fixes through a LivenessMonitor in memory (at least
                                         2 M updates per run); median of R runs after a warm-up
            detect_seconds               time from a phone becoming unreachable to OFFLINE, p50/p95/max
                                         per duty state, against its threshold (goal: max <= threshold + 1 s)
            false_offline                OFFLINE while the phone had been reachable for the threshold (goal 0)
            assignments_to_unreachable   offers to a phone unreachable for its DEGRADED threshold or
                                         longer (goal 0); offers_to_silent_phones counts the rest
            fixes_lost, duplicates_stored  (goal 0)
          --db FILE keeps the last ingest run's store there (for `geofence responders metrics --db FILE`
          or sqlite3); otherwise a temporary file is used and removed. Exit status 1 when a goal that
          is not a speed figure is missed.
        """

    static let options: [Arguments.Option] = [
        .value("responders"), .value("minutes"), .value("seed"), .value("runs"), .value("transaction-fixes"), .value("db"), .flag("json")
    ]

    let configuration: FleetConfiguration
    let runs: Int
    let keep: String?
    let json: Bool

    init(arguments args: Arguments) throws(UsageError) {
        let responders = try args.int("responders", default: 1_000, in: 1...100_000)
        let minutes = try args.int("minutes", default: 60, in: 1...BenchLimits.maxMinutes)
        // The simulation keeps every fix: one every few seconds per responder, about 200 bytes each.
        let (fixes, overflow) = (responders * minutes).multipliedReportingOverflow(by: 30)
        try MemoryBudget.check(overflow ? .max : fixes, bytesEach: 256, option: "minutes")
        var configuration = FleetConfiguration(responders: responders, minutes: minutes)
        configuration.seed = UInt64(try args.int("seed", default: 1, in: 0...Int.max))
        configuration.ingestTransactionSize = try args.int(
            "transaction-fixes", default: configuration.ingestTransactionSize,
            in: 1...10_000_000)
        self.configuration = configuration
        runs = try args.int("runs", default: 3, in: 1...BenchLimits.maxReps)
        keep = args.string("db")
        json = args.flag("json")
    }

    /// `--db` may name a new file or a responder store (SQLite), never another kind of file:
    /// the run replaces it.
    func validate() throws(UsageError) {
        guard let keep, let fd = Optional(open(keep, O_RDONLY)), fd >= 0 else { return }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let n = read(fd, &header, 16)
        let sqlite = Array("SQLite format 3\0".utf8)
        if n == 0 { return }  // an empty file: nothing to lose
        guard n == 16, header == sqlite else {
            throw UsageError("option '--db' names \(keep), which is not an SQLite file: refusing to replace it")
        }
    }

    func execute() throws {
        let path = keep ?? scratchPath("responders", extension: "sqlite")
        let scratch = scratchPath("responders-server", extension: "sqlite")
        // The scratch databases go on every exit path, an error's included.
        defer {
            for suffix in ["", "-wal", "-shm"] {
                unlink(scratch + suffix)
                if keep == nil { unlink(path + suffix) }
            }
        }

        printError("responders: simulating \(configuration.responders) responders for \(configuration.minutes) min (seed \(configuration.seed))")
        let start = monotonicSeconds()
        let fleet = FleetSimulation(configuration)
        fleet.run()
        let simulated = monotonicSeconds() - start
        printError("responders: \(fleet.arrivals.count) fixes received in \(formatFixed(simulated, 1)) s; measuring ingest and liveness")
        for _ in 0...runs { fleet.measureLiveness() }
        var report = fleet.report
        let size = configuration.ingestTransactionSize
        do throws(ResponderStoreError) {
            for _ in 0...runs {
                report.serverIngestFixesPerSecond.append(try FleetIngest.serverIngest(fleet.arrivals, transactionSize: size, path: scratch))
            }
            for _ in 0...runs {
                let run = try FleetIngest.ingest(fleet.arrivals, transactionSize: size, path: path)
                report.ingestFixesPerSecond.append(run.perSecond)
                report.ingestFixesPerCPUSecond.append(run.perCPUSecond)
                report.duplicatesStored = max(report.duplicatesStored, run.duplicatesStored)
            }
        } catch {
            throw BenchError("responders: \(error)")
        }
        report.ingestFixesPerSecond.removeFirst()  // warm-up
        report.ingestFixesPerCPUSecond.removeFirst()
        report.serverIngestFixesPerSecond.removeFirst()
        report.livenessUpdatesPerSecond.removeFirst()
        print(json ? Self.jsonText(report, simulated: simulated) : Self.table(report))
        let correct =
            report.fixesLost == 0 && report.duplicatesStored == 0 && report.falseOffline == 0
            && report.assignmentsToUnreachable == 0 && report.detection.values.allSatisfy(\.meetsGoal)
        if !correct { throw BenchError("responders: a goal was missed (see above)") }
    }

    static func jsonText(_ r: FleetReport, simulated: Double) -> String {
        var o = JSONObject()
        o.set("responders", r.responders)
        o.set("minutes", r.minutes)
        o.set("seed", String(r.seed))
        o.set("ingest_fixes_per_second", OrderStatistics.median(r.ingestFixesPerSecond), decimals: 0)
        o.set("ingest_runs", array: r.ingestFixesPerSecond.map { formatFixed($0, 0) })
        o.set("ingest_fixes_per_cpu_second", OrderStatistics.median(r.ingestFixesPerCPUSecond), decimals: 0)
        o.set("server_ingest_fixes_per_second", OrderStatistics.median(r.serverIngestFixesPerSecond), decimals: 0)
        o.set("liveness_updates_per_second", OrderStatistics.median(r.livenessUpdatesPerSecond), decimals: 0)
        o.set("liveness_runs", array: r.livenessUpdatesPerSecond.map { formatFixed($0, 0) })
        var detect = JSONObject()
        for duty in [DutyState.onDuty, .onMission] {
            let s = r.detection[duty] ?? DetectionStats(times: [], threshold: 0, missed: 0)
            var d = JSONObject()
            d.set("p50", s.p50, decimals: 3)
            d.set("p95", s.p95, decimals: 3)
            d.set("max", s.max, decimals: 3)
            d.set("threshold", s.threshold, decimals: 0)
            d.set("count", s.count)
            d.set("missed", s.missed)
            detect.set(duty.name, object: d)
        }
        o.set("detect_seconds", object: detect)
        o.set("false_offline", r.falseOffline)
        o.set("assignments_to_unreachable", r.assignmentsToUnreachable)
        o.set("offers_to_silent_phones", r.offersToSilentPhones)
        o.set("fixes_lost", r.fixesLost)
        o.set("duplicates_stored", r.duplicatesStored)
        o.set("incidents", r.incidents)
        o.set("assigned", r.assigned)
        o.set("exhausted", r.exhausted)
        o.set("incidents_reassigned", r.incidentsReassigned)
        o.set("incidents_left_with_offline_assignee", r.incidentsLeftWithOfflineAssignee)
        o.set("offers", r.offers)
        o.set("ack_timeouts", r.ackTimeouts)
        o.set("fixes_kept", r.fixesKept)
        o.set("fixes_delivered", r.fixesDelivered)
        o.set("duplicates_received", r.duplicatesReceived)
        o.set("fixes_queued_at_end", r.fixesQueuedAtEnd)
        var drops = JSONObject()
        for reason in FixDropReason.allCases { drops.set(reason.name, r.fixesDropped[reason]) }
        o.set("fixes_dropped", object: drops)
        o.set("transitions", r.transitions)
        o.set("simulate_seconds", simulated, decimals: 2)
        return o.text
    }

    static func table(_ r: FleetReport) -> String {
        func met(_ ok: Bool) -> String { ok ? "met" : "NOT MET" }
        let ingest = OrderStatistics.median(r.ingestFixesPerSecond), liveness = OrderStatistics.median(r.livenessUpdatesPerSecond)
        var rows: [[String]] = [["measure", "value", "goal", ""]]
        rows.append(["ingest into SQLite, fixes/s (median)", grouped(ingest), "> 250,000", met(ingest > 250_000)])
        rows.append(["same, per second of CPU time", grouped(OrderStatistics.median(r.ingestFixesPerCPUSecond)), "", ""])
        rows.append(["whole server (store, liveness, metrics, index), fixes/s", grouped(OrderStatistics.median(r.serverIngestFixesPerSecond)), "", ""]
        )
        rows.append(["liveness updates/s in memory (median)", grouped(liveness), "> 5,000,000", met(liveness > 5_000_000)])
        for duty in [DutyState.onDuty, .onMission] {
            guard let s = r.detection[duty] else { continue }
            rows.append([
                "detect \(duty.name) p50 / p95 / max s (\(s.count) episodes, \(s.missed) missed)",
                "\(formatFixed(s.p50, 1)) / \(formatFixed(s.p95, 1)) / \(formatFixed(s.max, 1))",
                "max <= \(formatFixed(s.threshold + 1, 0))", met(s.meetsGoal)
            ])
        }
        rows.append(["false OFFLINE", String(r.falseOffline), "0", met(r.falseOffline == 0)])
        rows.append(["offers to responders unreachable past DEGRADED", String(r.assignmentsToUnreachable), "0", met(r.assignmentsToUnreachable == 0)])
        rows.append(["offers to phones silent for less (caught by the ACK timeout)", String(r.offersToSilentPhones), "", ""])
        rows.append(["fixes lost", String(r.fixesLost), "0", met(r.fixesLost == 0)])
        rows.append(["duplicates stored", String(r.duplicatesStored), "0", met(r.duplicatesStored == 0)])
        rows.append([
            "incidents / assigned / nobody took it / open at the end",
            "\(r.incidents) / \(r.assigned) / \(r.exhausted) / \(r.incidents - r.assigned - r.exhausted)", "", ""
        ])
        rows.append([
            "incidents reassigned (holder went OFFLINE) / left with an OFFLINE assignee",
            "\(r.incidentsReassigned) / \(r.incidentsLeftWithOfflineAssignee)", "0 left",
            met(r.incidentsLeftWithOfflineAssignee == 0)
        ])
        rows.append(["offers / ACK timeouts", "\(r.offers) / \(r.ackTimeouts)", "", ""])
        rows.append([
            "fixes kept / received (copies) / queued at end",
            "\(grouped(Double(r.fixesKept))) / \(grouped(Double(r.fixesDelivered))) (\(grouped(Double(r.duplicatesReceived)))) / \(grouped(Double(r.fixesQueuedAtEnd)))",
            "", ""
        ])
        return TextTable.render(rows)
    }

    /// A whole number with thousands separators: 1234567 -> "1,234,567".
    static func grouped(_ value: Double) -> String {
        let digits = formatFixed(value.rounded(), 0)
        let sign = digits.hasPrefix("-") ? "-" : ""
        let body = Array(digits.drop { $0 == "-" })
        var out = ""
        for (k, ch) in body.enumerated() {
            if k > 0 && (body.count - k) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return sign + out
    }
}
