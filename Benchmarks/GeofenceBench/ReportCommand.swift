import CommandSupport
import Foundation
import Reporting

/// `geofence-bench report --out DIR [--quick] [--peers FILE] [--sweep FILE]`: measures and writes
/// the benchmark report (the measurement, the page and the readers of the peers and sweep files
/// live in the Reporting module).
struct ReportCommand {
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
      beside the nearest-centres baselines.
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

    static let command = BenchCommand(
        name: "report", options: [.value("out"), .flag("quick"), .value("peers"), .value("sweep")], help: help, run: run)

    static func run(_ args: Arguments) throws {
        let out = try args.required("out")
        var settings: ReportSettings = args.flag("quick") ? .quick : .full
        var peers: [BenchmarkReport.Peer] = []
        if let path = args.string("peers") {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                peers = try PeerResults.parse(data)
                settings = try settings.stabbing(like: try PeerResults.workload(data))
            } catch {
                throw BenchError("\(path): \(error)")
            }
        }
        var sweep: SweepResults.Sweep?
        if let path = args.string("sweep") {
            do {
                sweep = try SweepResults.read(path: path)
            } catch {
                throw BenchError("\(error)")   // names the file and the field
            }
        }
        let start = monotonicSeconds()
        let report = try ReportRunner.measure(settings, peers: peers, sweep: sweep, optimized: !BenchTool.isDebugBuild) { step in
            printError("[report \(formatFixed(monotonicSeconds() - start, 1)) s] \(step)")
        }
        do {
            let paths = try ReportPage.write(report, toDirectory: out)
            printError("wrote \(paths[0]), \(paths[1]) and \(paths.count - 2) charts in \(out)/charts")
        } catch {
            throw BenchError("\(out): \(error)")
        }
    }
}
