import GeoCells
import GeoJSON
import Geodesy

extension WorkloadReader {
    /// Reads polygon fences from GeoJSON: each feature's polygon with its fence id (the
    /// feature's `id`, an integer in `0...Int32.max` that must not repeat), in the file's order.
    /// - Throws: ``WorkloadIOError/badFeature(path:detail:)`` naming the line, column, feature
    ///   and JSON path of a GeoJSON error, or the feature and its id.
    public static func readPolygons(path: String) throws(WorkloadIOError) -> [(id: Int32, polygon: Polygon)] {
        let features: [GeoJSONFeature]
        do throws(GeoJSONError) {
            var reader = try GeoJSONReader(path: path)
            features = try reader.readAll()
        } catch {
            throw .badFeature(
                path: path,
                detail:
                    "\(error.line):\(error.column): \(error.featureIndex.map { "feature \($0)" } ?? "document") at \(error.path): \(error.message)")
        }
        var seen: Set<Int32> = []
        var out: [(id: Int32, polygon: Polygon)] = []
        for f in features {
            guard case .integer(let n) = f.id, let id = Int32(exactly: n), id >= 0 else {
                throw .badFeature(path: path, detail: "feature \(f.index): id \(f.id) is not a fence id (an integer in 0...\(Int32.max))")
            }
            guard seen.insert(id).inserted else {
                throw .badFeature(path: path, detail: "feature \(f.index): id \(id) repeats an earlier feature")
            }
            out.append((id, f.polygon))
        }
        return out
    }

    /// Reads a workload's `polygons.geojson`: the exact shape of each polygon fence, in the file's
    /// order (``readPolygons(path:)``). Every feature's `id` must also be the id of a row of
    /// `fences` (that row is the polygon's enclosing circle: the circle the OS watches and the
    /// index keys it by), and that row's circle must contain every vertex of the polygon.
    /// - Throws: ``WorkloadIOError/badFeature(path:detail:)`` naming the line, column, feature
    ///   and JSON path of a GeoJSON error, or the feature and id of a mismatch.
    public static func readPolygons(path: String, fences: [WorkloadFence]) throws(WorkloadIOError)
        -> [(id: Int32, polygon: Polygon)]
    {
        let polygons = try readPolygons(path: path)
        var rowOfID: [Int32: Int] = [:]
        for (k, f) in fences.enumerated() { rowOfID[f.id] = k }
        for (feature, (id, polygon)) in polygons.enumerated() {
            guard let row = rowOfID[id] else {
                throw .badFeature(path: path, detail: "feature \(feature): id \(id) has no row in the fences file")
            }
            let r = fences[row]
            let center = UnitVector(LatLng(uncheckedLatitude: r.latitude, longitude: r.longitude))
            let limit = chord2(forMeters: r.radius)
            if let v = polygon.vertices.firstIndex(where: { $0.chord2(to: center) > limit }) {
                throw .badFeature(
                    path: path,
                    detail: "feature \(feature): vertex \(v) of polygon \(id) lies outside its fence row's circle (radius \(r.radius) m)")
            }
        }
        return polygons
    }
}
