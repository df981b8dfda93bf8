extension PlanScoring {
    /// The figures of one policy.
    public struct Score: Hashable, Sendable {
        /// True entries, optional ones included.
        public var trueEntries = 0
        /// True entries that are not optional (the denominator of the recalls).
        public var requiredEntries = 0
        /// Required entries caught by an OS enter event.
        public var caughtRequired = 0
        /// Optional entries caught by an OS enter event (not counted in any recall).
        public var caughtOptional = 0
        /// Plans made, each device's first included.
        public var plans = 0
        /// Plans after each device's first.
        public var replans = 0
        /// Sum over devices of the span from the first to the last fix, hours.
        public var deviceHours = 0.0
        /// Regions added by replans (first plans excluded), refresh region included.
        public var regionsAdded = 0
        /// Regions removed by replans (first plans excluded), refresh region included.
        public var regionsRemoved = 0
        /// Fence regions added by replans.
        public var fencesAdded = 0
        /// Fence regions removed by replans.
        public var fencesRemoved = 0
        /// Plans whose guarantee held (planner only).
        public var guaranteedPlans = 0
        /// Enter events delivered that caught no entry (initial-state reports for fences the
        /// device was already in, late events after the truth left, ...).
        public var unmatchedEnterEvents = 0
        /// Enter events delivered to the app (of fences, initial states included).
        public var enterEvents = 0
        /// Seconds from entry to catching delivery, caught entries only, sorted ascending.
        public var latencies: [Double] = []
        /// Required entries caught by an OS event *or* by the app's own check at a wake-up (see
        /// ``PlanScoring``, "Wake-time check"): system recall, the headline figure.
        public var caughtRequiredWithWakeUpCheck = 0
        /// Times the app was woken and evaluated its fix (plans included): each takes a GPS fix.
        public var wakes = 0
        /// Times the OS woke the app: a delivery of region events, a significant-change signal
        /// or the policy's timer (whether or not the app then takes a fix).
        public var osWakeUps = 0
        /// Entries the app fired itself at wake-ups.
        public var wakeCheckFires = 0
        /// Wake-time fires with the truth outside the fence (false alarms of the noisy fix;
        /// not counted against recall).
        public var wakeCheckFalseFires = 0
        /// Fires with the truth inside, in a stay an earlier fire of the same fence already
        /// announced (a duplicate notification: the fix flickered across the edge).
        public var wakeCheckRepeatFires = 0
        /// Required entries missed by the system (OS events and wake-time check). Each miss is
        /// counted once under each of five keys:
        /// - fence radius: `"r<meters>"`, rounded to the meter (`"r1609"`);
        /// - deepest point of the stay: `"depth<50"`, `"depth50-200"`, `"depth>=200"` (meters);
        /// - length of the stay: `"stay<120"`, `"stay120-600"`, `"stay>=600"` (seconds);
        /// - time since the truth last left the fence: `"reentry-after<60"`,
        ///   `"reentry-after60-300"`, `"reentry-after300-600"`, `"reentry-after>=600"` (seconds),
        ///   or `"first-entry"`;
        /// - cause: `"cause:no-wake"` (no wake in the window with the truth inside),
        ///   `"cause:fix-outside"` (woken with the truth inside, every such fix outside the fence),
        ///   `"cause:known-inside"`, `"cause:known-inside:earlier-stay"` or
        ///   `"cause:known-inside:noise"` (a fix inside, but the app already believed it was in
        ///   the fence: from the wake before, during an earlier stay of the truth or by noise).
        public var systemMisses: [String: Int] = [:]
        /// Required entries that get at least the OS pass distance deep (the ones an OS that
        /// needs that depth can report at all).
        public var deepRequiredEntries = 0
        /// Deep required entries caught by an OS enter event.
        public var caughtDeepRequired = 0
        /// Required entries missed although the fence was registered when the truth crossed.
        public var missedWhileMonitored = 0
        /// Required entries missed whose fence was not registered when the truth crossed.
        public var missedUnmonitored = 0
        /// Registrations the simulated OS refused (over its capacity).
        public var rejectedRegistrations = 0
        /// OS events dropped because a plan unregistered their region before delivery.
        public var droppedEvents = 0
        /// Observations the simulated OS skipped (see ``OSRegionMonitor/skippedObservations``).
        public var skippedObservations = 0

        /// All counts zero.
        public init() {}

        /// OS recall: caught required entries / required entries (1 when there are none).
        public var recall: Double { requiredEntries == 0 ? 1 : Double(caughtRequired) / Double(requiredEntries) }
        /// Recall over the deep required entries (1 when there are none).
        public var deepRecall: Double {
            deepRequiredEntries == 0 ? 1 : Double(caughtDeepRequired) / Double(deepRequiredEntries)
        }
        /// System recall: required entries caught by OS events or the wake-time check / required
        /// entries (1 when there are none).
        public var recallWithWakeUpCheck: Double {
            requiredEntries == 0 ? 1 : Double(caughtRequiredWithWakeUpCheck) / Double(requiredEntries)
        }
        /// Device-days: device-hours / 24.
        public var deviceDays: Double { deviceHours / 24 }
        /// OS wake-ups per device-day (0 without device-hours).
        public var wakeUpsPerDeviceDay: Double { deviceHours == 0 ? 0 : Double(osWakeUps) / deviceDays }
        /// GPS fixes the app takes per device-day (one per evaluated wake; 0 without device-hours).
        public var gpsFixesPerDeviceDay: Double { deviceHours == 0 ? 0 : Double(wakes) / deviceDays }
        /// Wakes per device-hour (0 without device-hours).
        public var wakesPerDeviceHour: Double { deviceHours == 0 ? 0 : Double(wakes) / deviceHours }
        /// Replans per device-hour (0 without device-hours).
        public var replansPerDeviceHour: Double { deviceHours == 0 ? 0 : Double(replans) / deviceHours }
        /// Fence regions added per replan (0 without replans).
        public var fencesAddedPerReplan: Double { replans == 0 ? 0 : Double(fencesAdded) / Double(replans) }
        /// Fence regions removed per replan (0 without replans).
        public var fencesRemovedPerReplan: Double { replans == 0 ? 0 : Double(fencesRemoved) / Double(replans) }
        /// The latency (seconds) at quantile `q` in [0, 1] of the sorted ``latencies``, nearest
        /// rank; NaN when nothing was caught.
        public func latencyPercentile(_ q: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let k = min(latencies.count - 1, max(0, Int((q * Double(latencies.count - 1)).rounded())))
            return latencies[k]
        }
    }
}
