import Foundation
import Geodesy

@testable import GeoCells

/// The polygons of Fixtures/s2_polygons.txt (see Fixtures/README.md): "polygon ID RINGS", then
/// per ring "ring N" and N lines "LAT LON" in degrees (open rings).
struct PolygonFixture {
    struct Entry {
        let id: String
        let rings: [[LatLng]]
    }
    let entries: [Entry]

    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    }

    init() throws {
        let text = try String(contentsOf: PolygonFixture.url("s2_polygons.txt"), encoding: .utf8)
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })[...]
        var out: [Entry] = []
        func next() -> Substring { words.removeFirst() }
        while !words.isEmpty {
            precondition(next() == "polygon")
            let id = String(next())
            let ringCount = Int(next())!
            var rings: [[LatLng]] = []
            for _ in 0..<ringCount {
                precondition(next() == "ring")
                let n = Int(next())!
                var ring: [LatLng] = []
                for _ in 0..<n {
                    let lat = Double(next())!, lon = Double(next())!
                    ring.append(LatLng(uncheckedLatitude: lat, longitude: lon))
                }
                rings.append(ring)
            }
            out.append(Entry(id: id, rings: rings))
        }
        entries = out
    }

    /// The test points: polygon id, point id -> lat/lng.
    static func points() throws -> [String: LatLng] {
        let text = try String(contentsOf: url("s2_polygon_points.txt"), encoding: .utf8)
        var out: [String: LatLng] = [:]
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ")
            out["\(w[0]) \(w[1])"] = LatLng(uncheckedLatitude: Double(w[2])!, longitude: Double(w[3])!)
        }
        return out
    }
}
