import CommandSupport
import GeoCells
import Geodesy

// Adapters from the subcommands to GeoCells, kept in one file.

/// `CellID(LatLng).parent(level:)` as (id, token).
enum CellBackend {
    static func cell(_ point: LatLng, level: Int) -> (UInt64, String) {
        let cell = CellID(point).parent(level: level)
        return (cell.rawValue, cell.token)
    }
}

/// A configured `RegionCoverer` producing the tokens of a cap's covering in increasing id order.
struct CoverBackend {
    let coverer: RegionCoverer
    let interior: Bool

    /// - Throws: the coverer's own option error text (the CLI validates first, so this is a backstop).
    init(maxCells: Int, minLevel: Int, maxLevel: Int, levelMod: Int, interior: Bool) throws(UsageError) {
        do {
            coverer = try RegionCoverer(maxCells: maxCells, minLevel: minLevel, maxLevel: maxLevel, levelMod: levelMod)
        } catch {
            throw UsageError(error.description)
        }
        self.interior = interior
    }

    func tokens(center: LatLng, meters: Double) -> [String] {
        let cap = Cap(center: center, meters: meters)
        let cells = interior ? coverer.interiorCovering(of: cap) : coverer.covering(of: cap)
        return cells.sorted { $0.rawValue < $1.rawValue }.map(\.token)
    }
}
