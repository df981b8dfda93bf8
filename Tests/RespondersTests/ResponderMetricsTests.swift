import Foundation
import Testing
@testable import Responders

@Suite struct ResponderMetricsTests {
    /// A small server state: the exact exposition text (hand-checked against the Prometheus text
    /// format 0.0.4 and by promtool in the next test).
    static func sampleServer() throws -> ResponderServer<MemoryServerStore> {
        var server = ResponderServer(store: MemoryServerStore())
        try server.ingest([reported(1, 1, time: 99.5), reported(2, 1, time: 90, duty: .onMission)], receivedAt: 100)
        try server.ingest([reported(1, 1, time: 99.5)], receivedAt: 101)  // duplicate: not observed
        try server.ingest([reported(3, 1, time: 0, duty: .offDuty)], receivedAt: 700)  // 700 s late
        server.advance(to: 700)
        return server
    }

    @Test func expositionTextIsExact() throws {
        let text = try Self.sampleServer().prometheusText
        let expected = """
            # HELP responders_by_status Responders in each liveness status.
            # TYPE responders_by_status gauge
            responders_by_status{status="unknown"} 0
            responders_by_status{status="online"} 0
            responders_by_status{status="degraded"} 0
            responders_by_status{status="offline"} 2
            responders_by_status{status="off_duty"} 1
            # HELP location_update_delay_seconds Seconds from a fix being taken on the phone to it being stored on the server.
            # TYPE location_update_delay_seconds histogram
            location_update_delay_seconds_bucket{le="0.5"} 1
            location_update_delay_seconds_bucket{le="1"} 1
            location_update_delay_seconds_bucket{le="2"} 1
            location_update_delay_seconds_bucket{le="5"} 1
            location_update_delay_seconds_bucket{le="10"} 2
            location_update_delay_seconds_bucket{le="15"} 2
            location_update_delay_seconds_bucket{le="30"} 2
            location_update_delay_seconds_bucket{le="60"} 2
            location_update_delay_seconds_bucket{le="120"} 2
            location_update_delay_seconds_bucket{le="300"} 2
            location_update_delay_seconds_bucket{le="600"} 2
            location_update_delay_seconds_bucket{le="+Inf"} 3
            location_update_delay_seconds_sum 710.5
            location_update_delay_seconds_count 3

            """
        #expect(text.hasPrefix(expected))
        let transitions = text.split(separator: "\n").filter { $0.hasPrefix("status_transitions_total{") }
        #expect(transitions.count == 20)  // every from != to pair of 5 statuses
        #expect(transitions.contains("status_transitions_total{from=\"unknown\",to=\"online\"} 2"))
        #expect(transitions.contains("status_transitions_total{from=\"online\",to=\"degraded\"} 2"))
        #expect(transitions.contains("status_transitions_total{from=\"degraded\",to=\"offline\"} 2"))
        #expect(transitions.contains("status_transitions_total{from=\"unknown\",to=\"off_duty\"} 1"))
        #expect(transitions.filter { $0.hasSuffix(" 0") }.count == 16)
    }

    @Test func histogramEdges() {
        var histogram = DelayHistogram(bounds: [1, 2])
        for value in [-3, 0, 1, 1.0000001, 2, .nan, .infinity, 1e300] { histogram.observe(value) }
        #expect(histogram.cumulativeCounts == [3, 5])
        #expect(histogram.count == 6)
        #expect(histogram.sum == 1e300)
        #expect(prometheusNumber(0.5) == "0.5" && prometheusNumber(600) == "600" && prometheusNumber(-.infinity) == "-Inf")
    }

    /// `promtool check metrics` (Debian's `prometheus` package) must accept the text. Skipped
    /// with a printed reason when promtool is not installed.
    @Test func promtoolAcceptsTheText() throws {
        guard
            let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool", "/opt/homebrew/bin/promtool"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            print("skipped: promtool not found (install Debian's `prometheus` package to run this check)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: promtool)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(try Self.sampleServer().prometheusText.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool: \(said)")
        #expect(said == "", "promtool lint: \(said)")
    }
}
