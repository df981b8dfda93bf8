import IndexBenchmark
import JSON
import CommandSupport
import SpatialIndex
import Workloads

/// `geofence-bench stab`: stream a fixes file through one index.
struct StabCommand: BenchSubcommand {
    static let name = "stab"
    static let help = """
        geofence-bench stab --fences F --fixes X [--index packed|dynamic|grid|brute|cell] [--threads N] [--reps R] [--per-fix]
                            [--allow-duplicate-ids] [--json]
        geofence-bench stab --polygons P.geojson [--fences F] --fixes X [--index cell] [options as above]
          For every fix, find every fence containing it (great circle, R = 6,371,008.8 m, boundary inclusive)
          with the index named by --index (default packed; grid is LatLngGridIndex, cell is CellFenceIndex).
          --polygons adds polygon fences (GeoJSON Polygon/MultiPolygon features, S2's semi-open model):
          the fence ids are the features' integer ids; only --index cell (the default then) holds them,
          beside the circles of --fences when given.
          Prints hits and the checksum: the wrapping UInt64 sum over hits of fix_index * 1000003 + fence_id.
          Timing covers the query phase only (CSV parsed and index built beforehand), median of R runs
          (default 3) after a warm-up; --threads N partitions the fixes by device over N threads.
          The grid index and the packed tree get the fixes through their batch queries
          (forEachContaining(latitudes:longitudes:)); the dynamic tree, and every index with --per-fix,
          get one call per fix. JSON "mode" says which. Two fences with one id are an error naming both
          lines, unless --allow-duplicate-ids (then each is a fence of its own and both count).
        """

    static let options: [Arguments.Option] = [
        .value("fences"), .value("polygons"), .value("fixes"), .value("index"), .value("threads"), .value("reps"),
        .flag("per-fix"), .flag("allow-duplicate-ids"), .flag("json")
    ]

    let fencesPath: String?, polygonsPath: String?, fixesPath: String
    let kind: IndexKind
    let threads: Int, reps: Int
    let json: Bool, perFix: Bool, allowDuplicateIDs: Bool
    let cellsPerRadius: Double?

    init(arguments args: Arguments) throws(UsageError) {
        fencesPath = args.string("fences")
        polygonsPath = args.string("polygons")
        if fencesPath == nil && polygonsPath == nil { _ = try args.required("fences") }
        fixesPath = try args.required("fixes")
        kind = try args.choice("index", default: polygonsPath == nil ? IndexKind.packed : IndexKind.cell)
        if polygonsPath != nil && kind != .cell {
            throw UsageError("--polygons needs --index cell (the only index of polygon fences), got --index \(kind.rawValue)")
        }
        threads = try args.int("threads", default: 1, in: 1...1_024)
        reps = try args.int("reps", default: 3, in: 1...BenchLimits.maxReps)
        json = args.flag("json")
        perFix = args.flag("per-fix")
        allowDuplicateIDs = args.flag("allow-duplicate-ids")
        cellsPerRadius = try benchCellsPerRadius()
    }

    func execute() throws {
        // Each fix is stabbed on its own: any order of times.
        let (rows, fixes) = try loadWorkload(
            fencesPath: fencesPath, fixesPath: fixesPath, allowDuplicateIDs: allowDuplicateIDs,
            order: .any)
        let fences = try makeFences(rows)
        let polygons = try polygonsPath.map { path throws(BenchError) in try loadPolygonFences(path) } ?? []
        let input = StabInput(fixes, threads: threads, perFix: perFix)
        let m = try measure(
            kind, fences: fences, polygons: polygons, input: input, threads: threads, reps: reps, statsStride: 1,
            cellsPerRadius: cellsPerRadius
        ) {
            printError("[\(kind.rawValue)] \($0)")
        }
        print(
            json
                ? jsonLine(m)
                : table([m]) + "\n" + "cand FP: candidates the exact test rejected / candidates; B/fence: "
                    + "the index's own bytes per fence; RSS: the process's peak")
    }
}

