import FastCSV
import Geodesy
import Geofencing
import SpatialIndex
import Statistics
import Workloads

/// A true transition: the noise-free position changed its inside/outside state for a
/// (device, fence) between two consecutive fixes of the device, at the later fix's `time`.
/// `optional` marks a brush past the boundary: the truth reverses it within
/// ``TransitionScoring/brushSeconds``; both transitions of such a pair are optional (missing
/// them is no false negative, but a detection may still match them).
public struct TrueTransition: Hashable, Sendable {
    /// The transition.
    public var event: TransitionEvent
    /// Whether it is half of a brush (missing it is no false negative).
    public var optional: Bool

    /// A true transition, optional or not.
    public init(event: TransitionEvent, optional: Bool) {
        self.event = event
        self.optional = optional
    }
}

/// The figures of one detector against the truth.
public struct TransitionScore: Hashable, Sendable {
    /// All true transitions, and how many of them are optional brushes.
    public var trueTransitions = 0
    /// True transitions that are brushes (optional).
    public var optionalTransitions = 0
    /// Detected `enter` and `exit` events (dwell events are not scored).
    public var detected = 0
    /// Detected events that matched a true transition.
    public var matched = 0
    /// Detected events that matched none.
    public var falsePositives = 0
    /// Required (non-optional) true transitions that no detection matched.
    public var falseNegatives = 0
    /// Matched detection time minus true transition time, seconds (may be negative down to
    /// -``TransitionScoring/earlySeconds``).
    public var latencyP50 = Double.nan
    /// 95th percentile of the matched latencies, seconds; NaN when nothing matched.
    public var latencyP95 = Double.nan

    /// All counts zero, latencies NaN.
    public init() {}

    /// Required true transitions: `trueTransitions - optionalTransitions`.
    public var requiredTransitions: Int { trueTransitions - optionalTransitions }
    /// Unmatched detected / detected (0 when nothing was detected).
    public var falsePositiveRate: Double { detected == 0 ? 0 : Double(falsePositives) / Double(detected) }
    /// Unmatched required true / required true.
    public var falseNegativeRate: Double {
        requiredTransitions == 0 ? 0 : Double(falseNegatives) / Double(requiredTransitions)
    }
    /// Flaps per true transition: surplus (unmatched) detected events per required true
    /// transition; a noise flap is a spurious exit-and-enter pair, so it counts 2.
    public var flapsPerTrueTransition: Double {
        requiredTransitions == 0 ? 0 : Double(falsePositives) / Double(requiredTransitions)
    }
}

/// Scoring of detected events against ground truth: a detected event
/// matches an unmatched true transition of the same device, fence and kind whose time is no more
/// than ``earlySeconds`` after the event and no more than ``lateSeconds`` before it.
public enum TransitionScoring {
    /// A detection may precede its true transition by up to 120 s.
    public static let earlySeconds = 120.0
    /// A detection may follow its true transition by up to 600 s.
    public static let lateSeconds = 600.0
    /// A true transition reversed within 60 s is a brush past the boundary (optional).
    public static let brushSeconds = 60.0

    /// The true transitions of `fixes`, via a ``NaiveDetector`` over the truth positions (polygon
    /// fences: `outlines`, decided by exact containment), with brushes marked optional. Ordered
    /// by fix then fence id.
    /// - Throws: `FixStreamError` when the stream has no truth columns, columns of different
    ///   lengths or a value out of range.
    public static func trueTransitions<Index: FenceIndex>(
        _ fixes: FixStream, index: Index, outlines: FenceOutlines = FenceOutlines()
    ) throws(FixStreamError) -> [TrueTransition] {
        try fixes.validate(requiringTruth: true)
        var naive = NaiveDetector(index: index, outlines: outlines)
        var events: [TransitionEvent] = []
        for k in 0..<fixes.count {
            naive.process(
                device: fixes.device[k], time: fixes.time[k], latitude: fixes.trueLatitude[k],
                longitude: fixes.trueLongitude[k], into: &events)
        }
        return markBrushes(events)
    }

