/// The server's metrics, rendered in the Prometheus text exposition format (version 0.0.4):
///
/// - `responders_by_status{status}` (gauge): responders per ``LivenessStatus``, every status
///   listed (0 included);
/// - `location_update_delay_seconds` (histogram): seconds from a fix being taken on the phone to
///   it being stored on the server, new fixes only (duplicates are not observed);
/// - `status_transitions_total{from,to}` (counter): liveness transitions, every possible
///   `from != to` pair listed (0 included), so a rate query never sees a series appear.
public struct ResponderMetrics: Hashable, Sendable, Codable {
    /// Delay of stored fixes.
    public private(set) var delay: DelayHistogram
    private var transitions = [Int](repeating: 0, count: LivenessStatus.allCases.count * LivenessStatus.allCases.count)

    /// Empty metrics; `delayBounds` are the histogram's bucket bounds in seconds.
    public init(delayBounds: [Double] = DelayHistogram.defaultBounds) {
        delay = DelayHistogram(bounds: delayBounds)
    }

    /// Observes one stored fix's delay in seconds.
    public mutating func observeDelay(_ seconds: Double) { delay.observe(seconds) }

    /// Counts transitions.
    public mutating func record(_ events: some Sequence<LivenessTransition>) {
        for e in events { transitions[index(e.from, e.to)] += 1 }
    }

    /// Transitions counted from `from` to `to`.
    public func transitionCount(from: LivenessStatus, to: LivenessStatus) -> Int { transitions[index(from, to)] }

    private func index(_ from: LivenessStatus, _ to: LivenessStatus) -> Int {
        Int(from.rawValue) * LivenessStatus.allCases.count + Int(to.rawValue)
    }

    /// The exposition text, with the status gauge read from `liveness`. Ends with a newline.
    public func prometheusText(liveness: LivenessMonitor) -> String {
        prometheusText(statusCounts: LivenessStatus.allCases.map { liveness.count(of: $0) })
    }

    /// The exposition text with the status gauge given: `statusCounts[s.rawValue]` responders in
    /// status `s`; with `reasonCounts` (`[status.rawValue][reason.rawValue]`) also the gauge
    /// `responders_by_status_reason{status,reason}`, every pair listed. Ends with a newline.
    /// - Precondition: `statusCounts` has one entry per ``LivenessStatus``, `reasonCounts` (if
    ///   given) one row per status of one entry per ``TrackingReason``.
    public func prometheusText(statusCounts: [Int], reasonCounts: [[Int]]? = nil) -> String {
        precondition(statusCounts.count == LivenessStatus.allCases.count, "one count per status")
        var text = """
            # HELP responders_by_status Responders in each liveness status.
            # TYPE responders_by_status gauge

            """
        for status in LivenessStatus.allCases {
            text += "responders_by_status{status=\"\(status.name)\"} \(statusCounts[Int(status.rawValue)])\n"
        }
        if let reasonCounts {
            precondition(
                reasonCounts.count == LivenessStatus.allCases.count
                    && reasonCounts.allSatisfy { $0.count == TrackingReason.allCases.count }, "one count per status and reason")
            text += """
                # HELP responders_by_status_reason Responders in each liveness status by the reason their latest telemetry gives.
                # TYPE responders_by_status_reason gauge

                """
            for status in LivenessStatus.allCases {
                for reason in TrackingReason.allCases {
                    text +=
                        "responders_by_status_reason{status=\"\(status.name)\",reason=\"\(reason.name)\"} "
                        + "\(reasonCounts[Int(status.rawValue)][Int(reason.rawValue)])\n"
                }
            }
        }
        text += """
            # HELP location_update_delay_seconds Seconds from a fix being taken on the phone to it being stored on the server.
            # TYPE location_update_delay_seconds histogram

            """
        for (bound, count) in zip(delay.bounds, delay.cumulativeCounts) {
            text += "location_update_delay_seconds_bucket{le=\"\(prometheusNumber(bound))\"} \(count)\n"
        }
        text += "location_update_delay_seconds_bucket{le=\"+Inf\"} \(delay.count)\n"
        text += "location_update_delay_seconds_sum \(prometheusNumber(delay.sum))\n"
        text += "location_update_delay_seconds_count \(delay.count)\n"
        text += """
            # HELP status_transitions_total Liveness status transitions of responders.
            # TYPE status_transitions_total counter

            """
        for from in LivenessStatus.allCases {
            for to in LivenessStatus.allCases where to != from {
                text += "status_transitions_total{from=\"\(from.name)\",to=\"\(to.name)\"} \(transitionCount(from: from, to: to))\n"
            }
        }
        return text
    }
}

/// A Prometheus sample value: integers without a fraction, `+Inf`/`-Inf`/`NaN` spelled as the
/// format wants, other values as Swift's shortest round-trip decimal.
func prometheusNumber(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
