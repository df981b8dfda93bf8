import FastCSV
import GeoJSON

/// Writes a workload as the CSV files of docs/WORKLOADS.md: `fences.csv`, `fixes.csv` and, when the
/// stream carries the truth, `truth.csv`, with the decimals the reference workload files use
/// (7 for degrees, 3 for meters and seconds, 1 for accuracies).
public enum WorkloadWriter {
    /// Writes `fences.csv`, `fixes.csv`, (with truth) `truth.csv` and (with polygon fences)
    /// `polygons.geojson` into `directory`, which must exist.
    /// - Throws: ``WorkloadIOError`` naming the file that can't be opened or written.
    public static func write(_ workload: Workload, toDirectory directory: String) throws(WorkloadIOError) {
        try writeFences(workload.fences, path: directory + "/fences.csv")
        try writeFixes(workload.fixes, path: directory + "/fixes.csv")
        if workload.fixes.hasTruth { try writeTruth(workload.fixes, path: directory + "/truth.csv") }
        if !workload.polygons.isEmpty { try writePolygons(workload.polygons, path: directory + "/polygons.geojson") }
    }

    /// Writes the polygon fences as a GeoJSON FeatureCollection: feature `id` = fence id,
    /// property `kind`, one Polygon (shell and holes) each, 7 decimals (the rings already carry
    /// no more, so reading the file gives the same polygons).
    /// - Throws: ``WorkloadIOError`` naming the file.
    public static func writePolygons(_ polygons: [WorkloadPolygon], path: String) throws(WorkloadIOError) {
        let text = GeoJSONWriter.featureCollection(
            polygons.map { GeoJSONOutline(id: Int($0.id), parts: [$0.rings], properties: ["kind": $0.kind.rawValue]) })
        try withFile(path) { out in text.withUnsafeBufferPointer { out.writeRaw($0) } }
    }

    /// Writes `id,lat,lon,radius_m,poi_id,tier` rows.
    /// - Throws: ``WorkloadIOError`` naming the file.
    public static func writeFences(_ fences: [WorkloadFence], path: String) throws(WorkloadIOError) {
        try withFile(path) { out in
            out.writeRecord(["id", "lat", "lon", "radius_m", "poi_id", "tier"])
            for f in fences {
                out.writeField(Int64(f.id))
                out.writeField(f.latitude, decimals: 7)
                out.writeField(f.longitude, decimals: 7)
                out.writeField(f.radius, decimals: 3)
                out.writeField(Int64(f.poiID))
                out.writeField(Int64(f.tier))
                out.endRecord()
            }
        }
    }

    /// Writes `device,t,lat,lon,accuracy_m` rows.
    /// - Throws: ``WorkloadIOError`` naming the file.
    public static func writeFixes(_ fixes: FixStream, path: String) throws(WorkloadIOError) {
        try withFile(path) { out in
            out.writeRecord(["device", "t", "lat", "lon", "accuracy_m"])
            for k in 0..<fixes.count {
                out.writeField(Int64(fixes.device[k]))
                out.writeField(fixes.time[k], decimals: 3)
                out.writeField(fixes.latitude[k], decimals: 7)
                out.writeField(fixes.longitude[k], decimals: 7)
                out.writeField(fixes.accuracy[k], decimals: 1)
                out.endRecord()
            }
        }
    }

    /// Writes `true_lat,true_lon` rows (row k = the truth of fix k).
    /// - Throws: ``WorkloadIOError`` naming the file.
    public static func writeTruth(_ fixes: FixStream, path: String) throws(WorkloadIOError) {
        try withFile(path) { out in
            out.writeRecord(["true_lat", "true_lon"])
            for k in 0..<fixes.count {
                out.writeField(fixes.trueLatitude[k], decimals: 7)
                out.writeField(fixes.trueLongitude[k], decimals: 7)
                out.endRecord()
            }
        }
    }

    /// Opens `path`, lets `body` write, closes it; errors become ``WorkloadIOError``s naming it.
    static func withFile(_ path: String, _ body: (CSVWriter) -> Void) throws(WorkloadIOError) {
        let out: CSVWriter
        do { out = try CSVWriter(path: path) } catch { throw .cannotOpen(path: path, reason: error.message) }
        body(out)
        do { try out.close() } catch { throw .writeFailed(path: path, reason: error.message) }
    }
}
