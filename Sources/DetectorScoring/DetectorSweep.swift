import Geofencing

/// The detector's trade-off grid: hysteresis (meters) x accuracy gate (meters), every other
/// setting from a base configuration. `geofence-bench transitions --sweep`, the benchmark report
/// and `scripts/sweep` (through the bench) all sweep this grid.
public enum DetectorSweep {
    /// Hysteresis values, meters, ascending.
    public static let hysteresisMeters: [Double] = [0, 10, 20, 40]
    /// Accuracy gates (`TransitionDetectorConfiguration/maxAccuracyMeters`), meters, ascending.
    public static let accuracyGatesMeters: [Double] = [50, 100, 200, 1_500]

    /// One point of the grid.
    public struct Setting: Hashable, Sendable {
        /// Hysteresis and accuracy gate, meters.
        public var hysteresisMeters: Double, accuracyGateMeters: Double
        /// `base` with those two settings.
        public var configuration: TransitionDetectorConfiguration
    }

    /// Every point of `hysteresis` x `gates` over `base`, hysteresis-major (the order the tables
    /// list them in).
    public static func settings(
        base: TransitionDetectorConfiguration, hysteresis: [Double] = hysteresisMeters,
        gates: [Double] = accuracyGatesMeters
    ) -> [Setting] {
        hysteresis.flatMap { h in
            gates.map { gate in
                var c = base
                c.hysteresisMeters = h
                c.maxAccuracyMeters = gate
                return Setting(hysteresisMeters: h, accuracyGateMeters: gate, configuration: c)
            }
        }
    }
}
