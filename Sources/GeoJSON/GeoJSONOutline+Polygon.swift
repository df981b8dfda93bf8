import GeoCells
import Geodesy

extension GeoJSONOutline {
    /// The feature of `polygon`: each shell (a loop of even depth) is a part, followed by the
    /// holes it directly holds (the loops one deeper inside it), each hole written clockwise as
    /// RFC 7946 asks; positions in degrees. ``GeoJSONReader`` reads back the same loops, vertex
    /// for vertex, whenever every vertex's latitude and longitude have at most 7 decimals (as
    /// OpenStreetMap's and this writer's positions do).
    /// - Complexity: O(loops² + vertices).
    public init(id: Int, polygon: Polygon, properties: [String: String] = [:]) {
        func loop(_ k: Int) -> ArraySlice<UnitVector> { polygon.vertices[polygon.loopStarts[k]..<polygon.loopStarts[k + 1]] }
        var parts: [[[LatLng]]] = []
        for k in 0..<polygon.loopCount where !polygon.isHole(k) {
            let shell = Set(loop(k))
            var part = [loop(k).map(\.latLng)]
            for h in 0..<polygon.loopCount where polygon.depths[h] == polygon.depths[k] + 1 {
                // A vertex of the hole that is not one of the shell's: strictly on one side.
                guard let v = loop(h).first(where: { !shell.contains($0) }), polygon.loopContains(k, v) else { continue }
                part.append(loop(h).reversed().map(\.latLng))
            }
            parts.append(part)
        }
        self.init(id: id, parts: parts, properties: properties)
    }
}
