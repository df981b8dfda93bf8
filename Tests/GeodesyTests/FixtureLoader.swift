import Foundation
import Geodesy

/// Loads the reference CSVs in `Fixtures/` (see Fixtures/README.md for their provenance).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Rows of a CSV with a header line, as dictionaries from column name to text.
    static func rows(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }

    /// One row of distances.csv (inverse problem).
    struct InverseRow {
        let id: Int
        let category: String
        let a: LatLng
        let b: LatLng
        let haversineMeters: Double
        let sphereAzimuthDegrees: Double
        let wgs84Meters: Double
        let bearingDefined: Bool
    }

    /// One row of distances_direct.csv (direct problem).
    struct DirectRow {
        let id: Int
        let category: String
        let start: LatLng
        let azimuthDegrees: Double
        let meters: Double
        let sphereLat2: Double
        let sphereLon2: Double
    }

    static func inverse() throws -> [InverseRow] {
        try rows("distances.csv").map { r in
            func d(_ k: String) -> Double { Double(r[k]!)! }
            return InverseRow(
                id: Int(r["id"]!)!, category: r["category"]!,
                a: try LatLng(latitude: d("lat1"), longitude: d("lon1")),
                b: try LatLng(latitude: d("lat2"), longitude: d("lon2")),
                haversineMeters: d("haversine_m"), sphereAzimuthDegrees: d("sphere_azi1_deg"),
                wgs84Meters: d("wgs84_geodesic_m"), bearingDefined: r["bearing_defined"] == "1")
        }
    }

    static func direct() throws -> [DirectRow] {
        try rows("distances_direct.csv").map { r in
            func d(_ k: String) -> Double { Double(r[k]!)! }
            return DirectRow(
                id: Int(r["id"]!)!, category: r["category"]!,
                start: try LatLng(latitude: d("lat1"), longitude: d("lon1")),
                azimuthDegrees: d("azi1_deg"), meters: d("dist_m"),
                sphereLat2: d("sphere_lat2"), sphereLon2: d("sphere_lon2"))
        }
    }
}

/// The absolute difference of two angles in degrees, modulo 360 (so 359.9 and 0.1 differ by 0.2).
func angleDifference(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}

/// Per-category maximum of some error, for reporting.
struct CategoryMax {
    private(set) var values: [String: (value: Double, id: Int)] = [:]
    mutating func record(_ category: String, _ value: Double, id: Int) {
        if value > (values[category]?.value ?? -1) { values[category] = (value, id) }
    }
    var overall: Double { values.values.map(\.value).max() ?? 0 }
    func report(_ title: String) -> String {
        let body = values.keys.sorted().map { k in
            "  \(k): \(values[k]!.value) (row \(values[k]!.id))"
        }.joined(separator: "\n")
        return "\(title)\n\(body)"
    }
}