    /// Marks as optional every pair of consecutive transitions of one (device, fence) less than
    /// or exactly ``brushSeconds`` apart (the second reverses the first: states alternate).
    public static func markBrushes(_ events: [TransitionEvent]) -> [TrueTransition] {
        var out = events.map { TrueTransition(event: $0, optional: false) }
        let order = out.indices.sorted { groupOrder(out[$0].event, out[$1].event) }
        for (a, b) in zip(order, order.dropFirst()) {
            let x = out[a].event, y = out[b].event
            if x.device == y.device && x.fence == y.fence && y.time - x.time <= brushSeconds {
                out[a].optional = true
                out[b].optional = true
            }
        }
        return out
    }

    /// Scores `detected` (enter/exit events; dwell events are ignored) against `truth`.
    public static func score(detected: [TransitionEvent], truth: [TrueTransition]) -> TransitionScore {
        let m = match(detected: detected, truth: truth)
        var score = TransitionScore()
        score.trueTransitions = truth.count
        score.optionalTransitions = truth.reduce(0) { $0 + ($1.optional ? 1 : 0) }
        score.detected = m.detected
        score.matched = m.latencies.count
        score.falsePositives = score.detected - score.matched
        for (k, t) in truth.enumerated() where !t.optional && !m.truthMatched[k] { score.falseNegatives += 1 }
        let latencies = m.latencies.sorted()
        if !latencies.isEmpty {
            score.latencyP50 = OrderStatistics.percentile(sorted: latencies, 0.50)
            score.latencyP95 = OrderStatistics.percentile(sorted: latencies, 0.95)
        }
        return score
    }

    /// The matching behind ``score(detected:truth:)``: for each true transition (in `truth`'s
    /// order) whether a detection matched it, the latency of every match (seconds), and the
    /// number of scored detections.
    public static func match(detected: [TransitionEvent], truth: [TrueTransition])
        -> (truthMatched: [Bool], latencies: [Double], detected: Int)
    {
        let events = detected.filter { $0.kind != .dwell }.sorted(by: kindGroupOrder)
        let order = truth.indices.sorted { kindGroupOrder(truth[$0].event, truth[$1].event) }
        var matched = [Bool](repeating: false, count: truth.count)
        var latencies: [Double] = []
        var eventMatched = [Bool](repeating: false, count: events.count)
        // Two greedy passes per (device, fence, kind) group, both lists in time order: first each
        // event takes the earliest unmatched required truth in its window (earliest deadline
        // first maximizes the matches, since every window has the same length); then the events
        // left over may take optional brushes. So a brush never steals the detection of the real
        // transition that follows it.
        for pass in 0..<2 {
            let wantOptional = pass == 1
            var j = 0
            for (n, e) in events.enumerated() where !eventMatched[n] {
                while j < order.count && groupLess(truth[order[j]].event, e, orEarlierThan: e.time - lateSeconds) { j += 1 }
                var k = j
                while k < order.count && sameGroup(truth[order[k]].event, e) && truth[order[k]].event.time <= e.time + earlySeconds {
                    let t = order[k]
                    if !matched[t] && truth[t].optional == wantOptional {
                        matched[t] = true
                        eventMatched[n] = true
                        latencies.append(e.time - truth[t].event.time)
                        break
                    }
                    k += 1
                }
            }
        }
        return (matched, latencies, events.count)
    }

    static func groupOrder(_ a: TransitionEvent, _ b: TransitionEvent) -> Bool {
        (a.device, a.fence, a.time) < (b.device, b.fence, b.time)
    }

    static func kindGroupOrder(_ a: TransitionEvent, _ b: TransitionEvent) -> Bool {
        (a.device, a.fence, a.kind.rawValue, a.time) < (b.device, b.fence, b.kind.rawValue, b.time)
    }

    static func sameGroup(_ a: TransitionEvent, _ b: TransitionEvent) -> Bool {
        a.device == b.device && a.fence == b.fence && a.kind == b.kind
    }

