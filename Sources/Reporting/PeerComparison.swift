import Drawing
import Foundation
import JSON
import NumberFormatting

/// One run of `scripts/compare-peers`, read whole from its `--json-out` file: the workloads, the
/// machine it ran on, and every row, the package's indexes (`"kind": "ours"`) and the C++ peers
/// (`"kind": "peer"`), all measured on the same generated files in one run.
///
/// ``throughputChart()`` draws it as the README's stabbing chart, with what it compares written
/// on the chart: the workloads, fixes and fences, how each figure was taken, and the machine's
/// load while it was measured.
public struct PeerComparison: Hashable, Sendable {
    /// One index or peer on one workload.
    public struct Row: Hashable, Sendable {
        /// `grid`, `packed`, `dynamic` (ours) or `latlng_grid`, `s2_cover`, `boost_packed`,
        /// `boost_inserted` (the peers).
        public var name: String
        /// True for the package's own indexes.
        public var isOurs: Bool
        /// Fences and fixes of the workload.
        public var fences: Int, fixes: Int
        /// Fixes per second, query phase, one thread.
        public var fixesPerSecond: Double
        /// Hits (fix, fence pairs) and their checksum (a decimal UInt64).
        public var hits: Int, checksum: String
    }

    /// The machine during the run: written by compare-peers from `os.cpu_count()` and
    /// `os.getloadavg()`.
    public struct Machine: Hashable, Sendable {
        /// Logical processors.
        public var cores: Int
        /// The 1-minute load average sampled before and after each workload's measurements.
        public var loadAverages: [Double]
        /// When the run started, as written by the script (UTC, `2026-11-28 07:30`).
        public var started: String
    }

    /// The generated workloads (POI counts, fixes, devices, seed, noise).
    public var workload: PeerResults.Workload
    /// Timed runs per measurement (ours: the mean of two passes, each the median of `repetitions`).
    public var repetitions: Int
    /// The machine, when the file records it (files of older runs do not).
    public var machine: Machine?
    /// Every row, in the file's order.
    public var rows: [Row]

    /// Reads a compare-peers JSON document.
    /// - Throws: ``PeerResults/FormatError`` naming the missing or malformed field
    ///   (`results[3].hits`, `machine.cores`, ...).
    public static func parse(_ data: Data) throws -> PeerComparison {
        let workload = try PeerResults.workload(data)
        do throws(JSONPathError) {
            let root = try PeerResults.root(data).object()
            var rows: [Row] = []
            for item in try root.array("results") {
                let row = try item.object()
                let kind = try row.string("kind")
                guard kind == "ours" || kind == "peer" else { throw row.error("kind", "expected \"ours\" or \"peer\", found \"\(kind)\"") }
                let speed = try row.number("fixes_per_second")
                guard speed >= 0 else { throw row.error("fixes_per_second", "expected a non-negative number, found \(speed)") }
                rows.append(
                    Row(
                        name: try row.string("name"), isOurs: kind == "ours", fences: try row.integer("fences"),
                        fixes: try row.integer("fixes"), fixesPerSecond: speed, hits: try row.integer("hits"),
                        checksum: try row.string("checksum")))
            }
            var machine: Machine?
            if let field = root.field("machine") {
                let m = try field.object()
                let cores = try m.integer("cores")
                guard cores > 0 else { throw m.error("cores", "expected a positive integer, found \(cores)") }
                let loads = try m.array("load_averages")
                guard !loads.isEmpty else { throw m.error("load_averages", "expected a list of non-negative numbers, found an empty array") }
                var loadAverages: [Double] = []
                for load in loads {
                    let value = try load.number()
                    guard value >= 0 else { throw load.error("expected a non-negative number, found \(value)") }
                    loadAverages.append(value)
                }
                machine = Machine(cores: cores, loadAverages: loadAverages, started: try m.string("started"))
            }
            let repetitions = try root.object("workload").field("reps")?.integer() ?? 1
            return PeerComparison(workload: workload, repetitions: max(1, repetitions), machine: machine, rows: rows)
        } catch {
            throw PeerResults.FormatError(description: error.description)
        }
    }

    /// True when every row of each fence count reports the same hits and checksum.
    public var answersAgree: Bool {
        Set(rows.map(\.fences)).allSatisfy { n in
            Set(rows.filter { $0.fences == n }.map { "\($0.hits) \($0.checksum)" }).count == 1
        }
    }

    /// Fixes per second against fence count on logarithmic axes: ours solid, the peers dashed,
    /// in the report's colors; the caption states the workloads, the fixes and fences, how each
    /// figure was taken, whether the answers agreed, and the machine and its load.
    public func throughputChart() -> Chart {
        var chart = Chart(
            title: "Stabbing throughput: the package's indexes and C++ peers on the same files",
            x: ChartAxis("fences", scale: .logarithmic),
            y: ChartAxis("fixes per second, one thread", scale: .logarithmic))
        chart.id = "stabbing-throughput"
        chart.width = 900
        chart.height = 480
        let names = ["grid", "packed", "dynamic", "latlng_grid", "s2_cover", "boost_packed", "boost_inserted"]
        let extra = Set(rows.map(\.name)).subtracting(names).sorted()
        for name in names + extra {
            let mine = rows.filter { $0.name == name }.sorted { $0.fences < $1.fences }
            guard let first = mine.first else { continue }
            let label = (first.isOurs ? ReportPage.indexNames[name] : ReportPage.peerNames[name]) ?? name
            chart.series.append(
                ReportPage.series(name, label, mine.map { (Double($0.fences), $0.fixesPerSecond) }, dashed: !first.isOurs))
        }
        let fences = Set(rows.map(\.fences)).sorted().map { DecimalFormatting.grouped(Double($0), 0) }
        var caption =
            "One run of scripts/compare-peers: every index and peer on the same generated files (geofence-bench generate, "
            + "\(DecimalFormatting.grouped(Double(workload.fixes), 0)) fixes of \(DecimalFormatting.grouped(Double(workload.devices), 0)) "
            + "devices, \(workload.noise) noise, seed \(workload.seed); \(fences.joined(separator: ", ")) fences). "
            + "Query phase only, one thread; ours (solid) the mean of two passes around the peers (dashed), each the median of "
            + "\(repetitions) run\(repetitions == 1 ? "" : "s"). "
            + (answersAgree ? "Every one reported the same hits and checksum. " : "HITS OR CHECKSUMS DIFFER: the figures are not comparable. ")
        if let machine {
            let low = machine.loadAverages.min() ?? 0, high = machine.loadAverages.max() ?? 0
            caption +=
                "Machine: \(machine.cores) cores, 1-minute load average \(DecimalFormatting.grouped(low, 1))"
                + (high - low >= 0.05 ? "-\(DecimalFormatting.grouped(high, 1))" : "")
                + " during the run (\(machine.started)). "
        } else {
            caption += "Machine and load not recorded. "
        }
        caption += "Logarithmic axes, so that equal ratios look equal."
        chart.caption = caption
        return chart
    }
}
