import Foundation
import JSON

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
    /// - Throws: ``FormatError`` naming the JSON path (and line and column) of the first problem.
    public static func parse(_ data: Data) throws -> [BenchmarkReport.Peer] {
        do throws(JSONPathError) {
            let results = try root(data).object().array("results")
            var peers: [BenchmarkReport.Peer] = []
            for row in results {
                let r = try row.object()
                guard try r.field("kind")?.string() == "peer" else { continue }
                let speed = try r.number("fixes_per_second")
                guard speed >= 0 else { throw r.error("fixes_per_second", "expected a non-negative number, found \(speed)") }
                let megabytes = try r.number("index_mb")
                peers.append(
                    BenchmarkReport.Peer(
                        name: try r.string("name"), fences: try r.integer("fences"), fixesPerSecond: speed,
                        indexBytes: Int((max(0, megabytes) * 1e6).rounded())))
            }
            return peers
        } catch {
            throw FormatError(description: error.description)
        }
    }

    /// The document's root, or a ``FormatError`` naming where it is not JSON.
    static func root(_ data: Data) throws(JSONPathError) -> JSONReader {
        do throws(JSONSyntaxError) {
            return try JSONReader(parsing: [UInt8](data))
        } catch {
            throw JSONPathError(path: "", message: "not JSON: \(error.message)", line: error.line, column: error.column)
        }
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
        do throws(JSONPathError) {
            let w = try root(data).object().object("workload")
            func count(_ key: String) throws(JSONPathError) -> Int {
                let value = try w.integer(key)
                guard value > 0 else { throw w.error(key, "expected a positive integer, found \(value)") }
                return value
            }
            let pois = try w.array("pois")
            guard !pois.isEmpty else { throw w.error("pois", "expected a list of positive integers, found an empty array") }
            var counts: [Int] = []
            for p in pois {
                let n = try p.integer()
                guard n > 0 else { throw p.error("expected a positive integer, found \(n)") }
                counts.append(n)
            }
            let seed = try w.integer("seed")
            guard seed >= 0 else { throw w.error("seed", "expected a non-negative integer, found \(seed)") }
            return Workload(
                pois: counts, fixes: try count("fixes"), devices: try count("devices"), seed: UInt64(seed), noise: try w.string("noise"))
        } catch {
            throw FormatError(description: error.description)
        }
    }
}