    /// True when truth `t` sorts before event `e`'s group, or is in it but earlier than `time`.
    static func groupLess(_ t: TransitionEvent, _ e: TransitionEvent, orEarlierThan time: Double) -> Bool {
        if sameGroup(t, e) { return t.time < time }
        return (t.device, t.fence, t.kind.rawValue) < (e.device, e.fence, e.kind.rawValue)
    }

    /// Writes `device,fence,kind,t` records (after a header line when `header`) for `events`,
    /// times with 3 decimals (milliseconds).
    public static func writeCSV(_ events: [TransitionEvent], header: Bool, to out: CSVWriter) {
        if header { out.writeRecord(["device", "fence", "kind", "t"]) }
        for e in events {
            out.writeField(Int64(e.device))
            out.writeField(Int64(e.fence))
            out.writeField(e.kind.description)
            out.writeField(e.time, decimals: 3)
            out.endRecord()
        }
    }
}

extension TransitionScoring {
    /// Runs `detector` over every fix of `fixes` in stream order; returns all its events.
    public static func detect(_ fixes: FixStream, with detector: inout TransitionDetector) -> [TransitionEvent] {
        // Room for one event per fix up front (the realistic workloads give about 0.8), so the
        // timing is the detector's and not the growth of its output array.
        var events: [TransitionEvent] = []
        events.reserveCapacity(fixes.count)
        for k in 0..<fixes.count {
            detector.process(
                device: fixes.device[k], time: fixes.time[k], latitude: fixes.latitude[k],
                longitude: fixes.longitude[k], accuracy: fixes.accuracy[k], into: &events)
        }
        return events
    }

    /// Runs a ``NaiveDetector`` over the noisy fixes of `fixes` (polygon fences: `outlines`).
    public static func detectNaive<Index: FenceIndex>(
        _ fixes: FixStream, index: Index, outlines: FenceOutlines = FenceOutlines()
    ) -> [TransitionEvent] {
        var naive = NaiveDetector(index: index, outlines: outlines)
        var events: [TransitionEvent] = []
        for k in 0..<fixes.count {
            naive.process(
                device: fixes.device[k], time: fixes.time[k], latitude: fixes.latitude[k],
                longitude: fixes.longitude[k], into: &events)
        }
        return events
    }
}

extension TransitionScoring {
    /// Where the false negatives come from: the required true transitions that `detected`
    /// misses, counted by kind, by how long the truth kept the new state (`held<120s`,
    /// `held<300s`, `held<900s`, `held>=900s`; the last transition of a (device, fence) holds
    /// forever) and by whether the previous transition of the same (device, fence) was missed
    /// too (`prevMissed=true|false`). Keys look like `"enter held<120s prevMissed=false"`;
    /// largest count first, ties by key. O(n log n) in the true transitions.
    public static func falseNegativeBreakdown(detected: [TransitionEvent], truth: [TrueTransition]) -> [(key: String, count: Int)] {
        let m = match(detected: detected, truth: truth)
        // Next transition time per truth index, by (device, fence) in time order.
        let order = truth.indices.sorted {
            let a = truth[$0].event, b = truth[$1].event
            return (a.device, a.fence, a.time) < (b.device, b.fence, b.time)
        }
        var held = [Double](repeating: .infinity, count: truth.count)
        var previousMissed = [Bool](repeating: false, count: truth.count)
        for (x, y) in zip(order, order.dropFirst())
        where truth[x].event.device == truth[y].event.device && truth[x].event.fence == truth[y].event.fence {
            held[x] = truth[y].event.time - truth[x].event.time
            previousMissed[y] = !m.truthMatched[x]
        }
        var buckets: [String: Int] = [:]
        for k in truth.indices where !truth[k].optional && !m.truthMatched[k] {
            let h = held[k]
            let span = h < 120 ? "held<120s" : h < 300 ? "held<300s" : h < 900 ? "held<900s" : "held>=900s"
            buckets["\(truth[k].event.kind) \(span) prevMissed=\(previousMissed[k])", default: 0] += 1
        }
        return buckets.map { (key: $0.key, count: $0.value) }.sorted { ($1.count, $0.key) < ($0.count, $1.key) }
    }
}
