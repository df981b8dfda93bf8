import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FastCSV
import Geodesy
import POIData
import Statistics
import Workloads
import SpatialIndex
import CommandSupport

/// `geofence-bench poi`: loading a million-row POI CSV and k-nearest category search over it.
struct PoiCommand: BenchSubcommand {
    static let name = "poi"
    static let help = """
        geofence-bench poi [--pois FILE] [--rows N] [--queries Q] [--k K] [--seed S] [--reps R] [--out PATH] [--json]
          Writes an N-row POI CSV (default 1,000,000; the format of Data/README.md) to PATH (default a
          file in $TMPDIR or /tmp, removed afterwards): with --pois, copies of the real extract FILE (e.g.
          Data/pois_osm_all.csv) each shifted to a seeded random place with 30 m of jitter per row; without,
          a seeded synthetic world (50 city clusters plus a 10% uniform sprinkle, categories in
          OSM-like shares). Then times, as medians of R runs (default 3) after a warm-up:
            load    POICatalog(path:), streaming parse + validation + tag mapping + duplicate check;
            build   POIIndex (a packed R-tree per category and one over all POIs);
            nearest Q queries (default 100,000) near random POIs: the K (default 5) nearest of any
                    category, of each category, within 5 km, and to the nearest of 3 locations.
        """

    static let options: [Arguments.Option] = [
        .value("pois"), .value("rows"), .value("queries"), .value("k"), .value("seed"), .value("reps"), .value("out"), .flag("json")
    ]

    let rows: Int, queries: Int, k: Int, reps: Int
    let seed: UInt64
    let source: String?, outArg: String?
    let json: Bool

    init(arguments args: Arguments) throws(UsageError) {
        rows = try args.int("rows", default: 1_000_000, in: 1...BenchLimits.maxPOIRows)
        try MemoryBudget.check(rows, bytesEach: 160, option: "rows")  // the catalog and its index hold each row
        queries = try args.int("queries", default: 100_000, in: 1...BenchLimits.maxQueries)
        k = try args.int("k", default: 5, in: 1...BenchLimits.maxNeighbors)
        seed = UInt64(try args.int("seed", default: 1, in: 0...Int.max))
        reps = try args.int("reps", default: 3, in: 1...BenchLimits.maxReps)
        source = args.string("pois")
        outArg = args.string("out")
        json = args.flag("json")
    }

    func validate() throws(UsageError) {
        try FileIdentity.refuseOverwriting(outArg, option: "out", inputs: [("pois", source)])
    }

