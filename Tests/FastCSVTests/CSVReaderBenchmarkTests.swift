import Foundation
import Testing
@testable import FastCSV

/// Throughput of the reader on a generated `device,t,lat,lon,accuracy_m` file of 1M rows
/// (about 48 MB, the workload's fixes.csv format). Off by default; run it in release:
/// `FASTCSV_BENCH=1 swift test -c release --filter CSVReaderBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FASTCSV_BENCH"] != nil, "set FASTCSV_BENCH=1"))
struct CSVReaderBenchmark {
    @Test func fixesThroughput() throws {
        #if DEBUG
        print("*** FastCSV benchmark in a DEBUG build: figures are meaningless, use -c release ***")
        #endif
        let rows = 1_000_000
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fastcsv-bench-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var rng = TestRNG(seed: 1)
        var text = "device,t,lat,lon,accuracy_m\n"
        text.reserveCapacity(50_000_000)
        var t = 1_700_000_000.0
        for _ in 0..<rows {
            t += rng.nextUnit() * 0.01
            text += "\(rng.below(1000)),\(String(format: "%.3f", t)),\(String(format: "%.7f", rng.nextUnit() * 180 - 90)),"
            text += "\(String(format: "%.7f", rng.nextUnit() * 360 - 180)),\(String(format: "%.1f", 3 + rng.nextUnit() * 1497))\n"
        }
        try text.write(to: url, atomically: false, encoding: .utf8)
        let bytes = Double(text.utf8.count)

        for parseNumbers in [false, true] {
            var times: [Double] = []
            for run in 0..<6 {  // run 0 is a warm-up, thrown away
                let start = DispatchTime.now().uptimeNanoseconds
                let reader = try CSVReader(path: url.path)
                _ = try reader.nextRecord()
                var count = 0
                var checksum = 0.0
                while let record = try reader.nextRecord() {
                    count += 1
                    if parseNumbers {
                        for i in 0..<record.count { checksum += record.double(at: i) ?? .nan }
                    } else {
                        checksum += Double(record.count)
                    }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
                #expect(count == rows)
                #expect(checksum.isFinite)
                if run > 0 { times.append(seconds) }
            }
            times.sort()
            let median = times[times.count / 2]
            let label = parseNumbers ? "split + parse 5 numbers" : "split only"
            print(
                "FastCSV \(label): median \(String(format: "%.3f", median)) s, "
                    + "\(String(format: "%.0f", bytes / median / 1e6)) MB/s, "
                    + "\(String(format: "%.2f", Double(rows) / median / 1e6)) M rows/s "
                    + "(min \(String(format: "%.3f", times.first!)), max \(String(format: "%.3f", times.last!)))")
        }
    }
}
