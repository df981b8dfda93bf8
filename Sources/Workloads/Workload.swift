/// One circular fence of a workload, as written in `fences.csv`
/// (`id,lat,lon,radius_m,poi_id,tier`). Degrees and meters.
public struct WorkloadFence: Hashable, Sendable {
    /// Fence id (`fences.csv` column `id`), in `0...Int32.max`.
    public var id: Int32
    /// Center latitude, degrees.
    public var latitude: Double
    /// Center longitude, degrees.
    public var longitude: Double
    /// Radius in meters, finite and >= 0.
    public var radius: Double
    /// The POI the fence surrounds.
    public var poiID: Int32
    /// Ring of the POI: 0 for the innermost.
    public var tier: Int32

    /// A fence row with these fields (degrees, meters), as given.
    public init(id: Int32, latitude: Double, longitude: Double, radius: Double, poiID: Int32, tier: Int32) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.poiID = poiID
        self.tier = tier
    }
}

/// A stream of GPS fixes in struct-of-arrays form, as in `fixes.csv`
/// (`device,t,lat,lon,accuracy_m`), sorted by time; optionally with the noise-free truth
/// (`truth.csv`: row k is the true position behind fix k).
///
/// Invariant: every array has `count` elements (the truth arrays are empty or have `count`).
public struct FixStream: Sendable {
    /// Device id of each fix, in `0...Int32.max`.
    public var device: [Int32] = []
    /// Seconds since an arbitrary epoch.
    public var time: [Double] = []
    /// Reported latitude of each fix, degrees.
    public var latitude: [Double] = []
    /// Reported longitude of each fix, degrees.
    public var longitude: [Double] = []
    /// Reported horizontal accuracy in meters (one sigma-ish radius, as phones report it).
    public var accuracy: [Double] = []
    /// Noise-free latitude behind each fix, degrees (empty without truth).
    public var trueLatitude: [Double] = []
    /// Noise-free longitude behind each fix, degrees (empty without truth).
    public var trueLongitude: [Double] = []
    /// How many fixes carry an assumed accuracy because their file recorded none (set by
    /// `WorkloadReader/readFixes(path:truthPath:assumedAccuracy:)`; 0 for a stream built
    /// otherwise). Those fixes' ``accuracy`` is the assumption, not a measurement.
    public var assumedAccuracyCount = 0

    /// An empty stream.
    public init() {}

    /// Number of fixes (the length of `device`).
    public var count: Int { device.count }
    /// Whether the stream carries the truth columns.
    public var hasTruth: Bool { !trueLatitude.isEmpty }

    /// Reserves room for `n` fixes in every column (the truth columns too when `truth`).
    public mutating func reserveCapacity(_ n: Int, truth: Bool) {
        device.reserveCapacity(n)
        time.reserveCapacity(n)
        latitude.reserveCapacity(n)
        longitude.reserveCapacity(n)
        accuracy.reserveCapacity(n)
        if truth {
            trueLatitude.reserveCapacity(n)
            trueLongitude.reserveCapacity(n)
        }
    }
}

/// Fences plus fixes: everything one benchmark run reads.
public struct Workload: Sendable {
    /// The fences (a polygon fence's row is its enclosing circle).
    public var fences: [WorkloadFence]
    /// The fixes, in time order.
    public var fixes: FixStream
    /// The exact shapes of the polygon fences (ids among ``fences``' ids), in id order.
    public var polygons: [WorkloadPolygon]

    /// A workload of `fences`, `fixes` and the shapes of its polygon fences.
    public init(fences: [WorkloadFence], fixes: FixStream, polygons: [WorkloadPolygon] = []) {
        self.fences = fences
        self.fixes = fixes
        self.polygons = polygons
    }
}
