import Foundation
import Geodesy
@testable import GeoCells

/// A CSV fixture from `Fixtures/`, split naively (the S2 fixtures have no quoting).
struct Fixture {
    let header: [String]
    let rows: [[String]]

    init(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func column(_ name: String) -> Int {
        guard let k = header.firstIndex(of: name) else { fatalError("no column \(name)") }
        return k
    }
}

/// A row with named access.
struct Row {
    let fixture: Fixture
    let values: [String]
    subscript(_ name: String) -> String { values[fixture.column(name)] }
    func double(_ name: String) -> Double { Double(self[name])! }
    func id(_ name: String) -> CellID? {
        let s = self[name]
        return s.isEmpty ? nil : CellID(rawValue: UInt64(s)!)
    }
    func int(_ name: String) -> Int { Int(self[name])! }
}

extension Fixture {
    var namedRows: [Row] { rows.map { Row(fixture: self, values: $0) } }
}

/// Angular distance in degrees between two lat/lng positions (via unit vectors), robust
/// at the poles where longitude is arbitrary.
func angleDegrees(_ a: LatLng, _ b: LatLng) -> Double {
    let p = a.unitVector, q = b.unitVector
    return degrees(radians: atan2(p.cross(q).norm, p.dot(q)))
}

/// A uniformly random unit vector (Marsaglia-free: normalized Gaussian-ish via rejection).
func randomPoint(_ rng: inout SplitMix64) -> UnitVector {
    while true {
        let p = UnitVector(x: 2 * rng.nextUnit() - 1, y: 2 * rng.nextUnit() - 1, z: 2 * rng.nextUnit() - 1)
        let n2 = p.norm2
        if n2 > 1e-6 && n2 <= 1 { return p.normalized }
    }
}

/// A random valid cell at `level` (a random leaf's ancestor).
func randomCell(_ rng: inout SplitMix64, level: Int) -> CellID {
    let face = Int(rng.next() % 6)
    let pos = rng.next() & (~UInt64(0) >> 3)
    return CellID(face: face, position: pos, level: level)
}
