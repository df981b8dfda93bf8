import Geodesy

// Adapters to the S2 cell code, kept in one file so the subcommands compile before the
// `cells` and `coverer` branches are merged. Until then `isAvailable` is false and the
// subcommands report "not available yet".

/// `CellID(LatLng).parent(level:)` as (id, token).
enum CellBackend {
    static let isAvailable = false

    static func cell(_ point: LatLng, level: Int) -> (UInt64, String) {
        fatalError("S2 cells not available in this build")
    }
}

/// A configured `RegionCoverer` producing sorted tokens for a cap.
struct CoverBackend {
    static let isAvailable = false

    init(maxCells: Int, minLevel: Int, maxLevel: Int, levelMod: Int, interior: Bool) {}

    func tokens(center: LatLng, meters: Double) -> [String] {
        fatalError("region coverer not available in this build")
    }
}
