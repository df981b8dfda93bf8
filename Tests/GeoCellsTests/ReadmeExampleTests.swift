import Geodesy
import GeoCells
import Testing

/// The API example of README.md, kept here verbatim so it cannot rot: if this stops
/// compiling or its expectations fail, README.md must change with it.
@Suite struct ReadmeExampleTests {
    @Test func readmeExample() throws {
        // --- README example begins ---
        let helsinki = try LatLng(latitude: 60.1699, longitude: 24.9384)
        let monaco = try LatLng(latitude: 43.7384, longitude: 7.4246)

        let metres = haversineDistance(helsinki, monaco)           // great circle, R = 6,371,008.8 m
        let bearing = initialBearing(from: helsinki, to: monaco)   // degrees clockwise from north
        let oneMileOut = destination(from: helsinki, bearing: 90, distance: 1609.344)

        let leaf = CellID(helsinki)                    // level-30 S2 cell, bit-identical to Google S2
        let token = leaf.parent(level: 13).token       // "46920b5" style token
        let fence = Cap(center: helsinki, meters: 1609.344)
        let cells = try RegionCoverer(maxCells: 8).covering(of: fence)   // S2RegionCoverer, cell for cell
        let box = LatLngBox.bounding(center: helsinki, radius: 1609.344) // right at poles and ±180
        // --- README example ends ---

        #expect(abs(metres - 2_171_028.3) < 0.1)
        #expect(bearing > 180 && bearing < 270)
        #expect(abs(haversineDistance(helsinki, oneMileOut) - 1609.344) < 1e-6)
        #expect(try CellID(token: token) == leaf.parent(level: 13))
        #expect(cells.count <= 8 && cells.contains { $0.contains(leaf) })
        #expect(box.contains(oneMileOut))
    }
}
