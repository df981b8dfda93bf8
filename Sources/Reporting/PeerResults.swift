import Foundation

/// Reading the peers' figures from the JSON that `scripts/compare-peers --json-out FILE` writes:
/// `{"workload": {...}, "results": [{"kind": "peer", "name": ..., "fences": ..., "fixes_per_second": ...,
/// "index_mb": ...}, ...]}`. Rows of our own indexes (`"kind": "ours"`) are left out: the report
/// measures those itself.
public enum PeerResults {
    /// A peers file that cannot be used, naming the field.
    public struct FormatError: Error, CustomStringConvertible {
        /// What is wrong, with the JSON path.
        public var description: String
    }

    /// The peers of a compare-peers JSON document.
    public static func parse(_ data: Data) throws -> [BenchmarkReport.Peer] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FormatError(description: "not JSON")
        }
        guard let root = object as? [String: Any],
            let results = root["results"] as? [[String: Any]]
        else {
            throw FormatError(description: "expected an object with a \"results\" array")
        }
        var peers: [BenchmarkReport.Peer] = []
        for (k, row) in results.enumerated() where row["kind"] as? String == "peer" {
            guard let name = row["name"] as? String else { throw FormatError(description: "results[\(k)].name: missing") }
            guard let fences = row["fences"] as? Int else { throw FormatError(description: "results[\(k)].fences: missing") }
            guard let speed = row["fixes_per_second"] as? Double, speed.isFinite, speed >= 0 else {
                throw FormatError(description: "results[\(k)].fixes_per_second: missing or not a non-negative number")
            }
            guard let megabytes = row["index_mb"] as? Double, megabytes.isFinite else {
                throw FormatError(description: "results[\(k)].index_mb: missing or not a number")
            }
            peers.append(
                BenchmarkReport.Peer(
                    name: name, fences: fences, fixesPerSecond: speed,
                    indexBytes: Int((max(0, megabytes) * 1e6).rounded())))
        }
        return peers
    }

    /// The stabbing workloads the peers ran on: the `workload` object of the same document
    /// (`{"pois": [1000, ...], "fixes": 1000000, "devices": 1000, "seed": 1, "noise": "gaussian"}`).
    public struct Workload: Hashable, Sendable {
        /// POI counts, one workload each (three fences per POI).
        public var pois: [Int]
        /// Fixes and devices of each workload; the generator's seed and noise model.
        public var fixes: Int, devices: Int, seed: UInt64, noise: String
    }

    /// The `workload` object of a compare-peers JSON document.
    /// - Throws: ``FormatError`` naming the missing or malformed field (`workload.fixes`, ...).
    public static func workload(_ data: Data) throws -> Workload {
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw FormatError(description: "not JSON") }
        guard let root = object as? [String: Any], let w = root["workload"] as? [String: Any] else {
            throw FormatError(description: "workload: missing (expected an object)")
        }
        func count(_ key: String) throws -> Int {
            guard let value = w[key] as? Int, value > 0 else {
                throw FormatError(description: "workload.\(key): missing or not a positive integer")
            }
            return value
        }
        guard let pois = w["pois"] as? [Int], !pois.isEmpty, pois.allSatisfy({ $0 > 0 }) else {
            throw FormatError(description: "workload.pois: missing or not a list of positive integers")
        }
        guard let seed = w["seed"] as? Int, seed >= 0 else {
            throw FormatError(description: "workload.seed: missing or not a non-negative integer")
        }
        guard let noise = w["noise"] as? String else { throw FormatError(description: "workload.noise: missing") }
        return Workload(pois: pois, fixes: try count("fixes"), devices: try count("devices"), seed: UInt64(seed), noise: noise)
    }
}
