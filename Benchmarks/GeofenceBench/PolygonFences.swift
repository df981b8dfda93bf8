import Geofencing
import Workloads

/// The polygon fences of `--polygons P.geojson` over the fence rows (nil path: none); a failure
/// names the file, line, column, feature and JSON path, or the id that does not fit.
func loadOutlines(_ path: String?, rows: [WorkloadFence]) throws(BenchError) -> FenceOutlines {
    guard let path else { return FenceOutlines() }
    do {
        return try FenceOutlines(WorkloadReader.readPolygons(path: path, fences: rows))
    } catch {
        throw BenchError("\(error)")
    }
}