    func execute() throws {

        let path = outArg ?? scratchPath("pois", extension: "csv")
        defer { if outArg == nil { _ = unlink(path) } }
        var t0 = monotonicSeconds()
        let template = try source.map(Self.templateRows) ?? []
        let bytes: Int
        do {
            bytes = try SyntheticPOIFile.write(rows: rows, template: template, seed: seed, to: path)
        } catch {
            throw BenchError("\(error)")
        }
        printError(
            "wrote \(rows) POI rows (\(formatFixed(Double(bytes) / 1e6, 1)) MB) to \(path) in "
                + "\(formatFixed(monotonicSeconds() - t0, 2)) s")

        // Load: a warm-up (also fills the page cache), then R timed runs.
        var catalog = try Self.load(path)
        var loadRuns: [Double] = []
        var loadCPURuns: [Double] = []
        for _ in 0..<reps {
            t0 = monotonicSeconds()
            let c0 = ProcessStats.threadCPUSeconds()
            catalog = try Self.load(path)
            loadRuns.append(monotonicSeconds() - t0)
            loadCPURuns.append(ProcessStats.threadCPUSeconds() - c0)
        }
        guard catalog.count == rows else { throw BenchError("loaded \(catalog.count) POIs of \(rows) rows") }
        let loadSeconds = OrderStatistics.median(loadRuns)
        // The CSV reader alone over the same file (records and fields, no validation): what
        // the loader's own work adds on top.
        var scanRuns: [Double] = []
        for _ in 0..<reps {
            t0 = monotonicSeconds()
            var fields = 0
            do {
                let reader = try CSVReader(path: path)
                while let record = try reader.nextRecord() { fields &+= record.count }
            } catch {
                throw BenchError("\(path): \(error)")
            }
            scanRuns.append(monotonicSeconds() - t0)
            guard fields == 9 * (rows + 1) else { throw BenchError("scan saw \(fields) fields") }
        }
        let scanSeconds = OrderStatistics.median(scanRuns)
        printError("csv scan: \(formatFixed(scanSeconds, 3)) s (\(formatFixed(Double(bytes) / scanSeconds / 1e6, 0)) MB/s)")
        let loadCPUSeconds = OrderStatistics.median(loadCPURuns)
        printError(
            "load: \(formatFixed(loadSeconds, 3)) s median wall, \(formatFixed(loadCPUSeconds, 3)) s CPU "
                + "(\(formatFixed(Double(rows) / loadSeconds / 1e6, 2)) M rows/s, \(formatFixed(Double(bytes) / loadSeconds / 1e6, 0)) MB/s wall)")

        t0 = monotonicSeconds()
        let index = POIIndex(catalog)
        let buildSeconds = monotonicSeconds() - t0
        printError("index build: \(formatFixed(buildSeconds, 3)) s")

        let points = SyntheticPOIFile.queryPoints(queries, nearPOIs: catalog.count, seed: seed) { catalog.location(at: $0) }
        let vectors = points.map(\.unitVector)

        // Wall time and this thread's CPU time: on a shared machine the CPU time is the fair
        // figure (wall time counts the time other processes held the core).
        var results: [(String, Double, Double, UInt64)] = []
        func time(_ name: String, _ body: () -> UInt64) {
            var runs: [Double] = []
            var cpuRuns: [Double] = []
            var check: UInt64 = 0
            _ = body()  // warm-up
            for _ in 0..<reps {
                let start = monotonicSeconds(), cpuStart = ProcessStats.threadCPUSeconds()
                check = body()
                runs.append(monotonicSeconds() - start)
                cpuRuns.append(ProcessStats.threadCPUSeconds() - cpuStart)
            }
            let micros = OrderStatistics.median(runs) / Double(queries) * 1e6
            let cpuMicros = OrderStatistics.median(cpuRuns) / Double(queries) * 1e6
            results.append((name, micros, cpuMicros, check))
            printError("nearest \(name): \(formatFixed(micros, 2)) us/query wall, \(formatFixed(cpuMicros, 2)) us CPU (checksum \(check))")
        }
        var buffer: [FenceNeighbor] = []
        buffer.reserveCapacity(k)
        for category in [nil] + POICategory.allCases {
            let name = "\(category?.rawValue ?? "any") (\(index.count(of: category)))"
            time(name) {
                var sum: UInt64 = 0
                for p in vectors {
                    index.nearest(category, to: p, k: k, into: &buffer)
                    for n in buffer { sum &+= UInt64(n.id) }
                }
                return sum
            }
        }
        time("pharmacy within 5 km") {
            var sum: UInt64 = 0
            for p in vectors {
                index.nearest(.pharmacy, to: p, k: k, maxDistanceMeters: 5_000, into: &buffer)
                for n in buffer { sum &+= UInt64(n.id) }
            }
            return sum
        }
        time("grocery to any of 3 locations") {
            var sum: UInt64 = 0
            for q in 0..<points.count {
                let near = [points[q], points[(q + 1) % points.count], points[(q + 2) % points.count]]
                for m in index.nearest(.grocery, toAnyOf: near, k: k) { sum &+= UInt64(m.poi) }
            }
            return sum
        }

        if json {
            var o = JSONObject()
            o.set("rows", rows)
            o.set("file_bytes", bytes)
            o.set("source", source ?? "synthetic")
            o.set("load_seconds", loadSeconds)
            o.set("load_seconds_runs", array: loadRuns.map { JSONObject.number($0, decimals: 6) })
            o.set("load_cpu_seconds", loadCPUSeconds)
            o.set("load_rows_per_second", Double(rows) / loadSeconds, decimals: 0)
            o.set("load_mb_per_second", Double(bytes) / loadSeconds / 1e6, decimals: 1)
            o.set("csv_scan_seconds", scanSeconds)
            o.set("csv_scan_mb_per_second", Double(bytes) / scanSeconds / 1e6, decimals: 1)
            o.set("build_seconds", buildSeconds)
            o.set("queries", queries)
            o.set("k", k)
            var wall = JSONObject(), cpu = JSONObject()
            for (name, micros, cpuMicros, _) in results {
                wall.set(name, micros, decimals: 3)
                cpu.set(name, cpuMicros, decimals: 3)
            }
            o.set("nearest_us_per_query", object: wall)
            o.set("nearest_cpu_us_per_query", object: cpu)
            o.set("peak_rss_mb", ProcessStats.peakRSSMegabytes(), decimals: 1)
            print(o.text)
        } else {
            print("rows       \(rows) (\(formatFixed(Double(bytes) / 1e6, 1)) MB, \(source ?? "synthetic"))")
            print(
                "load       \(formatFixed(loadSeconds, 3)) s wall, \(formatFixed(loadCPUSeconds, 3)) s CPU  "
                    + "(\(formatFixed(Double(rows) / loadSeconds / 1e6, 2)) M rows/s, \(formatFixed(Double(bytes) / loadSeconds / 1e6, 0)) MB/s)")
            print("csv scan   \(formatFixed(scanSeconds, 3)) s  (\(formatFixed(Double(bytes) / scanSeconds / 1e6, 0)) MB/s, reader alone)")
            print("build      \(formatFixed(buildSeconds, 3)) s")
            for (name, micros, cpu, _) in results {
                print("nearest-\(k) \(name): \(formatFixed(micros, 2)) us/query wall, \(formatFixed(cpu, 2)) us CPU")
            }
            print("peak RSS   \(formatFixed(ProcessStats.peakRSSMegabytes(), 0)) MB")
        }
    }

    static func load(_ path: String) throws(BenchError) -> POICatalog {
        do {
            return try POICatalog(path: path)
        } catch {
            throw BenchError("\(path): \(error)")
        }
    }

    /// The rows of the real extract at `path`, as templates for ``SyntheticPOIFile``.
    static func templateRows(_ path: String) throws(BenchError) -> [SyntheticPOIFile.Row] {
        let real: POICatalog
        do {
            real = try POICatalog(path: path)
        } catch {
            // FILE:LINE:COLUMN, as `geofence poi` reports a bad row.
            throw BenchError(error.reason == .io ? "\(path): \(error.message)" : error.formatted(source: path))
        }
        guard real.count > 0 else { throw BenchError("\(path) has no POIs") }
        return (0..<real.count).map { i in
            SyntheticPOIFile.Row(
                location: real.location(at: i), name: real.name(at: i), amenity: real.tag("amenity", at: i) ?? "",
                shop: real.tag("shop", at: i) ?? "", brand: real.tag("brand", at: i) ?? "",
                category: real.category(at: i)?.rawValue ?? "")
        }
    }
}