/// Reads and validates the workload files (truth too when `truthPath` is given; no fences when
/// `fencesPath` is nil), reporting the read speed on stderr. Errors name the file, line and column.
/// `order` is what the command needs of fix times (``WorkloadReader/FixOrder``).
func loadWorkload(
    fencesPath: String?, fixesPath: String, truthPath: String? = nil, allowDuplicateIDs: Bool = false,
    order: WorkloadReader.FixOrder
) throws(BenchError) -> (rows: [WorkloadFence], fixes: FixStream) {
    let t0 = monotonicSeconds()
    let rows: [WorkloadFence]
    let fixes: FixStream
    do {
        rows = try fencesPath.map { try WorkloadReader.readFences(path: $0, allowDuplicateIDs: allowDuplicateIDs) } ?? []
        fixes = try WorkloadReader.readFixes(path: fixesPath, truthPath: truthPath, order: order)
    } catch {
        throw BenchError("\(error)")
    }
    let seconds = monotonicSeconds() - t0
    let total = rows.count + fixes.count * (truthPath == nil ? 1 : 2)
    printError(
        "read \(rows.count) fences and \(fixes.count) fixes\(truthPath == nil ? "" : " with truth") in "
            + "\(formatFixed(seconds, 2)) s (\(formatFixed(Double(total) / seconds / 1e6, 2)) M rows/s)")
    return (rows, fixes)
}

/// Index fences from workload rows (already valid: ``WorkloadReader`` checked every row); a
/// failure names the fence id.
func makeFences(_ rows: [WorkloadFence]) throws(BenchError) -> [Fence] {
    var fences: [Fence] = []
    fences.reserveCapacity(rows.count)
    for r in rows {
        do {
            fences.append(try Fence(id: r.id, latitude: r.latitude, longitude: r.longitude, radiusMeters: r.radius))
        } catch {
            throw BenchError("fence \(r.id): \(error)")
        }
    }
    return fences
}

/// The polygon fences of a GeoJSON file (``WorkloadReader/readPolygons(path:)``): one per
/// feature, its id the feature's integer id. Errors name the file, line, column, feature and
/// JSON path, or the feature whose id is not an integer in 0...Int32.max, or repeats.
func loadPolygonFences(_ path: String) throws(BenchError) -> [PolygonFence] {
    let t0 = monotonicSeconds()
    let fences: [PolygonFence]
    do {
        fences = try WorkloadReader.readPolygons(path: path).map { try PolygonFence(id: $0.id, polygon: $0.polygon) }
    } catch {
        throw BenchError("\(error)")
    }
    printError("read \(fences.count) polygon fences in \(formatFixed(monotonicSeconds() - t0, 2)) s")
    return fences
}

func jsonLine(_ m: Measurement) -> String {
    var o = JSONObject()
    o.set("index", m.kind.rawValue)
    o.set("fences", m.fences)
    o.set("fixes", m.fixes)
    o.set("threads", m.threads)
    o.set("mode", m.perFix ? "per-fix" : "batch")
    o.set("hits", m.totals.hits)
    o.set("checksum", String(m.totals.checksum))
    o.set("build_seconds", m.buildSeconds)
    o.set("query_seconds", m.querySeconds)
    o.set("query_seconds_runs", array: m.querySecondsRuns.map { JSONObject.number($0, decimals: 6) })
    o.set("fixes_per_second", m.fixesPerSecond, decimals: 0)
    o.set("ns_per_fix", m.nanosecondsPerFix, decimals: 1)
    o.set("hits_per_fix", m.hitsPerFix, decimals: 3)
    o.set("candidates", m.stats.candidates)
    o.set("exact_tests", m.stats.exactTests)
    o.set("nodes_visited", m.stats.nodesVisited)
    o.set("box_tests", m.stats.boxTests)
    o.set("boxes_passed", m.stats.boxesPassed)
    o.set("accepted_without_test", m.stats.acceptedWithoutTest)
    o.set("candidate_false_positive_rate", m.stats.falsePositiveRate)
    o.set("candidates_sample_share", m.statsSampleShare)
    o.set("index_bytes", m.indexBytes)
    o.set("bytes_per_fence", m.fences == 0 ? 0 : Double(m.indexBytes) / Double(m.fences), decimals: 1)
    o.set("peak_rss_mb", m.peakRSSMegabytes, decimals: 1)
    return o.text
}

/// A readable fixed-width table of measurements.
func table(_ ms: [Measurement]) -> String {
    let header = ["index", "fences", "build s", "M fixes/s", "ns/fix", "hits/fix", "cand FP", "B/fence", "RSS MB", "checksum"]
    var rows = [header]
    for m in ms {
        rows.append([
            m.kind.label, String(m.fences), formatFixed(m.buildSeconds, 3), formatFixed(m.fixesPerSecond / 1e6, 2),
            formatFixed(m.nanosecondsPerFix, 0), formatFixed(m.hitsPerFix, 2),
            formatFixed(m.stats.falsePositiveRate * 100, 1) + "%",
            m.fences == 0 ? "-" : formatFixed(Double(m.indexBytes) / Double(m.fences), 1),
            formatFixed(m.peakRSSMegabytes, 0), String(m.totals.checksum)
        ])
    }
    return TextTable.render(rows)
}
