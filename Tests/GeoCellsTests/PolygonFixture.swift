import Foundation
import Geodesy

@testable import GeoCells

/// The polygons of Fixtures/s2_polygons.txt, or of s2_hard_polygons.txt for `set: "hard_"` (see
/// Fixtures/README.md): "polygon ID RINGS", then per ring "ring N" and N lines "LAT LON" in
/// degrees (open rings).
struct PolygonFixture {
    struct Entry {
        let id: String
        let rings: [[LatLng]]
    }
    let entries: [Entry]

    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    }

    /// The file name of the set: `s2_` + set + name (set "" for the OSM and synthetic set, "hard_"
    /// for the hard synthetic set).
    static func file(_ set: String, _ name: String) -> String { "s2_\(set)\(name)" }

    init(set: String = "") throws {
        let text = try String(contentsOf: PolygonFixture.url(PolygonFixture.file(set, "polygons.txt")), encoding: .utf8)
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
    static func points(set: String = "") throws -> [String: LatLng] {
        let text = try String(contentsOf: url(file(set, "polygon_points.txt")), encoding: .utf8)
        var out: [String: LatLng] = [:]
        for line in text.split(separator: "\n") {
            let w = line.split(separator: " ")
            out["\(w[0]) \(w[1])"] = LatLng(uncheckedLatitude: Double(w[2])!, longitude: Double(w[3])!)
        }
        return out
    }
}
