import CommandSupport
import Foundation
import Reporting

/// `geofence-bench peers-chart --peers FILE --out CHART.svg`: the stabbing chart of one
/// `scripts/compare-peers` run (the reading and the drawing live in the Reporting module).
struct PeersChartCommand: BenchSubcommand {
    static let name = "peers-chart"
    static let help = """
        geofence-bench peers-chart --peers FILE --out CHART.svg
          Draws the stabbing throughput of one scripts/compare-peers run (the JSON file of its
          json-out option) as an SVG chart: fixes per second against fences, the package's indexes
          solid, the C++ peers dashed, every figure from that one run on the same files. Measures
          nothing. The chart's caption states what it compares: the workloads (fixes, devices, noise,
          seed, fences), how each figure was taken, whether every answer agreed, and the machine's
          cores and load average during the run.
        """

    static let options: [Arguments.Option] = [.value("peers"), .value("out")]

    let peersPath: String, out: String

    init(arguments args: Arguments) throws(UsageError) {
        peersPath = try args.required("peers")
        out = try args.required("out")
    }

    func validate() throws(UsageError) {
        try FileIdentity.refuseOverwriting(out, option: "out", inputs: [("peers", peersPath)])
    }

    func execute() throws {
        let comparison: PeerComparison
        do {
            comparison = try PeerComparison.parse(try TextFile.read(peersPath))
        } catch let error as TextFile.ReadError {
            throw BenchError("\(error)")
        } catch {
            throw BenchError("\(peersPath): \(error)")
        }
        do {
            try TextFile.write(comparison.throughputChart().render().fileText, to: out)
        } catch {
            throw BenchError("\(error)")  // names the file already
        }
        printError("wrote \(out)" + (comparison.answersAgree ? "" : " (hits or checksums differ between rows: see its caption)"))
    }
}
