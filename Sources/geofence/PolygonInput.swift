import CommandSupport
import GeoJSON

/// The polygon features of `--polygons P.geojson`, or a usage-style report naming the file,
/// feature, JSON path, line and column.
enum PolygonInput {
    static func load(_ path: String, io: ToolIO) -> [GeoJSONFeature]? {
        do throws(GeoJSONError) {
            var reader = try GeoJSONReader(path: path)
            return try reader.readAll()
        } catch {
            io.report(error.formatted(source: path))
            io.flush()
            return nil
        }
    }
}
