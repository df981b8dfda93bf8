import Foundation
import Geodesy

@testable import GeoCells

/// One line of Fixtures/s2_covers.jsonl (see Fixtures/README.md): a cap, a coverer setting and
/// the covering Google S2 0.14 returned for it.
struct CoverRow: Decodable, Sendable {
    let cap_id: Int
    let category: String
    let lat: Double
    let lon: Double
    let radius_m: Double
    let angle_rad: Double
    let center_xyz: [Double]
    let cap_height: Double
    let setting: String
    let interior: Bool
    let max_cells: Int
    let min_level: Int
    let max_level: Int
    let level_mod: Int
    let cell_ids: [String]
    let area_ratio: Double

    var center: UnitVector { UnitVector(x: center_xyz[0], y: center_xyz[1], z: center_xyz[2]) }
    /// The cap exactly as S2 built it: `S2Cap(center_xyz, S1Angle::Radians(angle_rad))`.
    var cap: Cap { Cap(center: center, angleRadians: angle_rad) }
    var s2Cells: [CellID] { cell_ids.map { CellID(rawValue: UInt64($0)!) } }
    var coverer: RegionCoverer {
        try! RegionCoverer(maxCells: max_cells, minLevel: min_level, maxLevel: max_level, levelMod: level_mod)
    }
    func cover(_ coverer: RegionCoverer) -> [CellID] {
        interior ? coverer.interiorCovering(of: cap) : coverer.covering(of: cap)
    }
}

enum CoverFixture {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/s2_covers.jsonl")

    /// All 2000 rows, in file order.
    static let rows: [CoverRow] = {
        let text = try! String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return text.split(separator: "\n").map { line in
            try! decoder.decode(CoverRow.self, from: Data(line.utf8))
        }
    }()

    static let settings = ["A_cover_max8", "B_cover_max16_L10_16", "C_interior_max8", "D_interior_max16_L10_16"]
}

/// Test-point helpers shared by the cap and coverer tests.
enum CapSampler {
    /// Two unit vectors orthogonal to `c` and to each other.
    static func frame(_ c: UnitVector) -> (UnitVector, UnitVector) {
        let helper = abs(c.x) < 0.6 ? UnitVector(x: 1, y: 0, z: 0) : UnitVector(x: 0, y: 1, z: 0)
        let u = c.cross(helper).normalized
        let v = c.cross(u).normalized
        return (u, v)
    }

    /// The point at central angle `angle` (radians) from `c` in direction `azimuth` (radians).
    static func point(_ c: UnitVector, _ u: UnitVector, _ v: UnitVector, angle: Double, azimuth: Double) -> UnitVector {
        let dir = u * cos(azimuth) + v * sin(azimuth)
        return (c * cos(angle) + dir * sin(angle)).normalized
    }

    /// The check points of the fixture's README: the center, `ring` points at
    /// 0.9999999 x radius, and `random` points uniformly inside (seeded).
    static func samples(_ cap: Cap, ring: Int = 256, random: Int = 256, seed: UInt64) -> [UnitVector] {
        let c = cap.center
        let (u, v) = frame(c)
        let r = cap.radius.radians
        var out = [c]
        for k in 0..<ring {
            out.append(point(c, u, v, angle: r * 0.9999999, azimuth: 2 * Double.pi * Double(k) / Double(ring)))
        }
        var rng = SplitMix64(seed: seed)
        for _ in 0..<random {
            // sqrt of a uniform variate: uniform by area for the small caps used here.
            out.append(point(c, u, v, angle: r * rng.nextUnit().squareRoot(), azimuth: 2 * Double.pi * rng.nextUnit()))
        }
        return out
    }
}
