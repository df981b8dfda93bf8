import DetectorScoring
import Workloads

/// What ``ReportRunner`` measures: the workload sizes and repetitions of a report.
///
/// Two presets: ``quick`` (small workloads, well under a minute in a release build: for tests and
/// a first look) and ``full`` (the README's sizes for throughput; a 1,000-device day of fixes for
/// accuracy; a few minutes).
public struct ReportSettings: Hashable, Sendable, Codable {
    /// POI counts of the stabbing workloads (three fences per POI).
    public var stabPOIs: [Int]
    /// Fixes per stabbing workload.
    public var stabFixes: Int
    /// Devices of every generated workload.
    public var devices: Int
    /// Timed runs per stabbing measurement (the median is reported; one warm-up run first).
    public var repetitions: Int
    /// Indexes up to this many fences also run the brute-force index (it is O(fences) per fix).
    public var bruteForceMaximumFences: Int
    /// POIs, fixes of the accuracy workload (realistic noise, with truth) for the detector and
    /// planner measurements.
    public var accuracyPOIs: Int, accuracyFixes: Int
    /// OS caps for the planner (regions the OS monitors at once).
    public var caps: [Int]
    /// Hysteresis values (meters) and accuracy gates (meters) of the detector's trade-off sweep
    /// (both presets: `DetectorSweep`'s grid).
    public var hysteresisMeters: [Double], accuracyGatesMeters: [Double]
    /// Seed of every generated workload.
    public var seed: UInt64
    /// True for the ``quick`` preset (the report says so).
    public var isQuick: Bool

    /// Small workloads: 300 and 3,000 fences with 20,000 fixes; 300 POIs with 100 devices and
    /// 40,000 fixes for accuracy; caps 20, 50, 100.
    public static let quick = ReportSettings(
        stabPOIs: [100, 1_000], stabFixes: 20_000, devices: 100, repetitions: 3, bruteForceMaximumFences: 3_000,
        accuracyPOIs: 300, accuracyFixes: 40_000, caps: [20, 50, 100],
        hysteresisMeters: DetectorSweep.hysteresisMeters, accuracyGatesMeters: DetectorSweep.accuracyGatesMeters, seed: 1,
        isQuick: true)

    /// The README's sizes: 3k, 30k and 300k fences with 200,000 fixes each; 10,000 POIs with
    /// 1,000 devices and 1,000,000 fixes for accuracy; caps 20, 50, 100.
    public static let full = ReportSettings(
        stabPOIs: [1_000, 10_000, 100_000], stabFixes: 200_000, devices: 1_000, repetitions: 3,
        bruteForceMaximumFences: 3_000, accuracyPOIs: 10_000, accuracyFixes: 1_000_000, caps: [20, 50, 100],
        hysteresisMeters: DetectorSweep.hysteresisMeters, accuracyGatesMeters: DetectorSweep.accuracyGatesMeters, seed: 1,
        isQuick: false)

    /// JSON keys (snake_case in `report.json`: `stab_pois`, `accuracy_pois`, ...).
    enum CodingKeys: String, CodingKey {
        case stabPOIs = "stabPois", stabFixes, devices, repetitions, bruteForceMaximumFences
        case accuracyPOIs = "accuracyPois", accuracyFixes, caps, hysteresisMeters, accuracyGatesMeters, seed, isQuick
    }

    /// The stabbing workload for `pois` POIs (Gaussian noise, as the peers' runs use).
    public func stabSpec(pois: Int) -> WorkloadSpec {
        WorkloadSpec(pois: pois, devices: devices, fixes: stabFixes, seed: seed, noise: .gaussian)
    }

    /// These settings with the stabbing workloads of a peers file (its POI counts and fixes), so
    /// that the throughput chart compares the package and the peers on identical files.
    /// - Throws: ``PeerResults/FormatError`` when the peers ran on workloads the report cannot
    ///   make (another seed, device count or noise model than these settings' Gaussian stabbing).
    public func stabbing(like peers: PeerResults.Workload) throws -> ReportSettings {
        guard peers.noise == "gaussian", peers.seed == seed, peers.devices == devices else {
            throw PeerResults.FormatError(
                description: "workload: the peers ran with \(peers.devices) devices, seed \(peers.seed), "
                    + "\(peers.noise) noise; the report's stabbing workloads have \(devices) devices, seed \(seed), gaussian noise")
        }
        var settings = self
        settings.stabPOIs = peers.pois
        settings.stabFixes = peers.fixes
        return settings
    }

    /// The accuracy workload (realistic noise).
    public var accuracySpec: WorkloadSpec {
        WorkloadSpec(pois: accuracyPOIs, devices: devices, fixes: accuracyFixes, seed: seed, noise: .realistic)
    }
}
