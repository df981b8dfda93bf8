#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandSupport
import Foundation
import Drawing
import Reporting

/// `geofence-bench report --out DIR [--quick] [--peers FILE] [--sweep FILE]`: measures and writes
/// the benchmark report (the measurement, the page and the readers of the peers and sweep files
/// live in the Reporting module).
struct ReportCommand: BenchSubcommand {
    static let name = "report"
    static let help = """
        geofence-bench report --out DIR [--quick] [--peers FILE] [--sweep FILE]
          Measures everything the report shows and writes DIR/report.json (the values),
          DIR/report.html (one self-contained page: inline SVG charts and tables, no scripts, nothing
          fetched; every table number carries its JSON path) and each chart as DIR/charts/NAME.svg.
          Progress goes to stderr.
          The page shows stabbing throughput against fence count for every index (cells, packed,
          dynamic; brute up to 3,000 fences), index memory per fence, the candidate false-positive
          rate, the transition detector's false-positive/false-negative trade-off over hysteresis
          0/10/20/40 m x accuracy gate 50/100/200/1500 m with the defaults marked, its latency
          distribution, and the monitor planner's system recall and replans under OS caps 20, 50, 100
          beside the nearest-centers baselines.
          Default (full): 3k, 30k and 300k fences with 200,000 fixes each; accuracy on 10,000 POIs,
          1,000 devices, 1,000,000 fixes with realistic noise (a few minutes in a release build).
          --quick         300 and 3,000 fences, 20,000 fixes; accuracy on 300 POIs, 100 devices,
                          40,000 fixes (well under a minute in a release build): for tests and a first look.
          --peers FILE    add the C++ peers' figures from the JSON file that scripts/compare-peers
                          writes (its json-out option): dashed lines on the throughput and memory charts.
                          The stabbing workloads then take the file's POI counts and fixes, so both
                          sides run on identical files (its devices, seed and noise must be the report's).
          --sweep FILE    take the detector's trade-off (and the naive detector) and the planner's rows
                          under each OS cap from the JSON file that scripts/sweep writes (its json-out
                          option) instead of measuring them; the page names the file and its workload.
                          The default detector still runs on the report's own accuracy workload for
                          the latency distribution.
          Workloads come from the same seeded generator as `geofence-bench generate` (seed 1).
        """

    static let options: [Arguments.Option] = [.value("out"), .flag("quick"), .value("peers"), .value("sweep")]

    let out: String
    let settings: ReportSettings
    let peersPath: String?, sweepPath: String?

    init(arguments args: Arguments) throws(UsageError) {
        out = try args.required("out")
        settings = args.flag("quick") ? .quick : .full
        peersPath = args.string("peers")
        sweepPath = args.string("sweep")
    }

    func validate() throws(UsageError) {
        for file in ["report.json", "report.html"] {
            try FileIdentity.refuseOverwriting(out + "/" + file, option: "out", inputs: [("peers", peersPath), ("sweep", sweepPath)])
        }
    }

    func execute() throws {
        var peers: [BenchmarkReport.Peer] = []
        var settings = settings
        if let path = peersPath {
            do {
                let data = try TextFile.read(path)
                peers = try PeerResults.parse(data)
                settings = try settings.stabbing(like: try PeerResults.workload(data))
            } catch let error as TextFile.ReadError {
                throw BenchError("\(error)")
            } catch {
                throw BenchError("\(path): \(error)")
            }
        }
        var sweep: SweepResults.Sweep?
        if let path = sweepPath {
            do {
                sweep = try SweepResults.parse(try TextFile.read(path), file: path)
            } catch {
                throw BenchError("\(error)")  // names the file and the field
            }
        }
        // The output directory is made (and proved writable) before the minutes of measuring.
        try Self.prepareDirectory(out)
        let start = monotonicSeconds()
        let report = try ReportRunner.measure(settings, peers: peers, sweep: sweep, optimized: !BenchTool.isDebugBuild) { step in
            printError("[report \(formatFixed(monotonicSeconds() - start, 1)) s] \(step)")
        }
        do {
            let paths = try Self.write(report, toDirectory: out)
            printError("wrote \(paths[0]), \(paths[1]) and \(paths.count - 2) charts in \(out)/charts")
        } catch {
            throw BenchError("\(out): \(error)")
        }
    }
}

extension ReportCommand {
    /// Creates `directory/charts` (with its parents) and proves the directory writable by
    /// creating and removing a file in it, so that a report run fails before it measures.
    static func prepareDirectory(_ directory: String) throws(BenchError) {
        try makeDirectory(directory + "/charts")
        let probe = directory + "/.report-write-check"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError("cannot write in \(directory): \(String(cString: strerror(errno)))") }
        close(fd)
        unlink(probe)
    }

    /// Writes `report.json`, `report.html` and every chart as `charts/ID.svg` into `directory`
    /// (created with its parents when missing); returns the paths written.
    @discardableResult
    static func write(_ report: BenchmarkReport, toDirectory directory: String) throws -> [String] {
        let chartDirectory = (directory as NSString).appendingPathComponent("charts")
        try FileManager.default.createDirectory(atPath: chartDirectory, withIntermediateDirectories: true)
        let json = (directory as NSString).appendingPathComponent("report.json")
        let html = (directory as NSString).appendingPathComponent("report.html")
        let (page, charts) = ReportPage.render(report)
        try TextFile.write(ReportPage.json(report), to: json)
        try TextFile.write(page, to: html)
        var written = [json, html]
        for chart in charts {
            let path = (chartDirectory as NSString).appendingPathComponent(chart.id + ".svg")
            try TextFile.write(chart.render().fileText, to: path)
            written.append(path)
        }
        return written
    }
}
